"""The package namespace: every public name resolves on first use, and
``import rougekit`` imports none of it until then, so ``rougekit rouge155``
starts without the rest of rougekit."""
import subprocess
import sys

import pytest

import rougekit

pytestmark = pytest.mark.installed


def _imported_after(code):
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\n"
                          "print(' '.join(sorted(m for m in sys.modules "
                          "if m == 'numpy' or m.startswith('rougekit'))))"],
                         capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_every_public_name_resolves():
    for name in rougekit.__all__:
        assert getattr(rougekit, name) is not None, name
    assert set(rougekit.__all__) <= set(dir(rougekit))
    assert rougekit.score_corpus is rougekit.corpus.score_corpus
    assert rougekit.BACKEND in ("compiled", "pure")


def test_submodules_as_attributes_and_unknown_names():
    assert rougekit.lang.__name__ == "rougekit.lang"
    with pytest.raises(AttributeError, match="no_such_name"):
        rougekit.no_such_name  # noqa: B018 (the access is the test)


def test_import_is_light():
    assert _imported_after("import rougekit") == {"rougekit", "rougekit._version"}


def test_rouge155_command_imports_only_its_part():
    loaded = _imported_after(
        "import contextlib, io\n"
        "from rougekit._launch import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['rouge155', '-h']) == 0")
    assert "rougekit.rouge155.cli" in loaded
    assert not loaded & {"rougekit.rouge_scorer", "rougekit.cli", "rougekit.corpus",
                         "rougekit.tokenizers"}, loaded


def test_the_type_checking_imports_match_the_lazy_table():
    """``__init__.py`` names each public object twice: in the imports that
    type checkers read and in the table ``__getattr__`` imports from. They
    must agree: same names, same modules."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(rougekit))
    block = next(node for node in tree.body if isinstance(node, ast.If)
                 and getattr(node.test, "id", None) == "TYPE_CHECKING")
    declared = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.dump(node)
        for alias in node.names:
            if node.module == "rougekit":
                declared[alias.asname or alias.name] = (f"rougekit.{alias.name}", None)
            else:
                declared[alias.asname or alias.name] = (node.module, alias.name)
    assert declared == rougekit._LAZY
    assert set(rougekit.__all__) - {"__version__"} == set(rougekit._LAZY)


def test_the_report_templates_are_package_data():
    """The wheel carries the report's templates (pyproject.toml's
    package-data, MANIFEST.in for the sdist): ``rougekit report`` cannot
    render without them."""
    from importlib import resources
    templates = resources.files("rougekit") / "templates"
    assert {p.name for p in templates.iterdir()} >= {"report.html.j2", "report.js"}
