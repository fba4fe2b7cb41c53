"""Run code written for rouge-score, rouge or rouge-chinese on rougekit
without editing it.

After ``install_as_rouge_score()`` (or ``install_as("rouge_score")``),
``import rouge_score`` and
``from rouge_score import rouge_scorer, scoring, tokenize, tokenizers, io``
give rougekit's modules of those names, which have rouge-score 0.1.2's API and
results. ``install_as("rouge")`` does the same for pltrdy's ``rouge`` 1.0.1
(``from rouge import Rouge, FilesRouge``, ``rouge.rouge_score``: the modules
of :mod:`rougekit.compat.rouge`), and ``install_as("rouge_chinese")`` for
rouge-chinese 1.0.3 (:mod:`rougekit.compat.rouge_chinese`). That is for code
the user cannot edit: a metric script, another library, a notebook from a
paper::

    import rougekit
    rougekit.install_as_rouge_score()     # first, before the code below runs

    from rouge_score import rouge_scorer  # rougekit.rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    scorer.score("the cat sat", "the cat sat down")

It works by registering, in ``sys.modules``, a package module of that name
(``rouge_score``) whose attributes and submodules (``rouge_score.rouge_scorer``,
...) are rougekit's modules; the real package need not be installed. For
rouge_score, those six modules exist (``rouge_score.rouge`` is the command
line's module, with its ``FLAGS`` and ``main``); ``rouge_score.create_pyrouge_files``
(a script that writes pyrouge's input files) raises ``ModuleNotFoundError``.
For rouge and rouge_chinese, the package carries its public names (``Rouge``,
``FilesRouge``, ``__version__``) and its two modules, ``rouge`` and
``rouge_score``.
Objects keep their rougekit identity (``type(scorer).__module__`` is
``"rougekit.rouge_scorer"``), so pickles made under the shim load without it.
``importlib.metadata.version("rouge-score")`` still reports the installed
distribution, if any: the shim changes imports, not package metadata.

If the real package is already imported
---------------------------------------
Modules that already ran ``from rouge_score import rouge_scorer`` hold the
real module, and the shim cannot reach into them, so installing late gives a
mix. By default the install then still replaces every ``rouge_score`` and
``rouge_score.*`` entry of ``sys.modules`` (imports from then on get
rougekit) and emits a ``RuntimeWarning`` naming what was replaced; with
``strict=True`` it raises ``RuntimeError`` instead and changes nothing.
Install it first thing to avoid both. ``uninstall_as_rouge_score()`` (or
``uninstall_as(name)``) puts back whatever entries the install replaced.
"""
import importlib
import importlib.machinery
import sys
import threading
import types
import warnings
from typing import Dict, Optional, Tuple

__all__ = ["install_as", "uninstall_as", "install_as_rouge_score", "uninstall_as_rouge_score",
           "is_installed", "NAMES"]


class _Alias:
    """One name the shim can take: the package module it registers under
    ``name``, whose submodules are rougekit modules and whose other public
    names, if any, are those of the rougekit module ``source``."""

    def __init__(self, name: str, submodules: Dict[str, str],
                 source: Optional[str] = None, doc: Optional[str] = None) -> None:
        self.name = name
        # name.<sub> is the rougekit module submodules[sub]. Imported when the
        # shim is installed, not when rougekit is: ``python -m rougekit.rouge``
        # must find rougekit.rouge not yet imported.
        self.submodule_paths = submodules
        self.source = source
        self.doc = doc
        self.package: Optional[types.ModuleType] = None
        # sys.modules entries the install replaced (name -> module), for uninstall.
        self.replaced: Dict[str, types.ModuleType] = {}

    def submodules(self) -> Dict[str, types.ModuleType]:
        return {sub: importlib.import_module(path) for sub, path in self.submodule_paths.items()}

    def make_package(self) -> types.ModuleType:
        source = importlib.import_module(self.source) if self.source else None
        doc = self.doc if self.doc is not None else getattr(source, "__doc__", None)
        package = types.ModuleType(self.name, doc)
        # A spec with submodule_search_locations=[] makes it a package, so
        # "import rouge_score.rouge_scorer" works, and importlib.util.find_spec
        # ("rouge_score") returns a spec (libraries probe availability with it)
        # instead of raising ValueError on a module without __spec__.
        package.__spec__ = importlib.machinery.ModuleSpec(self.name, None, is_package=True)
        package.__path__ = []
        package.__package__ = self.name
        setattr(package, "__rougekit_shim__", True)  # noqa: B010 (how is_installed() knows it)
        for sub, module in self.submodules().items():
            setattr(package, sub, module)
        names = list(self.submodule_paths)
        if source is not None:
            names = list(source.__all__)
            for attribute in names + ["__version__"]:
                setattr(package, attribute, getattr(source, attribute))
        setattr(package, "__all__", names)  # noqa: B010 (mypy: not a declared attribute)
        return package

    def ours(self, entry: str) -> Optional[types.ModuleType]:
        """The module the shim registers under ``entry``, or None."""
        if entry == self.name:
            return self.package
        sub = entry[len(self.name) + 1:]
        return self.submodules()[sub] if sub in self.submodule_paths else None

    def foreign_entries(self) -> Dict[str, types.ModuleType]:
        """Entries of sys.modules for this name that are not the shim's."""
        found = {}
        for entry, module in list(sys.modules.items()):
            if (entry == self.name or entry.startswith(self.name + ".")) and \
                    module is not None and module is not self.ours(entry):
                found[entry] = module
        return found

    def is_installed(self) -> bool:
        module = sys.modules.get(self.name)
        return module is not None and getattr(module, "__rougekit_shim__", False)

    def install(self, strict: bool, call: str) -> types.ModuleType:
        """Register the package (see ``install_as``); ``call`` is how the
        user asked for it, for the messages."""
        with _lock:
            if self.package is None:
                self.package = self.make_package()
            foreign = self.foreign_entries()
            if foreign:
                names = ", ".join(sorted(foreign))
                if strict:
                    raise RuntimeError(
                        f"{self.name} is already imported ({names}): code that "
                        f"imported it keeps the real {self.name}; call {call} before "
                        f"anything imports {self.name}, or pass strict=False to "
                        "replace it anyway")
                warnings.warn(
                    f"{self.name} was already imported; replacing {names} with "
                    f"rougekit's modules. Modules that imported {self.name} before "
                    f"this call keep the real package's objects: call {call} "
                    "earlier to avoid the mix.",
                    RuntimeWarning, stacklevel=3)
                for entry, module in foreign.items():
                    # Keep the first replaced module per name, so uninstall
                    # restores the original even after repeated installs.
                    self.replaced.setdefault(entry, module)
                    # Unknown submodules (create_pyrouge_files) are dropped,
                    # not kept: they would run on the real package.
                    del sys.modules[entry]
            sys.modules[self.name] = self.package
            for sub, module in self.submodules().items():
                sys.modules[f"{self.name}.{sub}"] = module
            return self.package

    def uninstall(self) -> None:
        with _lock:
            for entry in [self.name] + [f"{self.name}.{s}" for s in self.submodule_paths]:
                module = self.ours(entry)
                if module is not None and sys.modules.get(entry) is module:
                    del sys.modules[entry]
            sys.modules.update(self.replaced)
            self.replaced.clear()


_ALIASES = {
    "rouge_score": _Alias(
        "rouge_score",
        {sub: "rougekit." + sub
         for sub in ("rouge_scorer", "scoring", "tokenize", "tokenizers", "io", "rouge")},
        doc=__doc__),
    "rouge": _Alias(
        "rouge", {sub: "rougekit.compat.rouge." + sub for sub in ("rouge", "rouge_score")},
        source="rougekit.compat.rouge"),
    "rouge_chinese": _Alias(
        "rouge_chinese",
        {sub: "rougekit.compat.rouge_chinese." + sub for sub in ("rouge", "rouge_score")},
        source="rougekit.compat.rouge_chinese"),
}

#: The names ``install_as`` takes.
NAMES: Tuple[str, ...] = tuple(_ALIASES)

_lock = threading.Lock()


def _alias(name: str) -> _Alias:
    if name not in _ALIASES:
        raise ValueError(f"name must be one of {', '.join(map(repr, NAMES))}; got {name!r}")
    return _ALIASES[name]


def is_installed(name: str = "rouge_score") -> bool:
    """True when ``import <name>`` gives the shim right now."""
    return _alias(name).is_installed()


def install_as(name: str, strict: bool = False) -> types.ModuleType:
    """Make ``import <name>`` (and its modules) give rougekit's.

    ``name`` is one of ``NAMES``: "rouge_score" (rougekit's rouge-score
    modules, as ``install_as_rouge_score()``), "rouge" (pltrdy's rouge 1.0.1:
    :mod:`rougekit.compat.rouge`) or "rouge_chinese" (rouge-chinese 1.0.3:
    :mod:`rougekit.compat.rouge_chinese`). Calling it again is harmless
    (nothing changes, no warning). Returns the package module it registered.

    Args:
      name: the import name to take over.
      strict: when the real package (or one of its modules) is already
        imported, raise ``RuntimeError`` and change nothing, instead of
        replacing the entries with a ``RuntimeWarning`` (see the module
        docstring for why that matters).

    Example (run first thing, in the process that will import rouge)::

        import rougekit
        rougekit.install_as("rouge")
        from rouge import Rouge
        Rouge().get_scores("the cat is on the mat", "the cat sat on the mat")
    """
    return _alias(name).install(strict, f"rougekit.install_as({name!r})")


def uninstall_as(name: str) -> None:
    """Undo ``install_as(name)``: remove the shim's ``sys.modules`` entries
    for ``name`` and put back those it replaced (so a later ``import <name>``
    imports the real package, if installed). Harmless when not installed."""
    _alias(name).uninstall()


def install_as_rouge_score(strict: bool = False) -> types.ModuleType:
    """Make ``import rouge_score`` (and its modules) give rougekit's:
    ``install_as("rouge_score")``.

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
    return _alias("rouge_score").install(strict, "rougekit.install_as_rouge_score()")


def uninstall_as_rouge_score() -> None:
    """Undo ``install_as_rouge_score()``: remove the shim's ``sys.modules``
    entries and put back those it replaced (so a later ``import rouge_score``
    imports the real one, if installed). Harmless when not installed.
    """
    uninstall_as("rouge_score")
