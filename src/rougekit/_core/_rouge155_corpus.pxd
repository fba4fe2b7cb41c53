"""A run's token corpus as C arrays: the compiled ``Corpus`` of
``_rouge155_counts`` holds one, and ``_rouge155_lcs`` reads documents
through it (inline, shared).

Sequence ``s`` is ``tok[start[s]:end[s]]``; document ``d`` has its n-gram
reader's tokens in sequence ``ngram[d]`` and its LCS reader's sentences in
sequences ``lo[d]`` to ``hi[d] - 1``. Every index in it was checked when the
``Corpus`` was made (the rules of ``_rouge155_counts_py.checked_corpus``)
and its arrays are read-only copies, so the kernels read it without bounds
checks.
"""
from libc.stdint cimport int32_t, int64_t

ctypedef struct CorpusView:
    const int32_t* tok
    const int64_t* start
    const int64_t* end
    const int32_t* ngram
    const int32_t* lo
    const int32_t* hi


cdef inline const int32_t* corpus_seq(const CorpusView* c, Py_ssize_t s,
                                      Py_ssize_t* n) noexcept nogil:
    """Sequence s: its first token, and its length in *n."""
    n[0] = <Py_ssize_t>(c.end[s] - c.start[s])
    return c.tok + c.start[s]
