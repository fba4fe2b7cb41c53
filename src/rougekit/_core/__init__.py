"""rougekit's private compiled layer: each kernel beside its pure-Python twin.

``_<name>`` is a Cython extension module and ``_<name>_py`` the pure-Python
module with the same functions, results and errors (the readable
specification, and the oracle the extension is fuzzed against). Which of the
two runs is decided once, by ``rougekit._backend``; nothing else imports
them directly, so ``ROUGEKIT_PURE_PYTHON=1`` loads no extension.

============  ====================================================
``lcs``       bit-parallel LCS lengths, LCS positions, union LCS
``overlap``   clipped n-gram overlap through an exact id table
``porter``    NLTK's Porter stemmer, and a stem cache
``tokenizer`` rouge-score's default tokens straight to ids
``engine``    a whole pair scored: tokens, kernels, P/R/F
``index``     many texts as ids: one query against all, the greedy
              de-duplication filter (RougeIndex, deduplicate)
============  ====================================================

``_vocab.pxd`` (the token hash table), ``_mem.pxd`` (array growth),
``_ids.pxd`` (id arrays from Python; twin ``_ids_py``) and the C headers of
``include/`` are shared by the extension modules.
"""
import sys as _sys
import types as _types

# --- the names pickles made before the rename use -----------------------------
# Until the kernels took the design card's names, a stem cache pickled as
# ``rougekit._core.porter_c.StemCache`` (``porter_py`` on the pure backend) and
# rougekit.porter's PorterStemmer as ``rougekit._core.porter_py.PorterStemmer``:
# a scorer, DefaultTokenizer or named tokenizer that stems carries one. They
# now pickle as ``rougekit.porter._stem_cache`` and ``rougekit.porter.PorterStemmer``,
# paths the layout of _core cannot move; these two modules, found only by name
# (pickle imports the module, then takes the attribute), load the old pickles.
_OLD_NAMES = {
    "porter_c": {"StemCache": "_stem_cache"},
    "porter_py": {"StemCache": "_stem_cache", "PorterStemmer": "PorterStemmer"},
}


def _old_module(old: str, names: dict) -> _types.ModuleType:
    module = _types.ModuleType(f"{__name__}.{old}",
                               f"Old name of a kernel, kept for pickles: {sorted(names)}.")

    def __getattr__(attr: str):
        if attr not in names:
            raise AttributeError(f"module {module.__name__!r} has no attribute {attr!r}")
        from rougekit import porter
        return getattr(porter, names[attr])

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


for _old, _names in _OLD_NAMES.items():
    _sys.modules.setdefault(f"{__name__}.{_old}", _old_module(_old, _names))
