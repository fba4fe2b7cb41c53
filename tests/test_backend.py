"""One switch decides compiled or pure for every kernel, and the twins pair up.

``rougekit._backend`` is the only module that chooses; with
``ROUGEKIT_PURE_PYTHON=1`` no extension module may be imported at all, so the
pure backend really runs without the compiled core (as on a platform with no
wheel). Every compiled module ``_core/_<name>.pyx`` is one of
``_backend.KERNELS`` and has a pure twin ``_core/_<name>_py.py`` with the same
public names and signatures.
"""
import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rougekit
from rougekit import _backend

pytestmark = [pytest.mark.backend, pytest.mark.installed]

ROOT = Path(rougekit.__file__).resolve().parent
KERNELS = _backend.KERNELS     # what _backend imports, by these names

# Everything a user might touch: scoring on every path, the CLI's modules.
EXERCISE = """
import json, sys
import rougekit
from rougekit import cli, rouge_scorer, io, rouge, significance, hf
s = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
s.score("The cats ran.\\nFast.", "A cat runs fast.")
s.score_batch(["a b"] * 40, ["b a"] * 40, threads=2)
rougekit.score_corpus(["a b c"], [["a c", "b"]], bootstrap=20, seed=1)
rougekit.rouge_l(["a", "b"], ["b"])
rouge_scorer._score_lcs(["a", "b"], ["b"])
rougekit.RougeIndex(["a b", "c"]).top_k("a", 1)
rougekit.deduplicate(["a b", "a b", "c"], threads=2)
extensions = sorted(name for name, module in sys.modules.items()
                    if name.startswith("rougekit") and
                    getattr(module, "__file__", "").endswith((".so", ".pyd")))
print(json.dumps([rougekit.BACKEND, extensions]))
"""


def _run(env_value):
    env = {k: v for k, v in __import__("os").environ.items()
           if k not in ("ROUGEKIT_PURE_PYTHON", "ROUGEKIT_REQUIRE_EXTENSIONS")}
    if env_value is not None:
        env["ROUGEKIT_PURE_PYTHON"] = env_value
    proc = subprocess.run([sys.executable, "-c", EXERCISE], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_pure_python_switch_loads_no_extension():
    backend, extensions = _run("1")
    assert backend == "pure"
    assert extensions == []


def test_default_uses_the_compiled_core_when_built():
    backend, extensions = _run(None)
    if backend == "pure":
        pytest.skip("the compiled core is not built here")
    assert backend == "compiled"
    assert {f"rougekit._core._{k}" for k in KERNELS} <= set(extensions)


def test_the_switch_is_decided_once_for_every_kernel():
    suffix = "" if _backend.NAME == "compiled" else "_py"
    for name in KERNELS:
        assert getattr(_backend, name).__name__ == f"rougekit._core._{name}{suffix}"


def test_kernels_are_the_compiled_modules():
    pyx = {path.stem for path in (ROOT / "_core").glob("*.pyx")}
    if not pyx:
        pytest.skip("no .pyx files here")
    assert pyx == {f"_{name}" for name in KERNELS}
    assert all((ROOT / "_core" / f"_{name}_py.py").exists() for name in KERNELS)


@pytest.mark.parametrize("name", KERNELS)
def test_every_compiled_module_has_a_twin_with_its_names(name):
    twin = importlib.import_module(f"rougekit._core._{name}_py")
    pyx = ROOT / "_core" / f"_{name}.pyx"
    pyi = ROOT / "_core" / f"_{name}.pyi"
    assert pyi.exists(), f"{pyi.name} missing"
    if pyx.exists():
        # The stub lists the compiled module's API; the twin has every public name.
        stub = pyi.read_text("utf-8")
        public = {m for m in re.findall(r"^(?:def|class) (\w+)", stub, re.M)
                  if not m.startswith("_")}
        missing = sorted(n for n in public if not hasattr(twin, n))
        assert not missing, f"_{name}_py lacks {missing}"
    if _backend.NAME == "compiled":
        compiled = importlib.import_module(f"rougekit._core._{name}")
        for attr in dir(compiled):
            if not attr.startswith("_") and callable(getattr(compiled, attr)):
                assert hasattr(twin, attr), f"_{name}_py lacks {attr}"


def test_no_module_outside_the_switch_imports_a_compiled_kernel():
    compiled = {pyx.stem for pyx in (ROOT / "_core").glob("*.pyx")}
    offenders = []
    for path in ROOT.rglob("*.py"):
        if path.name == "_backend.py":
            continue
        for line in path.read_text("utf-8").splitlines():
            stripped = line.strip()
            match = re.match(r"(?:from|import) rougekit\._core(?:\.(\w+))?(?: import (.*))?",
                             stripped)
            if not match:
                continue
            names = {match.group(1)} | {part.split(" as ")[0].strip(" ()")
                                        for part in (match.group(2) or "").split(",")}
            if names & compiled:
                offenders.append(f"{path.relative_to(ROOT)}: {stripped}")
    assert compiled and not offenders, offenders


def _parameters(function):
    """Names, kinds and defaults of ``function``'s parameters (annotations
    aside: the stubs have the compiled modules' types), or None when it
    shows none (a cdef class's constructor, a slot wrapper)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    kinds = [p.kind for p in parameters[-2:]]
    if kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
        return None
    return [(p.name, p.kind, p.default) for p in parameters]


@pytest.mark.parametrize("name", KERNELS)
def test_twins_have_the_same_signatures(name):
    if _backend.NAME != "compiled":
        pytest.skip("the compiled core is not loaded")
    compiled = importlib.import_module(f"rougekit._core._{name}")
    twin = importlib.import_module(f"rougekit._core._{name}_py")
    pairs = []
    for attr in dir(compiled):
        value = getattr(compiled, attr)
        if attr.startswith("_") or inspect.ismodule(value) or not callable(value):
            continue
        pairs.append((attr, value, getattr(twin, attr)))
        if inspect.isclass(value):
            pairs += [(f"{attr}.{method}", getattr(value, method),
                       getattr(getattr(twin, attr), method, None))
                      for method in dir(value) if not method.startswith("_")
                      and callable(getattr(value, method))]
    assert pairs
    differ = []
    for label, ours, theirs in pairs:
        expected = _parameters(ours)
        if expected is not None and (theirs is None or _parameters(theirs) != expected):
            differ.append(f"{label}: compiled {expected}, pure "
                          f"{_parameters(theirs) if theirs is not None else 'missing'}")
    assert not differ, differ


def test_the_rouge_kinds_have_one_definition_in_c_and_one_in_python():
    """C takes the rouge kinds as compile-time constants (the enum of
    ``_kinds.pxd``), the pure backend, which loads no extension, as Python
    ints (``_kinds_py``, which ``rougekit._rouge_types`` and the twins
    import). The compiled kernels export the enum's values, which must be
    Python's (tests/test_one_definition.py: no other file defines them)."""
    from rougekit import _rouge_types
    from rougekit._core import _kinds_py
    expected = {"KIND_L": _kinds_py.ROUGE_L, "KIND_LSUM": _kinds_py.ROUGE_LSUM}
    assert (_rouge_types.ROUGE_L, _rouge_types.ROUGE_LSUM) == (expected["KIND_L"],
                                                               expected["KIND_LSUM"])
    names = ["engine", "ids_score", "text_index"]
    modules = [importlib.import_module(f"rougekit._core._{name}_py") for name in names]
    if _backend.NAME == "compiled":
        modules += [importlib.import_module(f"rougekit._core._{name}") for name in names]
    for module in modules:
        assert module.KIND_L == expected["KIND_L"], module.__name__
        if hasattr(module, "KIND_LSUM"):
            assert module.KIND_LSUM == expected["KIND_LSUM"], module.__name__
