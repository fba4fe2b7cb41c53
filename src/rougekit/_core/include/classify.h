/* Classify a str buffer for rouge-score's tokenizer, 16 characters at a time
   where SSE2 is available (every x86-64; 1-byte texts 32 at a time where the
   CPU is x86-64-v3, with AVX2), a character at a time elsewhere; all give the
   same result. The word bounds are read off the bitmaps with BMI1's and
   POPCNT's instructions on such a CPU (rk_flatten_blocks).

   For s[0:n]: low[i] is the character lowercased when it is an ASCII letter;
   bit i of word[] is set where it is an ASCII letter or digit; bit i of nl[]
   where it is "\n". word and nl have (n + 63) / 64 entries, bits past n
   clear. No Latin-1 character but the ASCII letters lowercases to an ASCII
   letter or digit; of the characters above 0xFF only U+0130 and U+212A do,
   so every other one is classified as 0xFF (saturated), which is neither a
   word character nor a newline. The 2- and 4-byte functions return 1, with
   the classification unfinished, when the text has U+0130 or U+212A (the
   caller takes another path), else 0. */
#ifndef ROUGEKIT_CLASSIFY_H
#define ROUGEKIT_CLASSIFY_H
#include <stdint.h>
#include <string.h>
#include <Python.h>
#include "bits.h"
#include "cpu.h"

#if !defined(RK_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#include <emmintrin.h>
#define RK_HAVE_SSE2 1
#endif

/* One byte c at position i. No branch on c (the bytes after a text's last
   16 come here, and which class each is in is not predictable). */
static inline void rk_classify_byte(uint8_t c, Py_ssize_t i, uint8_t *low,
                                    uint64_t *word, uint64_t *nl)
{
    uint8_t l = (uint8_t)(c | 0x20);
    int alpha = l >= 'a' && l <= 'z', digit = c >= '0' && c <= '9';
    low[i] = alpha ? l : c;
    word[i >> 6] |= (uint64_t)(alpha | digit) << (i & 63);
    nl[i >> 6] |= (uint64_t)(c == '\n') << (i & 63);
}

#ifdef RK_HAVE_SSE2
/* 16 bytes v, stored lowercased at out; their word-character and newline
   masks (16 bits each) in *wm and *nm. Signed byte compares: bytes >= 0x80
   are negative, so never in the ranges tested. */
static inline void rk_classify_16(__m128i v, uint8_t *out, uint64_t *wm, uint64_t *nm)
{
    const __m128i c20 = _mm_set1_epi8(0x20);
    __m128i l = _mm_or_si128(v, c20);
    __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(l, _mm_set1_epi8('a' - 1)),
                                  _mm_cmplt_epi8(l, _mm_set1_epi8('z' + 1)));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                  _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    *wm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(alpha, digit));
    *nm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    _mm_storeu_si128((__m128i *)out, _mm_or_si128(v, _mm_and_si128(alpha, c20)));
}

/* 16 bytes v at position i (a multiple of 16), their masks ORed into the
   bitmaps. */
static inline void rk_classify_block(__m128i v, Py_ssize_t i, uint8_t *low,
                                     uint64_t *word, uint64_t *nl)
{
    uint64_t wm, nm;
    rk_classify_16(v, low + i, &wm, &nm);
    word[i >> 6] |= wm << (i & 63);
    nl[i >> 6] |= nm << (i & 63);
}

/* The 64 bytes at s, stored lowercased at out; their word-character and
   newline masks in *wm and *nm. */
static inline void rk_classify_64_at(const uint8_t *s, uint8_t *out, uint64_t *wm, uint64_t *nm)
{
    uint64_t w0, w1, w2, w3, n0, n1, n2, n3;
    rk_classify_16(_mm_loadu_si128((const __m128i *)s), out, &w0, &n0);
    rk_classify_16(_mm_loadu_si128((const __m128i *)(s + 16)), out + 16, &w1, &n1);
    rk_classify_16(_mm_loadu_si128((const __m128i *)(s + 32)), out + 32, &w2, &n2);
    rk_classify_16(_mm_loadu_si128((const __m128i *)(s + 48)), out + 48, &w3, &n3);
    *wm = w0 | (w1 << 16) | (w2 << 32) | (w3 << 48);
    *nm = n0 | (n1 << 16) | (n2 << 32) | (n3 << 48);
}

/* 64 bytes at s + i (i a multiple of 64): one whole word of each bitmap,
   assembled in registers and stored once. */
static inline void rk_classify_64(const uint8_t *s, Py_ssize_t i, uint8_t *low,
                                  uint64_t *word, uint64_t *nl)
{
    rk_classify_64_at(s + i, low + i, &word[i >> 6], &nl[i >> 6]);
}

/* The masks wm and nm of a text's last 64 bytes (n >= 64, n not a multiple
   of 64) stored as its last, partial bitmap word: shifted down to the bytes
   that word holds, so the bits past n are clear. The tail takes one step
   of 64 with no branch on its length (the bytes before it are classified
   and lowercased again, as they were). */
static inline void rk_store_tail(uint64_t wm, uint64_t nm, Py_ssize_t n, uint64_t *word,
                                 uint64_t *nl)
{
    int r = (int)(n & 63);
    word[n >> 6] = wm >> (64 - r);
    nl[n >> 6] = nm >> (64 - r);
}
#endif

/* The AVX2 loop, 64 characters a step in two 32-byte halves, taken at run
   time when the CPU has AVX2 (x86 with GCC or clang; RK_NO_SIMD leaves it
   out); the same bitmaps and lowercased bytes as the SSE2 loop. */
#ifdef RK_HAVE_X86_64_V3
#include <immintrin.h>

/* rk_classify_16 for 32 bytes (AVX2 has no byte "less than": the operands
   of a "greater than" swapped). */
__attribute__((target("avx2")))
static inline void rk_classify_32(__m256i v, uint8_t *out, uint64_t *wm, uint64_t *nm)
{
    const __m256i c20 = _mm256_set1_epi8(0x20);
    __m256i l = _mm256_or_si256(v, c20);
    __m256i alpha = _mm256_and_si256(_mm256_cmpgt_epi8(l, _mm256_set1_epi8('a' - 1)),
                                     _mm256_cmpgt_epi8(_mm256_set1_epi8('z' + 1), l));
    __m256i digit = _mm256_and_si256(_mm256_cmpgt_epi8(v, _mm256_set1_epi8('0' - 1)),
                                     _mm256_cmpgt_epi8(_mm256_set1_epi8('9' + 1), v));
    *wm = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(alpha, digit));
    *nm = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')));
    _mm256_storeu_si256((__m256i *)out, _mm256_or_si256(v, _mm256_and_si256(alpha, c20)));
}

/* The 64 bytes at s, as rk_classify_64_at gives them. */
__attribute__((target("avx2")))
static inline void rk_classify_64_at_avx2(const uint8_t *s, uint8_t *out, uint64_t *wm,
                                          uint64_t *nm)
{
    uint64_t w0, w1, n0, n1;
    rk_classify_32(_mm256_loadu_si256((const __m256i *)s), out, &w0, &n0);
    rk_classify_32(_mm256_loadu_si256((const __m256i *)(s + 32)), out + 32, &w1, &n1);
    *wm = w0 | (w1 << 32);
    *nm = n0 | (n1 << 32);
}

/* s[0:n] classified, n >= 64: 64 bytes a step, the bitmap words stored
   whole, and a last partial word by rk_store_tail. */
__attribute__((target("avx2")))
static void rk_classify_64s_avx2(const uint8_t *s, Py_ssize_t n, uint8_t *low,
                                 uint64_t *word, uint64_t *nl)
{
    Py_ssize_t i = 0;
    uint64_t wm, nm;
    for (; i + 64 <= n; i += 64)
        rk_classify_64_at_avx2(s + i, low + i, &word[i >> 6], &nl[i >> 6]);
    if (n & 63) {
        rk_classify_64_at_avx2(s + n - 64, low + n - 64, &wm, &nm);
        rk_store_tail(wm, nm, n, word, nl);
    }
}

#endif

static inline void rk_classify_clear(Py_ssize_t n, uint64_t *word, uint64_t *nl)
{
    Py_ssize_t nw = (n + 63) >> 6;
    memset(word, 0, (size_t)nw * sizeof(uint64_t));
    memset(nl, 0, (size_t)nw * sizeof(uint64_t));
}

static inline void rk_classify_latin1(const uint8_t *s, Py_ssize_t n, uint8_t *low,
                                      uint64_t *word, uint64_t *nl)
{
    Py_ssize_t i = 0;
#ifdef RK_HAVE_SSE2
    if (n >= 64) {
        uint64_t wm, nm;
#ifdef RK_HAVE_X86_64_V3
        if (rk_x86_64_v3) {
            rk_classify_64s_avx2(s, n, low, word, nl);
            return;
        }
#endif
        for (; i + 64 <= n; i += 64)
            rk_classify_64(s, i, low, word, nl);
        if (n & 63) {
            rk_classify_64_at(s + n - 64, low + n - 64, &wm, &nm);
            rk_store_tail(wm, nm, n, word, nl);
        }
        return;
    }
    /* under 64 bytes: one partial bitmap word (none for an empty text),
       ORed into block by block */
    if (n > 0) {
        word[0] = 0;
        nl[0] = 0;
    }
    for (; i + 16 <= n; i += 16)
        rk_classify_block(_mm_loadu_si128((const __m128i *)(s + i)), i, low, word, nl);
#else
    rk_classify_clear(n, word, nl);
#endif
    for (; i < n; i++)
        rk_classify_byte(s[i], i, low, word, nl);
}

/* One character ch of a 2- or 4-byte text at position i, saturated to a
   byte; 1 (nothing classified) for U+0130 and U+212A, else 0. */
static inline int rk_classify_wide_char(uint32_t ch, Py_ssize_t i, uint8_t *low,
                                        uint64_t *word, uint64_t *nl)
{
    if (ch == 0x130 || ch == 0x212A)
        return 1;
    rk_classify_byte((uint8_t)(ch > 0xFF ? 0xFF : ch), i, low, word, nl);
    return 0;
}

static inline int rk_classify_ucs2(const uint16_t *s, Py_ssize_t n, uint8_t *low,
                                   uint64_t *word, uint64_t *nl)
{
    Py_ssize_t i = 0;
    rk_classify_clear(n, word, nl);
#ifdef RK_HAVE_SSE2
    {
        const __m128i dot = _mm_set1_epi16(0x130), kelvin = _mm_set1_epi16(0x212A);
        const __m128i ff = _mm_set1_epi16(0xFF), zero = _mm_setzero_si128();
        for (; i + 16 <= n; i += 16) {
            __m128i h[2], special = zero;
            int k;
            for (k = 0; k < 2; k++) {
                __m128i x = _mm_loadu_si128((const __m128i *)(s + i + 8 * k));
                /* above 0xFF exactly where the high byte is set (SSE2 has no
                   unsigned 16-bit compare) */
                __m128i big = _mm_andnot_si128(_mm_cmpeq_epi16(_mm_srli_epi16(x, 8), zero), ff);
                special = _mm_or_si128(special, _mm_or_si128(_mm_cmpeq_epi16(x, dot),
                                                             _mm_cmpeq_epi16(x, kelvin)));
                h[k] = _mm_or_si128(_mm_and_si128(x, ff), big);
            }
            if (_mm_movemask_epi8(special))
                return 1;
            rk_classify_block(_mm_packus_epi16(h[0], h[1]), i, low, word, nl);
        }
    }
#endif
    for (; i < n; i++)
        if (rk_classify_wide_char(s[i], i, low, word, nl))
            return 1;
    return 0;
}

static inline int rk_classify_ucs4(const uint32_t *s, Py_ssize_t n, uint8_t *low,
                                   uint64_t *word, uint64_t *nl)
{
    Py_ssize_t i = 0;
    rk_classify_clear(n, word, nl);
#ifdef RK_HAVE_SSE2
    {
        const __m128i dot = _mm_set1_epi32(0x130), kelvin = _mm_set1_epi32(0x212A);
        const __m128i ff = _mm_set1_epi32(0xFF);
        for (; i + 16 <= n; i += 16) {
            __m128i q[4], special = _mm_setzero_si128();
            int k;
            for (k = 0; k < 4; k++) {
                /* code points are below 2**21: signed compares are right */
                __m128i x = _mm_loadu_si128((const __m128i *)(s + i + 4 * k));
                __m128i big = _mm_cmpgt_epi32(x, ff);
                special = _mm_or_si128(special, _mm_or_si128(_mm_cmpeq_epi32(x, dot),
                                                             _mm_cmpeq_epi32(x, kelvin)));
                q[k] = _mm_or_si128(_mm_andnot_si128(big, x), _mm_and_si128(big, ff));
            }
            if (_mm_movemask_epi8(special))
                return 1;
            rk_classify_block(_mm_packus_epi16(_mm_packs_epi32(q[0], q[1]),
                                               _mm_packs_epi32(q[2], q[3])), i, low, word, nl);
        }
    }
#endif
    for (; i < n; i++)
        if (rk_classify_wide_char(s[i], i, low, word, nl))
            return 1;
    return 0;
}

/* The word boundaries of a text from its word bitmap: block k of the
   bitmap is w, and carry bit 63 of block k - 1 (0 for the first block). A
   bit is set where a word starts (a word character after a non-word one)
   and where one ends (a non-word character, or the end of the text, after
   a word character): read in order, the set bits are a start, its word's
   end, the next start, and so on. */
static inline uint64_t rk_word_bounds(uint64_t w, uint64_t carry)
{
    return w ^ ((w << 1) | carry);
}

/* Writes base + i for each set bit i of x, lowest first, to out and returns
   how many: 8 at a time, with no branch per bit (simdjson's "flatten
   bits"), so out needs room for the count rounded up to a multiple of 8;
   the entries past the count hold garbage. */
static inline Py_ssize_t rk_flatten_bits(uint64_t x, int32_t base, int32_t *out)
{
    const uint64_t top = (uint64_t)1 << 63;   /* a spent x scans as 63: no ctz(0) */
    Py_ssize_t cnt = rk_popcount64(x), k = 0;
    int j;
    while (k < cnt) {
        for (j = 0; j < 8; j++) {
            out[k + j] = base + rk_low_bit64(x | top);
            x &= x - 1;
        }
        k += 8;
    }
    return cnt;
}

/* The word bounds of blocks k..top-1 of a word bitmap, as rk_word_bounds
   and rk_flatten_bits give them, written to bounds from index nb on as
   offsets from the first block's first character (k * 64); bstart[kk - k]
   gets the index of block kk's first. *carry is bit 63 of block k - 1 (0
   for the first block), and becomes top - 1's. *nl_blocks gets bit kk - k
   set for each block kk whose newline bitmap word nl[kk] is not 0 (top - k
   <= 64). Returns the new count. bounds needs room for up to 8 entries past
   it. */
static inline Py_ssize_t rk_flatten_blocks_portable(const uint64_t *wbits, const uint64_t *nl,
                                                    Py_ssize_t k, Py_ssize_t top,
                                                    uint64_t *carry, int32_t *bounds,
                                                    Py_ssize_t nb, Py_ssize_t *bstart,
                                                    uint64_t *nl_blocks)
{
    Py_ssize_t kk;
    uint64_t wk, c = *carry, nlb = 0;
    for (kk = k; kk < top; kk++) {
        wk = wbits[kk];
        bstart[kk - k] = nb;
        nlb |= (uint64_t)(nl[kk] != 0) << (kk - k);
        nb += rk_flatten_bits(rk_word_bounds(wk, c), (int32_t)((kk - k) << 6), bounds + nb);
        c = wk >> 63;
    }
    *carry = c;
    *nl_blocks = nlb;
    return nb;
}

#if defined(RK_HAVE_X86_64_V3) && defined(__x86_64__)
#define RK_HAVE_AVX2_BOUNDS 1
/* RK_BYTE_BITS[b]: the positions (0-7) of the set bits of byte b, lowest
   first, then zeros. */
static const uint8_t RK_BYTE_BITS[256][8] = {
#define RK_B(b) { \
    RK_NTH(b, 0), RK_NTH(b, 1), RK_NTH(b, 2), RK_NTH(b, 3), \
    RK_NTH(b, 4), RK_NTH(b, 5), RK_NTH(b, 6), RK_NTH(b, 7) }
/* the position of the (n+1)-th set bit of byte b, or 0 */
#define RK_NTH(b, n) ((uint8_t)( \
    RK_POS(b, n, 0) + RK_POS(b, n, 1) + RK_POS(b, n, 2) + RK_POS(b, n, 3) + \
    RK_POS(b, n, 4) + RK_POS(b, n, 5) + RK_POS(b, n, 6) + RK_POS(b, n, 7)))
/* i when bit i of b is set and n bits below it are set, else 0 */
#define RK_POS(b, n, i) ((((b) >> (i)) & 1) && RK_BELOW(b, i) == (n) ? (i) : 0)
#define RK_BELOW(b, i) ( \
    (((b) & ((1 << (i)) - 1) & 1) != 0) + (((b) & ((1 << (i)) - 1) & 2) != 0) + \
    (((b) & ((1 << (i)) - 1) & 4) != 0) + (((b) & ((1 << (i)) - 1) & 8) != 0) + \
    (((b) & ((1 << (i)) - 1) & 16) != 0) + (((b) & ((1 << (i)) - 1) & 32) != 0) + \
    (((b) & ((1 << (i)) - 1) & 64) != 0))
#define RK_B4(b) RK_B(b), RK_B(b + 1), RK_B(b + 2), RK_B(b + 3)
#define RK_B16(b) RK_B4(b), RK_B4(b + 4), RK_B4(b + 8), RK_B4(b + 12)
    RK_B16(0), RK_B16(16), RK_B16(32), RK_B16(48), RK_B16(64), RK_B16(80),
    RK_B16(96), RK_B16(112), RK_B16(128), RK_B16(144), RK_B16(160), RK_B16(176),
    RK_B16(192), RK_B16(208), RK_B16(224), RK_B16(240)
#undef RK_B16
#undef RK_B4
#undef RK_BELOW
#undef RK_POS
#undef RK_NTH
#undef RK_B
};

/* rk_flatten_blocks_portable a byte of the bounds at a time, with no
   branch on the data: the byte's bit positions from RK_BYTE_BITS widened
   to 8 offsets and stored whole, then the output advanced by the byte's
   count. 64-bit x86 with AVX2 and POPCNT only. */
__attribute__((target("avx2,popcnt")))
static Py_ssize_t rk_flatten_blocks_avx2(const uint64_t *wbits, const uint64_t *nl,
                                         Py_ssize_t k, Py_ssize_t top, uint64_t *carry,
                                         int32_t *bounds, Py_ssize_t nb, Py_ssize_t *bstart,
                                         uint64_t *nl_blocks)
{
    Py_ssize_t kk;
    uint64_t wk, x, c = *carry, nlb = 0;
    int32_t *out = bounds + nb;
    const __m256i eight = _mm256_set1_epi32(8);
    __m256i base;
    unsigned b;
    int j;
    for (kk = k; kk < top; kk++) {
        wk = wbits[kk];
        bstart[kk - k] = out - bounds;
        nlb |= (uint64_t)(nl[kk] != 0) << (kk - k);
        x = rk_word_bounds(wk, c);
        c = wk >> 63;
        base = _mm256_set1_epi32((int32_t)((kk - k) << 6));
        for (j = 0; j < 8; j++) {
            b = (unsigned)(x >> (8 * j)) & 0xFF;
            _mm256_storeu_si256((__m256i *)out, _mm256_add_epi32(base, _mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i *)RK_BYTE_BITS[b]))));
            out += _mm_popcnt_u32(b);
            base = _mm256_add_epi32(base, eight);
        }
    }
    *carry = c;
    *nl_blocks = nlb;
    return out - bounds;
}

#endif

/* rk_flatten_blocks_portable, by the AVX2 version where the CPU runs the
   x86-64-v3 loops (rk_x86_64_v3). */
static inline Py_ssize_t rk_flatten_blocks(const uint64_t *wbits, const uint64_t *nl,
                                           Py_ssize_t k, Py_ssize_t top, uint64_t *carry,
                                           int32_t *bounds, Py_ssize_t nb, Py_ssize_t *bstart,
                                           uint64_t *nl_blocks)
{
#ifdef RK_HAVE_AVX2_BOUNDS
    if (rk_x86_64_v3)
        return rk_flatten_blocks_avx2(wbits, nl, k, top, carry, bounds, nb, bstart, nl_blocks);
#endif
    return rk_flatten_blocks_portable(wbits, nl, k, top, carry, bounds, nb, bstart, nl_blocks);
}

/* The first k = min(max(n, 0), 8) bytes at p, zero-padded, in memory order
   (as memcpy into a zeroed uint64_t gives them): a token's prefix, and the
   chunks it is hashed and compared in. p must have 8 readable bytes. No
   branch on n: tokens' lengths are not predictable. */
static inline uint64_t rk_load_prefix(const uint8_t *p, Py_ssize_t n)
{
    uint64_t x;
    unsigned k = n <= 0 ? 0u : (n >= 8 ? 8u : (unsigned)n);
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
    memcpy(&x, p, 8);
    /* two shifts of 4k: k == 8 shifts by 64 in all, which one shift may not */
    x &= ~((~(uint64_t)0 << (4 * k)) << (4 * k));
#else
    x = 0;
    memcpy(&x, p, (size_t)k);
#endif
    return x;
}

/* RK_CHUNK_MASKS[k] and RK_CHUNK_MASKS[17 + k]: the bytes 0-7 and 8-15 of a
   k-byte token (k <= 16), as masks over little-endian loads. (One flat
   array: both entries are read off one base address, scaled by k.) */
static const uint64_t RK_CHUNK_MASKS[34] = {
    /* bytes 0-7, k = 0..16 */
    0x0000000000000000ULL, 0x00000000000000FFULL, 0x000000000000FFFFULL,
    0x0000000000FFFFFFULL, 0x00000000FFFFFFFFULL, 0x000000FFFFFFFFFFULL,
    0x0000FFFFFFFFFFFFULL, 0x00FFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL,
    0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL,
    0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL,
    0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL,
    /* bytes 8-15, k = 0..16 */
    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
    0x00000000000000FFULL, 0x000000000000FFFFULL, 0x0000000000FFFFFFULL,
    0x00000000FFFFFFFFULL, 0x000000FFFFFFFFFFULL, 0x0000FFFFFFFFFFFFULL,
    0x00FFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL,
};

/* The first min(n, 16) bytes at p (n >= 0) in two chunks, zero-padded, in
   memory order: bytes 0-7 in *c0, bytes 8-15 in *c1 (what rk_load_prefix
   gives for p, n and p + 8, n - 8). p must have 16 readable bytes. Two
   loads and a table look-up: no branch on n. */
static inline void rk_load_chunks(const uint8_t *p, Py_ssize_t n, uint64_t *c0, uint64_t *c1)
{
    Py_ssize_t k = n < 16 ? n : 16;
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
    uint64_t x0, x1;
    memcpy(&x0, p, 8);
    memcpy(&x1, p + 8, 8);
    *c0 = x0 & RK_CHUNK_MASKS[k];
    *c1 = x1 & RK_CHUNK_MASKS[17 + k];
#else
    *c0 = rk_load_prefix(p, k);
    *c1 = rk_load_prefix(p + 8, k - 8);
#endif
}

#endif
