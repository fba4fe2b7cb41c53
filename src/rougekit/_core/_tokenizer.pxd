from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

from rougekit._core._vocab cimport Vocab

ctypedef struct TokenBuf:
    # One tokenized text: ids[0:n] (the vocabulary's ids, or a DenseIds
    # round's numbers); sentence k is ids[soff[k] : soff[k+1]] (sentences
    # split on "\n", those without tokens left out).
    int32_t* ids
    Py_ssize_t n, cap
    # The characters of the text that are in its tokens (their total length
    # before stemming): the "no silent zeros" pre-check (rougekit._letters).
    # Read it with tokbuf_kept: -1 here while it is still to be counted off
    # the word bitmap (kept_words words of bits).
    Py_ssize_t kept, kept_words
    Py_ssize_t* soff
    Py_ssize_t ns, scap
    # The bitmap scanner's words that gave no token (an empty stem), by
    # their number in the text, in order: its sentence offsets, counted in
    # words, leave them out.
    Py_ssize_t* drops
    Py_ssize_t ndrops, drops_cap
    # 0: the bitmap scanner reads the whole text as one sentence (a caller
    # that reads no sentences sets it: the engine with no rougeLsum); 1 by
    # default.
    bint split_lines
    # The token being read, and room to stem it.
    char* word
    Py_ssize_t word_cap
    # 1-byte texts: the text lowercased (16 bytes of padding after it) and
    # its word and newline bitmaps (_classify.h).
    uint8_t* low
    Py_ssize_t low_cap
    uint64_t* bits
    Py_ssize_t bits_cap

ctypedef struct DenseIds:
    # Numbers the tokens of a group of texts (the engine: one pair) densely,
    # 0, 1, ... in order of first appearance, as the tokenizer writes them.
    # A token's number is kept in its vocabulary slot's tag, as
    # round << 32 | number, valid while that round is the current one
    # (dense_ids_next starts a round).
    uint64_t round
    # numbers given out in this round
    Py_ssize_t n
    # Set, the round gives out no more numbers: a token it has not numbered
    # is written as n, one number for them all (the engine closes the round
    # after a pair's target, whose tokens are the only ones its prediction
    # can match). dense_ids_next opens the next round.
    bint closed

cdef void dense_ids_next(DenseIds* d, Vocab* v) noexcept nogil
cdef Py_ssize_t tokbuf_kept(TokenBuf* t) noexcept nogil
cdef int tokbuf_init(TokenBuf* t) noexcept nogil
cdef void tokbuf_free(TokenBuf* t) noexcept nogil
cdef int str_buffer(str text, int* kind, const void** data,
                    Py_ssize_t* length) except -1
cdef int tokenize_text(Vocab* v, TokenBuf* out, int kind, const void* data,
                       Py_ssize_t length, bint stem, DenseIds* dense) noexcept nogil
# A 1-byte text's classification (classify.h's rk_classify_latin1, by the
# AVX2 or the SSE2 loop as this module chose): every module's, so that one
# flag (_set_x86_64_v3) picks the loops for all.
cdef void classify_latin1(const uint8_t* s, Py_ssize_t n, uint8_t* low,
                          uint64_t* word, uint64_t* nl) noexcept nogil
