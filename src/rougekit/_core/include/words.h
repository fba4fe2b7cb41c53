/* The tokenizer's word loop for its common case: a run of words, each a
   token of at most 16 bytes that the table holds already (and, stemming,
   whose stem it holds), numbered densely in their slots (or their stems'
   slots), or once the round's numbering is closed, read from them.
   rougekit._core._tokenizer calls it (rk_known_words) on a chunk's words
   and reads every other word (a new token, a new stem, a long word)
   itself.

   A function of its own, kept out of its caller: in the caller's loop,
   next to the rare cases' variables, the compiler kept this loop's
   counters on the stack. */
#ifndef ROUGEKIT_WORDS_H
#define ROUGEKIT_WORDS_H

#include <stdint.h>
#include <Python.h>
#include "classify.h"
#include "vocab.h"
#include "hints.h"


/* The number of the slot's token in this round (high: the round << 32): a
   new one (*n, and *n grows by 1) for a token not seen in the round yet.
   A tag below high is from an earlier round (rounds only grow, and when
   the round wraps every tag is cleared to 0), so one compare tells a new
   token. No branch: whether a token is new is not predictable (the
   ternary compiles to a conditional move). */
static inline int32_t rk_dense_id(RkSlot *slot, uint64_t high, Py_ssize_t *n)
{
    uint64_t x = slot->tag;
    uint64_t d = x < high ? (uint64_t)*n : (x & UINT32_MAX);
    slot->tag = high | d;
    *n += x < high;
    return (int32_t)d;
}

/* The number of the slot's token in this round once the round's numbering
   is closed (the engine closes it after the target, whose tokens are the
   only ones a prediction's can match): a token the round has not numbered
   reads as absent, one number for them all, and nothing is written. */
static inline int32_t rk_closed_id(const RkSlot *slot, uint64_t high, int32_t absent)
{
    uint64_t x = slot->tag;
    return x < high ? absent : (int32_t)(x & UINT32_MAX);
}

/* The slot's token's number in this round: rk_closed_id once the round's
   numbering is closed (*n then the number of the tokens it has not
   numbered), else rk_dense_id. */
static inline int32_t rk_token_number(RkSlot *slot, uint64_t high, Py_ssize_t *n, int closed)
{
    return closed ? rk_closed_id(slot, high, (int32_t)*n) : rk_dense_id(slot, high, n);
}

/* The words b[0]..b[1], b[2]..b[3], ... (start and end offsets from low,
   a chunk's first character in the lowercased text, which has 16 readable
   bytes past any word; a start may be negative) before stop,
   numbered in their slots while each is a known token of at most 16 bytes
   (with stem_slot, stemming: whose stem is known and not empty, its
   stem_slot entry the slot that numbers it; see Vocab.stem_slot). The
   numbers go to *out, which advances, and *nd, the next new number, grows
   by the new ones (with closed, rk_token_number's).
   Returns stop, or the first word left to the caller. */
static RK_ALWAYS_INLINE const int32_t *
rk_number_known_impl(const int32_t *b, const int32_t *stop, const uint8_t *low,
                     RkSlot *slots, Py_ssize_t mask, int shift, uint64_t high,
                     Py_ssize_t *nd, int32_t **out, const Py_ssize_t *stem_slot, int closed)
{
    int32_t *o = *out;
    Py_ssize_t next = *nd;
    for (; b < stop; b += 2) {
        Py_ssize_t start = b[0], len = b[1] - start;
        uint64_t c0, c1;
        RkSlot *s;
        if (len > 16)
            break;
        rk_load_chunks(low + start, len, &c0, &c1);
        s = rk_slot_find16(slots, mask, shift, rk_hash16(c0, c1, len), c0, c1, len);
        if (s == NULL)
            break;
        if (stem_slot != NULL) {
            /* no branch on the word's length (not predictable): a word of up
               to 3 characters is its own stem, its stem_slot its own slot */
            Py_ssize_t k = stem_slot[s->id];
            if (k < 0)
                break;          /* not stemmed yet, or an empty stem */
            s = &slots[k];
        }
        *o++ = rk_token_number(s, high, &next, closed);
    }
    *out = o;
    *nd = next;
    return b;
}

/* rk_number_known_impl's four loops, each a function of its own so that the
   compiler keeps only its case's code in the loop: numbering or closed
   (rk_closed_id), stemming (stem_slot) or not (stem_slot ignored). */
#define RK_WORD_LOOP(name, stems, closed)                                          \
    RK_NOINLINE static const int32_t *                                             \
    name(const int32_t *b, const int32_t *stop, const uint8_t *low, RkSlot *slots, \
         Py_ssize_t mask, int shift, uint64_t high, Py_ssize_t *nd, int32_t **out, \
         const Py_ssize_t *stem_slot)                                              \
    {                                                                              \
        return rk_number_known_impl(b, stop, low, slots, mask, shift, high, nd, out, \
                                    (stems) ? stem_slot : NULL, (closed));         \
    }
RK_WORD_LOOP(rk_number_known_words, 0, 0)
RK_WORD_LOOP(rk_number_known_stems, 1, 0)
RK_WORD_LOOP(rk_closed_known_words, 0, 1)
RK_WORD_LOOP(rk_closed_known_stems, 1, 1)
#undef RK_WORD_LOOP

/* The word loop for the caller's case (stem_slot NULL when not stemming;
   closed: the round's numbering is closed): rk_number_known_impl's
   arguments and result. */
static inline const int32_t *
rk_known_words(const int32_t *b, const int32_t *stop, const uint8_t *low, RkSlot *slots,
               Py_ssize_t mask, int shift, uint64_t high, Py_ssize_t *nd, int32_t **out,
               const Py_ssize_t *stem_slot, int closed)
{
    if (closed)
        return (stem_slot != NULL ? rk_closed_known_stems : rk_closed_known_words)(
            b, stop, low, slots, mask, shift, high, nd, out, stem_slot);
    return (stem_slot != NULL ? rk_number_known_stems : rk_number_known_words)(
        b, stop, low, slots, mask, shift, high, nd, out, stem_slot);
}

#endif
