"""Run code written for rouge-score on rougekit without editing it.

After ``install_as_rouge_score()``, ``import rouge_score`` and
``from rouge_score import rouge_scorer, scoring, tokenize, tokenizers, io``
give rougekit's modules of those names, which have rouge-score 0.1.2's API and
results. That is for code the user cannot edit: a metric script, another
library, a notebook from a paper::

    import rougekit
    rougekit.install_as_rouge_score()     # first, before the code below runs

    from rouge_score import rouge_scorer  # rougekit.rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    scorer.score("the cat sat", "the cat sat down")

It works by registering, in ``sys.modules``, a package module ``rouge_score``
whose attributes and submodules (``rouge_score.rouge_scorer``, ...) are
rougekit's modules; rouge-score need not be installed. Those six modules
exist (``rouge_score.rouge`` is the command line's module, with its ``FLAGS``
and ``main``); ``rouge_score.create_pyrouge_files`` (a script that writes
pyrouge's input files) raises ``ModuleNotFoundError``.
Objects keep their rougekit identity (``type(scorer).__module__`` is
``"rougekit.rouge_scorer"``), so pickles made under the shim load without it.
``importlib.metadata.version("rouge-score")`` still reports the installed
distribution, if any: the shim changes imports, not package metadata.

If the real rouge_score is already imported
-------------------------------------------
Modules that already ran ``from rouge_score import rouge_scorer`` hold the
real module, and the shim cannot reach into them, so installing late gives a
mix. By default ``install_as_rouge_score()`` then still replaces every
``rouge_score`` and ``rouge_score.*`` entry of ``sys.modules`` (imports from
then on get rougekit) and emits a ``RuntimeWarning`` naming what was
replaced; with ``strict=True`` it raises ``RuntimeError`` instead and changes
nothing. Install it first thing to avoid both. ``uninstall_as_rouge_score()``
puts back whatever entries the install replaced.
"""
import importlib
import importlib.machinery
import sys
import threading
import types
import warnings
from typing import Dict, Optional

__all__ = ["install_as_rouge_score", "uninstall_as_rouge_score", "is_installed"]

PACKAGE = "rouge_score"
# rouge_score.<name> is rougekit.<name>. Imported when the shim is installed,
# not when rougekit is: ``python -m rougekit.rouge`` must find rougekit.rouge
# not yet imported.
SUBMODULE_NAMES = ("rouge_scorer", "scoring", "tokenize", "tokenizers", "io", "rouge")


def _submodules() -> Dict[str, types.ModuleType]:
    return {name: importlib.import_module("rougekit." + name) for name in SUBMODULE_NAMES}

_lock = threading.Lock()
_shim: Optional[types.ModuleType] = None
# sys.modules entries the install replaced (name -> module), for uninstall.
_replaced: Dict[str, types.ModuleType] = {}


def _make_package() -> types.ModuleType:
    package = types.ModuleType(PACKAGE, __doc__)
    # A spec with submodule_search_locations=[] makes it a package, so
    # "import rouge_score.rouge_scorer" works, and importlib.util.find_spec
    # ("rouge_score") returns a spec (libraries probe availability with it)
    # instead of raising ValueError on a module without __spec__.
    package.__spec__ = importlib.machinery.ModuleSpec(PACKAGE, None, is_package=True)
    package.__path__ = []
    package.__package__ = PACKAGE
    setattr(package, "__rougekit_shim__", True)  # noqa: B010 (how is_installed() knows it)
    for name, module in _submodules().items():
        setattr(package, name, module)
    setattr(package, "__all__", list(SUBMODULE_NAMES))  # noqa: B010 (mypy: not a declared attribute)
    return package


def _ours(name: str) -> Optional[types.ModuleType]:
    """The module the shim registers under ``name``, or None."""
    if name == PACKAGE:
        return _shim
    sub = name[len(PACKAGE) + 1:]
    return _submodules()[sub] if sub in SUBMODULE_NAMES else None


def _foreign_entries() -> Dict[str, types.ModuleType]:
    """Entries of sys.modules for rouge_score that are not the shim's."""
    found = {}
    for name, module in list(sys.modules.items()):
        if (name == PACKAGE or name.startswith(PACKAGE + ".")) and \
                module is not None and module is not _ours(name):
            found[name] = module
    return found


def is_installed() -> bool:
    """True when ``import rouge_score`` gives the shim right now."""
    module = sys.modules.get(PACKAGE)
    return module is not None and getattr(module, "__rougekit_shim__", False)


def install_as_rouge_score(strict: bool = False) -> types.ModuleType:
    """Make ``import rouge_score`` (and its modules) give rougekit's.

    Calling it again is harmless (nothing changes, no warning). Returns the
    ``rouge_score`` package module it registered.

    Args:
      strict: when the real ``rouge_score`` (or one of its modules) is already
        imported, raise ``RuntimeError`` and change nothing, instead of
        replacing the entries with a ``RuntimeWarning`` (see the module
        docstring for why that matters).

    Example (run first thing, in the process that will import rouge_score)::

        import rougekit
        rougekit.install_as_rouge_score()
        from rouge_score import rouge_scorer
        rouge_scorer.RougeScorer(["rouge1"]).__module__  # 'rougekit.rouge_scorer'
    """
    global _shim
    with _lock:
        if _shim is None:
            _shim = _make_package()
        foreign = _foreign_entries()
        if foreign:
            names = ", ".join(sorted(foreign))
            if strict:
                raise RuntimeError(
                    f"rouge_score is already imported ({names}): code that "
                    "imported it keeps rouge-score; call "
                    "rougekit.install_as_rouge_score() before anything imports "
                    "rouge_score, or pass strict=False to replace it anyway")
            warnings.warn(
                f"rouge_score was already imported; replacing {names} with "
                "rougekit's modules. Modules that imported rouge_score before "
                "this call keep rouge-score's objects: call "
                "rougekit.install_as_rouge_score() earlier to avoid the mix.",
                RuntimeWarning, stacklevel=2)
            for name, module in foreign.items():
                # Keep the first replaced module per name, so uninstall
                # restores the original even after repeated installs.
                _replaced.setdefault(name, module)
                # Unknown submodules (create_pyrouge_files) are dropped, not
                # kept: they would run on the real rouge-score.
                del sys.modules[name]
        sys.modules[PACKAGE] = _shim
        for name, module in _submodules().items():
            sys.modules[f"{PACKAGE}.{name}"] = module
        return _shim


def uninstall_as_rouge_score() -> None:
    """Undo ``install_as_rouge_score()``: remove the shim's ``sys.modules``
    entries and put back those it replaced (so a later ``import rouge_score``
    imports the real one, if installed). Harmless when not installed.
    """
    with _lock:
        for name in [PACKAGE] + [f"{PACKAGE}.{n}" for n in SUBMODULE_NAMES]:
            if _ours(name) is not None and sys.modules.get(name) is _ours(name):
                del sys.modules[name]
        sys.modules.update(_replaced)
        _replaced.clear()
