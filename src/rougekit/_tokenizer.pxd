from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

ctypedef struct Slot:
    # One entry of the open-addressing table: id -1 marks an empty slot.
    # The hash, size and first 8 bytes (zero-padded) sit beside the id, so a
    # probe touches one cache line, and a token of up to 8 bytes (most) is
    # compared without reading the pool.
    uint64_t hash
    uint64_t pre
    int32_t id
    int32_t size

ctypedef struct Vocab:
    # Interned token strings: token g is pool[off[g] : off[g] + size[g]].
    char* pool
    Py_ssize_t pool_len, pool_cap
    Py_ssize_t* off
    int32_t* size
    # stem_of[g]: id of g's stem; -1 not yet computed; -2 the stem is empty
    # (rouge-score would drop the token).
    int32_t* stem_of
    Py_ssize_t n, cap
    # Open-addressing table over the ids (linear probing, load <= 1/2).
    Slot* slots
    Py_ssize_t nslots

ctypedef struct TokenBuf:
    # One tokenized text: ids[0:n]; sentence k is ids[soff[k] : soff[k+1]]
    # (sentences split on "\n", those without tokens left out).
    int32_t* ids
    Py_ssize_t n, cap
    Py_ssize_t* soff
    Py_ssize_t ns, scap
    # The token being read, and room to stem it.
    char* word
    Py_ssize_t word_cap
    # 1-byte texts: the text lowercased (8 bytes of padding after it) and
    # its word and newline bitmaps (_classify.h).
    uint8_t* low
    Py_ssize_t low_cap
    uint64_t* bits
    Py_ssize_t bits_cap

cdef int vocab_init(Vocab* v) noexcept nogil
cdef void vocab_free(Vocab* v) noexcept nogil
cdef int32_t vocab_intern(Vocab* v, const char* s, Py_ssize_t n) noexcept nogil
cdef int tokbuf_init(TokenBuf* t) noexcept nogil
cdef void tokbuf_free(TokenBuf* t) noexcept nogil
cdef int str_buffer(str text, int* kind, const void** data,
                    Py_ssize_t* length) except -1
cdef int tokenize_text(Vocab* v, TokenBuf* out, int kind, const void* data,
                       Py_ssize_t length, bint stem) noexcept nogil
