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
