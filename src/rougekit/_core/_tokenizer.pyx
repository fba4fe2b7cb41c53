# cython: language_level=3
# cython: freethreading_compatible=True
"""Compiled rouge-score tokenization straight to integer token ids.

rouge-score lowercases the text with ``str.lower()`` and keeps the runs of
``a-z0-9``. Lowercasing maps exactly two non-ASCII characters to ASCII
letters: U+0130 'İ' becomes 'i' followed by a combining dot (which then ends
the token) and U+212A, the Kelvin sign, becomes 'k' (tests check this against
every code point of the running Python). So the tokens are found in the
str's own buffer, with no Python object per token. One pass 16 characters
at a time (SSE2; a character at a time elsewhere, same result; _classify.h)
lowercases the text into bytes and marks its word characters and newlines
in bitmaps; the words' starts and ends are read off the word bitmap with
no branch per word, and each word of up to 16 characters is hashed and
looked up from two 8-byte loads (``_scan_bitmaps``).
Characters above 0xFF are classified as 0xFF (no word character), which is
right for all but the two above: a 2- or 4-byte text with a Kelvin sign is
classified a character at a time (``_classify_wide``), and a text with an
"İ", whose "i" ends a word, is read with the character loop (``_scan``).

Token strings are interned in a ``Vocab``: a hash table of ids over a byte
pool, which also caches each token's Porter stem as the id of the stem. The
tokens of one text land in a ``TokenBuf`` with its sentence boundaries
("\\n"), which rougeLsum uses: its per-sentence tokens are exactly the
whole-text tokens cut at the newlines.
"""
from libc.stdint cimport UINT32_MAX, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from rougekit._core._mem cimport grow_array, grow_to
from rougekit._core._porter cimport stem_ascii
from rougekit._core._vocab cimport (Slot, Vocab, vocab_clear_tags, vocab_find, vocab_free,
                                   vocab_hash, vocab_hash16, vocab_init, vocab_intern,
                                   vocab_intern_hashed, vocab_prefix, vocab_set_stem,
                                   vocab_slot_in)

cdef extern from "compat.h":
    int rk_unicode_ready(object o) except -1
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cdef extern from "classify.h" nogil:
    void rk_classify_latin1(const uint8_t* s, Py_ssize_t n, uint8_t* low,
                            uint64_t* word, uint64_t* nl)
    int rk_classify_ucs2(const uint16_t* s, Py_ssize_t n, uint8_t* low,
                         uint64_t* word, uint64_t* nl)
    int rk_classify_ucs4(const uint32_t* s, Py_ssize_t n, uint8_t* low,
                         uint64_t* word, uint64_t* nl)
    void rk_load_chunks(const uint8_t* p, Py_ssize_t n, uint64_t* c0, uint64_t* c1)
    uint64_t rk_word_bounds(uint64_t w, uint64_t carry)
    Py_ssize_t rk_flatten_blocks(const uint64_t* wbits, const uint64_t* nl, Py_ssize_t k,
                                 Py_ssize_t top, uint64_t* carry, int32_t* bounds,
                                 Py_ssize_t nb, Py_ssize_t* bstart, uint64_t* nl_blocks)

cdef extern from "bits.h" nogil:
    int rk_low_bit64(uint64_t x)
    int rk_popcount64(uint64_t x)

cdef extern from "words.h" nogil:
    int32_t rk_token_number(Slot* slot, uint64_t high, Py_ssize_t* n, bint closed)
    const int32_t* rk_known_words(
        const int32_t* b, const int32_t* stop, const uint8_t* low, Slot* slots,
        Py_ssize_t mask, int shift, uint64_t high, Py_ssize_t* nd, int32_t** out,
        const Py_ssize_t* stem_slot, bint closed)


cdef extern from "classify.h" nogil:
    void rk_x86_64_v3_init()
    int rk_set_x86_64_v3(int on)

# Where the CPU is x86-64-v3, 1-byte texts are classified 64 characters a
# step by the AVX2 loop and word bounds read off the bitmaps with BMI1's and
# POPCNT's instructions; elsewhere by the SSE2 and portable loops (the same
# result).
rk_x86_64_v3_init()


def _set_x86_64_v3(bint on):
    """Testing hook: take the x86-64-v3 loops (on, where the CPU has them:
    AVX2 classifying, BMI1 word bounds) or the baseline ones (SSE2, portable
    C), here and in every module that classifies through classify_latin1.
    Returns whether the x86-64-v3 loops are taken now. Not thread-safe;
    tests only."""
    return bool(rk_set_x86_64_v3(on))


cdef void classify_latin1(const uint8_t* s, Py_ssize_t n, uint8_t* low,
                          uint64_t* word, uint64_t* nl) noexcept nogil:
    rk_classify_latin1(s, n, low, word, nl)


cdef int tokbuf_init(TokenBuf* t) noexcept nogil:
    memset(t, 0, sizeof(TokenBuf))
    t.cap = 256
    t.scap = 16
    t.word_cap = 64
    t.split_lines = True
    t.ids = <int32_t*>malloc(t.cap * sizeof(int32_t))
    t.soff = <Py_ssize_t*>malloc(t.scap * sizeof(Py_ssize_t))
    t.word = <char*>malloc(t.word_cap)
    if t.ids == NULL or t.soff == NULL or t.word == NULL:
        tokbuf_free(t)
        return -1
    return 0


cdef void tokbuf_free(TokenBuf* t) noexcept nogil:
    free(t.ids)
    free(t.soff)
    free(t.drops)
    free(t.word)
    free(t.low)
    free(t.bits)
    memset(t, 0, sizeof(TokenBuf))


cdef inline int _push_id(TokenBuf* t, int32_t g) noexcept nogil:
    if t.n == t.cap and grow_array(<void**>&t.ids, &t.cap, t.n + 1, sizeof(int32_t), -1) < 0:
        return -1
    t.ids[t.n] = g
    t.n += 1
    return 0


cdef enum:
    # _new_id's code for a token rouge-score drops (its stem is empty)
    DROP = -3


cdef int32_t _new_id(Vocab* v, TokenBuf* t, const char* w, Py_ssize_t n, uint64_t h,
                     bint stem) noexcept nogil:
    """The id to add for w[0:n] (hash h), interning it and, when stemming,
    its stem: >= 0, or DROP (an empty stem), -1 (out of memory) or -2 (a
    stem the C stemmer could not write)."""
    cdef Py_ssize_t sn
    cdef int32_t g, s
    g = vocab_intern_hashed(v, w, n, h)
    if g < 0:
        return -1
    # Only words longer than 3 characters are stemmed (rouge-score).
    if stem and n > 3:
        s = v.stem_of[g]
        if s == -1:
            # the stemmer works in place, in t.word (with room to spare)
            if n + WORD_SLACK > t.word_cap and grow_array(
                    <void**>&t.word, &t.word_cap, n + WORD_SLACK, 1, -1) < 0:
                return -1
            if w != t.word:
                memcpy(t.word, w, <size_t>n)
            sn = stem_ascii(t.word, n, t.word_cap)
            if sn < 0:
                return -2
            if sn == 0:
                s = -2
            else:
                s = vocab_intern(v, t.word, sn)
                if s < 0:
                    return -1
            vocab_set_stem(v, g, s)
        if s == -2:
            return DROP
        g = s
    return g


cdef inline int _end_sentence(TokenBuf* t, Py_ssize_t n) noexcept nogil:
    """A sentence ends after the text's first n tokens."""
    if n == t.soff[t.ns]:
        return 0              # no tokens: rougeLsum ignores the sentence
    if grow_array(<void**>&t.soff, &t.scap, t.ns + 2, sizeof(Py_ssize_t), -1) < 0:
        return -1
    t.ns += 1
    t.soff[t.ns] = n
    return 0


ctypedef fused uchar:
    uint8_t
    uint16_t
    uint32_t


# _ASCII_WORD[c]: the lowercase letter or digit ASCII character c stands for
# in a word, or 0 where c separates words. 256 entries, so that a 1-byte
# (Latin-1) string needs no range check: no character in 128..255 lowercases
# to ASCII, so those entries are 0.
cdef char _ASCII_WORD[256]


cdef void _load_ascii_table() noexcept:
    cdef int c
    for c in range(256):
        if 97 <= c <= 122 or 48 <= c <= 57:
            _ASCII_WORD[c] = <char>c
        elif 65 <= c <= 90:
            _ASCII_WORD[c] = <char>(c + 32)
        else:
            _ASCII_WORD[c] = 0


_load_ascii_table()


cdef inline int32_t _known_id(Vocab* v, TokenBuf* t, int32_t g, const char* w,
                              Py_ssize_t n, uint64_t h, bint stem) noexcept nogil:
    """_new_id's result for w[0:n] (hash h), which the table holds as g (-1:
    it does not): the common case (a known word, its stem known) here, with
    no branch on the word's length, the rest in _new_id."""
    cdef int32_t sg
    if stem and g >= 0:
        # words of up to 3 characters are their own stem (rouge-score)
        sg = v.stem_of[g]
        g = sg if n > 3 else g
        if g == -2:
            return DROP
    if g >= 0:
        return g
    return _new_id(v, t, w, n, h, stem)


cdef inline int _word(Vocab* v, TokenBuf* t, const char* w, Py_ssize_t n, uint64_t h,
                      uint64_t pre, bint stem, DenseIds* dense) noexcept nogil:
    """Add w[0:n] as a token (or nothing, for an empty stem)."""
    cdef int32_t g = _known_id(v, t, vocab_find(v, w, n, h, pre), w, n, h, stem)
    if g < 0:
        return 0 if g == DROP else g
    if dense != NULL:
        g = rk_token_number(&v.slots[v.slot_of[g]], dense.round << 32, &dense.n, dense.closed)
    return _push_id(t, g)


cdef void dense_ids_next(DenseIds* d, Vocab* v) noexcept nogil:
    """Start a new round of dense numbers over v's tokens (every token new
    again, from 0)."""
    d.n = 0
    d.closed = False
    d.round += 1
    if d.round > UINT32_MAX:           # wrapped: forget every tag
        vocab_clear_tags(v)
        d.round = 1


cdef Py_ssize_t tokbuf_kept(TokenBuf* t) noexcept nogil:
    """t.kept, counted now if the bitmap scanner left it to count: every
    character of a word is in its token, and the word bitmap (still t's:
    valid until t's next text) has a bit for each."""
    cdef Py_ssize_t k, kept = 0
    if t.kept < 0:
        for k in range(t.kept_words):
            kept += rk_popcount64(t.bits[k])
        t.kept = kept
    return t.kept


# The word buffer keeps WORD_SLACK spare bytes beyond the word (stem_ascii
# may use the room up to word_cap).
cdef enum:
    WORD_SLACK = 1
    # The lowercased text keeps this many zero bytes after it, so that a
    # word's two 8-byte chunks can be read whole (rk_load_chunks).
    LOW_SLACK = 16


cdef int _scan(Vocab* v, TokenBuf* t, const uchar* s, Py_ssize_t length,
               bint stem, DenseIds* dense) noexcept nogil:
    # A character at a time: the texts that have an "İ".
    # Two loops: over separators (and newlines), and over one word's
    # characters, whose common case (ASCII) is a table look-up and a store.
    # The word loop stops at lim: the end of the text or of the buffer's
    # room, whichever comes first (one compare for both). word and cap are
    # local copies of t.word and t.word_cap: stores through a char* may alias
    # anything, which would otherwise force the compiler to reload both for
    # every character.
    cdef Py_ssize_t i = 0, wl, lim, cap = t.word_cap
    cdef char* word = t.word
    cdef uint32_t ch
    cdef char c
    cdef int rc
    t.n = 0
    t.ns = 0
    t.kept = 0
    t.soff[0] = 0
    while i < length:
        ch = s[i]
        if uchar is uint8_t or ch < 128:
            c = _ASCII_WORD[ch]
        elif ch == 0x212A:        # KELVIN SIGN lowercases to "k"
            c = b'k'
        elif ch == 0x130:         # "İ" lowercases to "i" + U+0307 (ends the word)
            c = b'i'
        else:
            c = 0
        if c == 0:
            if ch == 10 and _end_sentence(t, t.n) < 0:     # "\n"
                return -1
            i += 1
            continue
        # A word starts at i with character c (cap >= 64: room for it).
        wl = 0
        if ch != 0x130:
            lim = i + (cap - WORD_SLACK)
            if lim > length:
                lim = length
            while True:
                word[wl] = c
                wl += 1
                i += 1
                if i >= lim:
                    if i >= length:
                        break
                    if grow_array(<void**>&t.word, &t.word_cap, 2 * cap, 1, -1) < 0:
                        return -1
                    word = t.word
                    cap = t.word_cap
                    lim = i + (cap - WORD_SLACK - wl)
                    if lim > length:
                        lim = length
                ch = s[i]
                if uchar is uint8_t or ch < 128:
                    c = _ASCII_WORD[ch]
                else:
                    # the Kelvin sign goes on as "k"; "İ" ends the word below
                    c = b'k' if ch == 0x212A else 0
                if c == 0:
                    break
        if ch == 0x130:
            # "İ" (first or last character of the word): "i", and the word
            # ends. i < lim here, so there is room.
            word[wl] = b'i'
            wl += 1
            i += 1
        t.kept += wl
        rc = _word(v, t, word, wl, vocab_hash(word, wl), vocab_prefix(word, wl), stem, dense)
        if rc != 0:
            return rc
        word = t.word          # _new_id may have grown the buffer
        cap = t.word_cap
    return _end_sentence(t, t.n)


cdef inline int _bitmap_room(TokenBuf* t, Py_ssize_t length) noexcept nogil:
    cdef Py_ssize_t nw = (length + 63) >> 6
    if (grow_array(<void**>&t.low, &t.low_cap, length + LOW_SLACK, 1, -1) < 0
            or grow_array(<void**>&t.bits, &t.bits_cap, 2 * nw + 2, sizeof(uint64_t), -1) < 0):
        return -1
    return 0


cdef int _classify_wide(TokenBuf* t, const uchar* s, Py_ssize_t length) noexcept nogil:
    """The bitmaps of rk_classify_latin1 for a 2- or 4-byte text, a character
    at a time with no data-dependent branch; the Kelvin sign is the word
    character "k". Returns 1 (the bitmaps then unfinished) when the text has
    an "İ": its "i" ends a word, which the bitmaps cannot say, and _scan
    takes the text."""
    cdef Py_ssize_t i, base, top, nw = (length + 63) >> 6
    cdef uint64_t* wbits = t.bits
    cdef uint64_t* nl = t.bits + nw + 1
    cdef uint8_t* low = t.low
    cdef uint64_t wm, nm
    cdef uint32_t ch
    cdef uint8_t c
    cdef bint dotted = False
    for base in range(0, length, 64):
        top = base + 64 if base + 64 < length else length
        wm = 0
        nm = 0
        for i in range(base, top):
            ch = s[i]
            dotted |= ch == 0x130
            c = <uint8_t>_ASCII_WORD[ch] if ch < 128 else (b'k' if ch == 0x212A else 0)
            low[i] = c
            wm |= (<uint64_t>(c != 0)) << (i - base)
            nm |= (<uint64_t>(ch == 10)) << (i - base)
        wbits[base >> 6] = wm
        nl[base >> 6] = nm
        if dotted:
            return 1
    return 0


cdef enum:
    # The word boundaries of this many 64-character blocks are found before
    # the words are looked up (a short text's in one go: the loop over its
    # words ends once). Room for them as rk_flatten_blocks writes them: a
    # start left over from the chunk before, at most 64 a block, and up to 8
    # entries past the last.
    CHUNK_BLOCKS = 16
    CHUNK_BOUNDS = CHUNK_BLOCKS * 64 + 9


cdef int _record_drop(TokenBuf* t, Py_ssize_t word) noexcept nogil:
    """Word number ``word`` of the text gave no token (t.drops)."""
    if grow_array(<void**>&t.drops, &t.drops_cap, t.ndrops + 1, sizeof(Py_ssize_t), -1) < 0:
        return -1
    t.drops[t.ndrops] = word
    t.ndrops += 1
    return 0


cdef int _chunk_sentences(TokenBuf* t, const uint64_t* wbits, const uint64_t* nl,
                          Py_ssize_t k0, uint64_t blocks, const Py_ssize_t* bstart,
                          Py_ssize_t words, Py_ssize_t* d) noexcept nogil:
    """The sentence breaks at the newlines of a chunk of blocks from k0 on
    (bit kk - k0 of ``blocks`` set for each block kk with a newline, as
    rk_flatten_blocks gives them) whose words are numbered ``words``.. (its
    bounds' index i: word words + i / 2; block kk's first bound at index
    bstart[kk - k0]), once its tokens are written. A newline is in no word,
    so it ends a sentence after the tokens of the words before it, those of
    t.drops left out (*d: how many of them are before the last break)."""
    cdef Py_ssize_t kk, w
    cdef uint64_t m
    while blocks != 0:
        kk = k0 + rk_low_bit64(blocks)
        blocks &= blocks - 1
        m = nl[kk]
        while True:
            # the bounds up to this newline (m's lowest bit; a word that
            # ends before it has its end bound there at the latest), in its
            # block: as many starts as ends
            w = words + ((bstart[kk - k0] + rk_popcount64(
                rk_word_bounds(wbits[kk], wbits[kk - 1] >> 63 if kk > 0 else 0)
                & (m ^ (m - 1)))) >> 1)
            while d[0] < t.ndrops and t.drops[d[0]] < w:
                d[0] += 1
            if _end_sentence(t, w - d[0]) < 0:
                return -1
            m &= m - 1
            if m == 0:
                break
    return 0


cdef int _scan_bitmaps(Vocab* v, TokenBuf* t, Py_ssize_t length, bint stem,
                       DenseIds* dense) noexcept nogil:
    # The text classified (t.low lowercased, word and newline bitmaps in
    # t.bits): the words' boundaries (starts and ends, alternating) are read
    # off the word bitmap with no branch per word or character
    # (rk_flatten_blocks); then each word of up to 16 characters is hashed
    # and compared from two 8-byte loads, with no branch on its length.
    # Numbering (dense), the runs of known words go to words.h's loop, which
    # leaves every other word to the loop here. A chunk's sentence breaks
    # are found after its tokens (_chunk_sentences), so the word loop does
    # not stop at a newline. A text has at most (length + 1) / 2
    # tokens: room for them is made first, so a token is one store.
    cdef Py_ssize_t nw = (length + 63) >> 6, k, top, i, nb = 0, start, end, n = 0
    cdef Py_ssize_t L, E, k0, words = 0, dropped = 0
    # (offsets from the chunk's first character, chunk_low; a start left
    # over from the chunk before is negative)
    cdef int32_t bounds[CHUNK_BOUNDS]
    # bstart[j]: the bounds of the chunk before its block j (the index in
    # bounds of the block's first one)
    cdef Py_ssize_t bstart[CHUNK_BLOCKS]
    cdef uint64_t carry = 0, h, c0, c1, nl_blocks
    cdef uint64_t* wbits = t.bits
    cdef uint64_t* nl = t.bits + nw + 1
    cdef const uint8_t* w
    cdef const uint8_t* low = t.low
    cdef const uint8_t* chunk_low
    cdef int32_t g, sg
    cdef int32_t* ids
    cdef int32_t* out
    # The table as the loop reads it, in registers; read again after a new
    # token or stem (_new_id may grow the table).
    cdef Slot* slots = v.slots
    cdef Slot* slot
    cdef Py_ssize_t mask = v.nslots - 1
    cdef int shift = v.shift
    cdef const int32_t* stem_of = v.stem_of
    cdef const Py_ssize_t* slot_of = v.slot_of
    # numbering the tokens (dense): the round, shifted, and the next number
    cdef uint64_t high = dense.round << 32 if dense != NULL else 0
    cdef Py_ssize_t nd = dense.n if dense != NULL else 0
    cdef bint closed = dense != NULL and dense.closed
    memset(t.low + length, 0, LOW_SLACK)
    wbits[nw] = 0                     # a sentinel: the end of a last word
    nl[nw] = 0                        # and no newline there
    if grow_array(<void**>&t.ids, &t.cap, (length + 1) // 2 + 1, sizeof(int32_t), -1) < 0:
        return -1
    ids = t.ids
    t.n = 0
    t.ns = 0
    t.soff[0] = 0
    t.ndrops = 0
    k = 0
    while k <= nw:
        top = k + CHUNK_BLOCKS if k + CHUNK_BLOCKS <= nw + 1 else nw + 1
        k0 = k
        nb = rk_flatten_blocks(wbits, nl, k, top, &carry, bounds, nb, bstart, &nl_blocks)
        chunk_low = low + (k0 << 6)
        k = top
        # bounds[2i] and bounds[2i + 1]: word i's start and end; a last
        # start without its end waits for the next chunk.
        E = nb - (nb & 1)
        i = 0
        while i < E:
            if dense != NULL:
                out = ids + n
                i = rk_known_words(bounds + i, bounds + E, chunk_low, slots, mask, shift,
                                   high, &nd, &out, v.stem_slot if stem else NULL,
                                   closed) - bounds
                n = out - ids
                if i == E:
                    break
            # one word here: a word the loop above leaves (or, not
            # numbering, every word)
            start = bounds[i]
            end = bounds[i + 1]
            i += 2
            L = end - start
            w = chunk_low + start
            rk_load_chunks(w, L, &c0, &c1)
            if L <= 16:
                h = vocab_hash16(c0, c1, L)
                slot = vocab_slot_in(slots, mask, shift, h, c0, c1, L)
                g = slot.id if slot != NULL else -1
            else:
                h = vocab_hash(<const char*>w, L)
                g = vocab_find(v, <const char*>w, L, h, c0)
                slot = NULL
            if stem and g >= 0:
                # words of up to 3 characters are their own stem (rouge-score)
                sg = stem_of[g]
                if L > 3:
                    g = sg
                    slot = NULL       # the word's slot, not its stem's
            if g == -1:
                # a new token, or a token whose stem is not known yet
                g = _new_id(v, t, <const char*>w, L, h, stem)
                slots = v.slots
                mask = v.nslots - 1
                shift = v.shift
                stem_of = v.stem_of
                slot_of = v.slot_of
                if g == DROP:
                    g = -2
                elif g < 0:
                    return g
            if g == -2:
                # an empty stem: rouge-score drops the token
                if t.split_lines and _record_drop(t, words + (i >> 1) - 1) < 0:
                    return -1
                continue
            if dense != NULL:
                if slot == NULL:
                    slot = &slots[slot_of[g]]
                g = rk_token_number(slot, high, &nd, closed)
            ids[n] = g
            n += 1
        if t.split_lines and _chunk_sentences(t, wbits, nl, k0, nl_blocks,
                                              bstart, words, &dropped) < 0:
            return -1
        words += E >> 1
        if nb & 1:
            # the next chunk's offsets start at block top
            bounds[0] = bounds[nb - 1] - <int32_t>((top - k0) << 6)
            nb = 1
        else:
            nb = 0
    t.n = n
    # counted when asked for (tokbuf_kept): the word bitmap's bits
    t.kept = -1
    t.kept_words = nw
    if dense != NULL:
        dense.n = nd
    return _end_sentence(t, n)


cdef int _scan_latin1(Vocab* v, TokenBuf* t, const uint8_t* s, Py_ssize_t length,
                      bint stem, DenseIds* dense) noexcept nogil:
    # 1-byte texts: only ASCII letters and digits are word characters, so
    # one pass (rk_classify_latin1, 16 bytes at a time) lowercases the text
    # and marks its word characters and newlines in bitmaps.
    if _bitmap_room(t, length) < 0:
        return -1
    rk_classify_latin1(s, length, t.low, t.bits, t.bits + ((length + 63) >> 6) + 1)
    return _scan_bitmaps(v, t, length, stem, dense)


cdef int _scan_wide(Vocab* v, TokenBuf* t, const uchar* s, Py_ssize_t length,
                    bint stem, DenseIds* dense) noexcept nogil:
    # Saturated to bytes 16 characters at a time and classified as Latin-1,
    # unless the text has one of the two characters that lowercase to ASCII.
    cdef Py_ssize_t nw = (length + 63) >> 6
    if _bitmap_room(t, length) < 0:
        return -1
    if uchar is uint16_t:
        if not rk_classify_ucs2(s, length, t.low, t.bits, t.bits + nw + 1):
            return _scan_bitmaps(v, t, length, stem, dense)
    elif uchar is uint32_t:
        if not rk_classify_ucs4(s, length, t.low, t.bits, t.bits + nw + 1):
            return _scan_bitmaps(v, t, length, stem, dense)
    if _classify_wide(t, s, length):
        return _scan(v, t, s, length, stem, dense)
    return _scan_bitmaps(v, t, length, stem, dense)


cdef int tokenize_text(Vocab* v, TokenBuf* out, int kind, const void* data,
                       Py_ssize_t length, bint stem, DenseIds* dense) noexcept nogil:
    """Tokenize a str's buffer into ``out``: 0, or -1 (out of memory) or -2
    (a stem the C stemmer could not write; use the Python path). The ids
    written are the vocabulary's, or with ``dense`` (not NULL) the tokens'
    numbers in its current round."""
    if kind == 1:
        return _scan_latin1(v, out, <const uint8_t*>data, length, stem, dense)
    if kind == 2:
        return _scan_wide(v, out, <const uint16_t*>data, length, stem, dense)
    return _scan_wide(v, out, <const uint32_t*>data, length, stem, dense)


cdef int str_buffer(str text, int* kind, const void** data, Py_ssize_t* length) except -1:
    """The str's own buffer: its kind (1, 2 or 4 bytes a character), data and
    length. The buffer lives as long as the str and never moves."""
    rk_unicode_ready(text)
    kind[0] = PyUnicode_KIND(text)
    data[0] = PyUnicode_DATA(text)
    length[0] = PyUnicode_GET_LENGTH(text)
    return 0


def sentences(str text, bint use_stemmer=False):
    """The default tokenizer's tokens of each "\\n"-separated sentence that has
    any (testing hook for the compiled tokenizer).

    >>> sentences("The cats sat.\\n\\nRunning!", True)
    [['the', 'cat', 'sat'], ['run']]
    """
    return _sentences(text, use_stemmer, (), False)


def _sentences_with_empty_stems(str text, empty, bint numbered=False):
    """Testing hook: ``sentences(text, True)`` with the words of ``empty``
    (str) given an empty stem, which the stemmer never gives a word: a word
    of more than 3 characters whose stem is empty is no token (rouge-score
    drops it). With ``numbered``, each token is its number in order of
    first appearance, as the engine numbers a pair's tokens (DenseIds).

    >>> _sentences_with_empty_stems("the cats sat\\ncats", ["cats"])
    [['the', 'sat']]
    """
    return _sentences(text, True, empty, numbered)


cdef list _sentences(str text, bint use_stemmer, empty, bint numbered):
    cdef Vocab v
    cdef TokenBuf t
    cdef DenseIds dense
    cdef int kind, rc
    cdef const void* data
    cdef Py_ssize_t length, k, i
    cdef int32_t g
    cdef bytes word
    str_buffer(text, &kind, &data, &length)
    if vocab_init(&v, False) < 0:
        raise MemoryError()
    if tokbuf_init(&t) < 0:
        vocab_free(&v)
        raise MemoryError()
    memset(&dense, 0, sizeof(DenseIds))
    try:
        for w in empty:
            word = w.encode("ascii")
            g = vocab_intern(&v, word, len(word))
            if g < 0:
                raise MemoryError()
            vocab_set_stem(&v, g, -2)
        dense_ids_next(&dense, &v)
        with nogil:
            rc = tokenize_text(&v, &t, kind, data, length, use_stemmer,
                               &dense if numbered else NULL)
        if rc == -1:
            raise MemoryError()
        if rc == -2:
            raise RuntimeError("the C stemmer could not stem a token")
        result = []
        for k in range(t.ns):
            sent = []
            for i in range(t.soff[k], t.soff[k + 1]):
                g = t.ids[i]
                sent.append(g if numbered else
                            v.pool[v.off[g]:v.off[g] + v.size[g]].decode("ascii"))
            result.append(sent)
        return result
    finally:
        tokbuf_free(&t)
        vocab_free(&v)


def tokenize(str text, bint use_stemmer=False):
    """The default tokenizer's tokens of ``text`` (testing hook).

    >>> tokenize("İstanbul \\u212aelvin", False)
    ['i', 'stanbul', 'kelvin']
    """
    return [tok for sent in sentences(text, use_stemmer) for tok in sent]


def kept_chars(str text):
    """How many characters of ``text`` are in its tokens (``tokbuf_kept``,
    testing hook).

    >>> kept_chars("Привет, world 42")
    7
    """
    cdef Vocab v
    cdef TokenBuf t
    cdef int kind, rc
    cdef const void* data
    cdef Py_ssize_t length
    str_buffer(text, &kind, &data, &length)
    if vocab_init(&v, False) < 0:
        raise MemoryError()
    if tokbuf_init(&t) < 0:
        vocab_free(&v)
        raise MemoryError()
    try:
        with nogil:
            rc = tokenize_text(&v, &t, kind, data, length, False, NULL)
        if rc == -1:
            raise MemoryError()
        return tokbuf_kept(&t)
    finally:
        tokbuf_free(&t)
        vocab_free(&v)
