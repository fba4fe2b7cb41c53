"""ROUGE-L and ROUGE-W of one model against one peer (``_rouge155_lcs``): the
C entry points ``_rouge155_counts`` calls for every (evaluation, model).

Each takes a thread's ``LwScratch`` (``lw_scratch_init`` for a corpus's
vocabulary and longest sequence, ``lw_scratch_free``) and touches no Python
object; -1 is out of memory.
"""
from libc.stdint cimport int32_t, int64_t

from rougekit._core._lcs cimport LcsScratch
from rougekit._core._rouge155_corpus cimport CorpusView

ctypedef struct LwScratch:
    # One thread's buffers for L and W; the per-token arrays have an entry
    # per token id (the vocabulary), the others one per position of the
    # longest sequence (maxlen).
    LcsScratch lcs           # summary_hits_scratch's (the fast ROUGE-L)
    int32_t* head            # vocab entries, -1 between uses (lcs_mark_ids)
    int32_t* bag_model       # vocab entries, 0 between uses
    int32_t* bag_peer        # vocab entries, 0 between uses
    char* in_peer            # vocab entries, 0 between uses (ROUGE-W)
    int32_t* first_pos       # vocab entries: a token's first column in the peer (ROUGE-W)
    char* marks              # maxlen entries: the model sentence's marked positions
    Py_ssize_t* roff         # sentence offsets for summary_hits_scratch
    Py_ssize_t* coff
    Py_ssize_t roff_cap
    Py_ssize_t coff_cap
    double* fw               # fw[k] = pow(k, W), k = 0 .. maxlen + 1
    double* wc               # ROUGE-W's table row, updated in place (maxlen + 1)
    int32_t* wl              # its run lengths (maxlen + 1)
    char* row_kind           # per row of the table (maxlen): see _wlcs_table
    int32_t* row_j0
    int32_t* row_j1
    char* dirs               # ROUGE-W's directions of the rows filled cell by cell
    Py_ssize_t dirs_cap

cdef int lw_scratch_init(LwScratch* sc, Py_ssize_t vocab, Py_ssize_t maxlen,
                         double weight) noexcept nogil
cdef void lw_scratch_free(LwScratch* sc) noexcept nogil
# The script's lcs (weighted false) or wlcs of model document md against
# peer document pd, the hits clipped by the unigram bags of documents mb and
# pb: returns the L hits (-1: out of memory); W's hit and base go to whit and
# wbase, the model's token count to base.
cdef int64_t lw_hits(const CorpusView* c, Py_ssize_t md, Py_ssize_t mb, Py_ssize_t pd,
                     Py_ssize_t pb, LwScratch* sc, bint weighted, double* whit,
                     double* wbase, int64_t* base) noexcept nogil
# Whether document d's n-gram tokens are its sentences' tokens.
cdef bint bag_is_sentences(const CorpusView* c, Py_ssize_t d) noexcept nogil
# ROUGE-L's hits when each bag is its document's sentences: lw_hits's, by
# rouge-score's summary-level union LCS; -2 when the sentences are not
# contiguous (then call lw_hits).
cdef int64_t l_summary_hits(const CorpusView* c, Py_ssize_t md, Py_ssize_t pd,
                            Py_ssize_t vocab, LwScratch* sc) noexcept nogil
