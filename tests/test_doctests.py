"""Every docstring example of every rougekit module runs and prints what it shows.

The modules are found by walking the package, so a new module is covered
without a line here; the compiled modules are included (Cython puts their
functions' docstrings in the module's ``__test__``). On the pure backend the
compiled modules are not imported (``ROUGEKIT_PURE_PYTHON=1`` loads none); a
module whose optional dependency (pandas, dask, ...) is absent is skipped with
the reason.
"""
import doctest
import importlib
import importlib.metadata
import importlib.util
import pkgutil
import re

import pytest

import rougekit
from rougekit import _backend

pytestmark = pytest.mark.installed


def _module_names():
    names = ["rougekit"]
    for info in pkgutil.walk_packages(rougekit.__path__, "rougekit."):
        names.append(info.name)
    return sorted(set(names))


MODULES = _module_names()


def _optional_packages():
    """The import names of rougekit's optional dependencies (its extras'
    requirements), from the installed distribution's metadata; empty when
    rougekit runs from a source tree, where every one is installed."""
    try:
        requires = importlib.metadata.requires("rougekit") or []
    except importlib.metadata.PackageNotFoundError:
        return set()
    return {re.match(r"[\w.-]+", r).group(0).lower().replace("-", "_")
            for r in requires if "extra ==" in r}


OPTIONAL = _optional_packages()


def _is_extension(name):
    # Found, not imported: on the pure backend no extension may be loaded.
    origin = importlib.util.find_spec(name).origin or ""
    return origin.endswith((".so", ".pyd"))


def test_modules_are_found():
    assert {"rougekit.rouge_scorer", "rougekit._core._lcs_py", "rougekit._core._engine_py",
            "rougekit.signature"} <= set(MODULES)
    if _backend.NAME == "compiled":
        assert "rougekit._core._lcs" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name.endswith("__main__"):
        pytest.skip("runs the command line on import")
    if _is_extension(name) and _backend.NAME != "compiled":
        pytest.skip("compiled module: not loaded on the pure backend")
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or ""
        if missing and not missing.startswith("rougekit"):
            pytest.skip(f"optional dependency not installed: {missing}")
        raise
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    seen, report, missing_extras = set(), [], set()
    for test in finder.find(module, name):
        # Cython lists each function's docstring twice (itself and __test__).
        key = (test.docstring, test.lineno)
        if not test.examples or key in seen:
            continue
        seen.add(key)
        out = []
        failed = runner.run(test, out=out.append).failed
        text = "".join(out)
        # An example that needs an optional extra not installed here says
        # so in one line naming it ("pip install 'rougekit[...]'"), or
        # imports an optional dependency itself (pyarrow, torch, ...) and
        # fails with ModuleNotFoundError naming it.
        extras = re.findall(r"rougekit\[(\w+)\]", text) if "ImportError" in text else []
        extras += [m for m in re.findall(r"ModuleNotFoundError: No module named '(\w+)", text)
                   if m in OPTIONAL and importlib.util.find_spec(m) is None]
        if failed and extras:
            missing_extras.update(extras)
        elif failed:
            report.append(text)
    assert not report, "".join(report)
    if missing_extras:
        pytest.skip("examples need optional extras not installed: "
                    + ", ".join(sorted(missing_extras)))
