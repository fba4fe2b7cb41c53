/* Classify a 1-byte (Latin-1) str buffer for rouge-score's tokenizer, 16
   bytes at a time where SSE2 is available (every x86-64), byte by byte
   elsewhere; both give the same result.

   For s[0:n]: low[i] is s[i] lowercased when it is an ASCII letter (else
   s[i]); bit i of word[] is set where s[i] is an ASCII letter or digit (no
   other Latin-1 character lowercases to one); bit i of nl[] where s[i] is
   "\n". word and nl have (n + 63) / 64 entries, bits past n clear. */
#ifndef ROUGEKIT_CLASSIFY_H
#define ROUGEKIT_CLASSIFY_H
#include <stdint.h>
#include <string.h>
#include <Python.h>

#if !defined(RK_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#include <emmintrin.h>
#define RK_HAVE_SSE2 1
#endif

static inline void rk_classify_latin1(const uint8_t *s, Py_ssize_t n, uint8_t *low,
                                      uint64_t *word, uint64_t *nl)
{
    Py_ssize_t i = 0, nw = (n + 63) >> 6;
    memset(word, 0, (size_t)nw * sizeof(uint64_t));
    memset(nl, 0, (size_t)nw * sizeof(uint64_t));
#ifdef RK_HAVE_SSE2
    {
        /* Signed byte compares: bytes >= 0x80 are negative, so never in the
           ranges below. */
        const __m128i c20 = _mm_set1_epi8(0x20);
        const __m128i a1 = _mm_set1_epi8('a' - 1), z1 = _mm_set1_epi8('z' + 1);
        const __m128i d0 = _mm_set1_epi8('0' - 1), d9 = _mm_set1_epi8('9' + 1);
        const __m128i lf = _mm_set1_epi8('\n');
        for (; i + 16 <= n; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
            __m128i l = _mm_or_si128(v, c20);
            __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(l, a1), _mm_cmplt_epi8(l, z1));
            __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, d0), _mm_cmplt_epi8(v, d9));
            uint64_t wm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(alpha, digit));
            uint64_t nm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));
            _mm_storeu_si128((__m128i *)(low + i), _mm_or_si128(v, _mm_and_si128(alpha, c20)));
            word[i >> 6] |= wm << (i & 63);
            nl[i >> 6] |= nm << (i & 63);
        }
    }
#endif
    for (; i < n; i++) {
        uint8_t c = s[i], l = (uint8_t)(c | 0x20);
        int alpha = l >= 'a' && l <= 'z', digit = c >= '0' && c <= '9';
        low[i] = alpha ? l : c;
        if (alpha || digit)
            word[i >> 6] |= (uint64_t)1 << (i & 63);
        if (c == '\n')
            nl[i >> 6] |= (uint64_t)1 << (i & 63);
    }
}

/* rk_classify_latin1 for a 2-byte (UCS-2) text: each character above 0xFF
   is first saturated to 0xFF, which is no word character and no newline;
   that is right for all of them but U+0130 and U+212A, the two whose
   lowercase is ASCII. Returns 1 if the text has either (the caller then
   classifies it otherwise), else 0. */
static inline int rk_classify_ucs2(const uint16_t *s, Py_ssize_t n, uint8_t *low,
                                   uint64_t *word, uint64_t *nl)
{
    Py_ssize_t i = 0, nw = (n + 63) >> 6;
    memset(word, 0, (size_t)nw * sizeof(uint64_t));
    memset(nl, 0, (size_t)nw * sizeof(uint64_t));
#ifdef RK_HAVE_SSE2
    {
        const __m128i c20 = _mm_set1_epi8(0x20);
        const __m128i a1 = _mm_set1_epi8('a' - 1), z1 = _mm_set1_epi8('z' + 1);
        const __m128i d0 = _mm_set1_epi8('0' - 1), d9 = _mm_set1_epi8('9' + 1);
        const __m128i lf = _mm_set1_epi8('\n');
        const __m128i dot = _mm_set1_epi16(0x130), kelvin = _mm_set1_epi16(0x212A);
        const __m128i ff = _mm_set1_epi16(0xFF);
        for (; i + 16 <= n; i += 16) {
            __m128i lo = _mm_loadu_si128((const __m128i *)(s + i));
            __m128i hi = _mm_loadu_si128((const __m128i *)(s + i + 8));
            __m128i special = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi16(lo, dot), _mm_cmpeq_epi16(lo, kelvin)),
                _mm_or_si128(_mm_cmpeq_epi16(hi, dot), _mm_cmpeq_epi16(hi, kelvin)));
            if (_mm_movemask_epi8(special))
                return 1;
            /* min(c, 0xFF) per 16-bit lane (SSE2 has no unsigned 16-bit min:
               c > 0xFF exactly where the high byte is set), then packed. */
            lo = _mm_or_si128(_mm_and_si128(lo, ff),
                              _mm_andnot_si128(_mm_cmpeq_epi16(_mm_srli_epi16(lo, 8), _mm_setzero_si128()), ff));
            hi = _mm_or_si128(_mm_and_si128(hi, ff),
                              _mm_andnot_si128(_mm_cmpeq_epi16(_mm_srli_epi16(hi, 8), _mm_setzero_si128()), ff));
            __m128i v = _mm_packus_epi16(lo, hi);
            __m128i l = _mm_or_si128(v, c20);
            __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(l, a1), _mm_cmplt_epi8(l, z1));
            __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, d0), _mm_cmplt_epi8(v, d9));
            uint64_t wm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(alpha, digit));
            uint64_t nm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));
            _mm_storeu_si128((__m128i *)(low + i), _mm_or_si128(v, _mm_and_si128(alpha, c20)));
            word[i >> 6] |= wm << (i & 63);
            nl[i >> 6] |= nm << (i & 63);
        }
    }
#endif
    for (; i < n; i++) {
        uint16_t ch = s[i];
        uint8_t c, l;
        int alpha, digit;
        if (ch == 0x130 || ch == 0x212A)
            return 1;
        c = ch > 0xFF ? 0xFF : (uint8_t)ch;
        l = (uint8_t)(c | 0x20);
        alpha = l >= 'a' && l <= 'z';
        digit = c >= '0' && c <= '9';
        low[i] = alpha ? l : c;
        if (alpha || digit)
            word[i >> 6] |= (uint64_t)1 << (i & 63);
        if (c == '\n')
            nl[i >> 6] |= (uint64_t)1 << (i & 63);
    }
    return 0;
}

/* The same for a 4-byte (UCS-4) text: characters above 0xFF saturated to
   0xFF; returns 1 if the text has U+0130 or U+212A, else 0. */
static inline int rk_classify_ucs4(const uint32_t *s, Py_ssize_t n, uint8_t *low,
                                   uint64_t *word, uint64_t *nl)
{
    Py_ssize_t i = 0, nw = (n + 63) >> 6;
    memset(word, 0, (size_t)nw * sizeof(uint64_t));
    memset(nl, 0, (size_t)nw * sizeof(uint64_t));
#ifdef RK_HAVE_SSE2
    {
        const __m128i c20 = _mm_set1_epi8(0x20);
        const __m128i a1 = _mm_set1_epi8('a' - 1), z1 = _mm_set1_epi8('z' + 1);
        const __m128i d0 = _mm_set1_epi8('0' - 1), d9 = _mm_set1_epi8('9' + 1);
        const __m128i lf = _mm_set1_epi8('\n');
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
            __m128i v = _mm_packus_epi16(_mm_packs_epi32(q[0], q[1]), _mm_packs_epi32(q[2], q[3]));
            __m128i l = _mm_or_si128(v, c20);
            __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(l, a1), _mm_cmplt_epi8(l, z1));
            __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, d0), _mm_cmplt_epi8(v, d9));
            uint64_t wm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(alpha, digit));
            uint64_t nm = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));
            _mm_storeu_si128((__m128i *)(low + i), _mm_or_si128(v, _mm_and_si128(alpha, c20)));
            word[i >> 6] |= wm << (i & 63);
            nl[i >> 6] |= nm << (i & 63);
        }
    }
#endif
    for (; i < n; i++) {
        uint32_t ch = s[i];
        uint8_t c, l;
        int alpha, digit;
        if (ch == 0x130 || ch == 0x212A)
            return 1;
        c = ch > 0xFF ? 0xFF : (uint8_t)ch;
        l = (uint8_t)(c | 0x20);
        alpha = l >= 'a' && l <= 'z';
        digit = c >= '0' && c <= '9';
        low[i] = alpha ? l : c;
        if (alpha || digit)
            word[i >> 6] |= (uint64_t)1 << (i & 63);
        if (c == '\n')
            nl[i >> 6] |= (uint64_t)1 << (i & 63);
    }
    return 0;
}

/* The first min(n, 8) bytes at p, zero-padded, in memory order (as memcpy
   into a zeroed uint64_t gives them): the token prefix and hash chunk. p must
   have 8 readable bytes. */
static inline uint64_t rk_load_prefix(const uint8_t *p, Py_ssize_t n)
{
    uint64_t x;
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
    memcpy(&x, p, 8);
    if (n < 8)
        x &= (((uint64_t)1) << (8 * n)) - 1;
#else
    x = 0;
    memcpy(&x, p, (size_t)(n < 8 ? n : 8));
#endif
    return x;
}

#endif
