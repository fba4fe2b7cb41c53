/* The token hash table's slot and hash (rougekit._core._vocab declares them
   and builds the table on them; words.h reads it in the tokenizer's word
   loop). */
#ifndef ROUGEKIT_VOCAB_H
#define ROUGEKIT_VOCAB_H

#include <stdint.h>
#include "hints.h"


/* Token hash: the token's bytes in 8-byte chunks, zero-padded (as
   vocab_chunk reads them). The first two chunks and the length go through
   two independent multiplies (rk_hash16: a token of up to 16 bytes, which
   is nearly every one, is hashed from two loads); each further chunk is
   mixed in with a multiply. A slot is chosen by the hash's top bits
   (Vocab.shift), which every input bit reaches. */
#define RK_HASH_MUL 0xFF51AFD7ED558CCDULL
#define RK_HASH_FIN 0xC4CEB9FE1A85EC53ULL

/* One entry of the open-addressing table: id -1 marks an empty slot. The
   size and first 16 bytes (zero-padded) sit beside the id, so a probe
   touches one cache line, and a token of up to 16 bytes (nearly every one)
   is compared without reading the pool. tag: the owner's (0 when the token
   is interned; vocab_clear_tags). */
typedef struct {
    uint64_t tag;
    uint64_t pre;
    uint64_t pre2;
    int32_t id;
    int32_t size;
} RkSlot;

/* The hash of a token of n bytes whose first two chunks are c0 and c1 (the
   whole token when n <= 16). */
static inline uint64_t rk_hash16(uint64_t c0, uint64_t c1, int64_t n)
{
    return (c0 * RK_HASH_MUL) ^ ((c1 ^ (uint64_t)n) * RK_HASH_FIN);
}

/* Whether slot s holds the token of n <= 16 bytes whose chunks are c0 and
   c1: one compare of the slot's three fields, with no read of the pool. An
   empty slot never matches (its size is -1). */
static inline int rk_slot_holds(const RkSlot *s, uint64_t c0, uint64_t c1, int64_t n)
{
    return ((s->pre ^ c0) | (s->pre2 ^ c1) | (uint64_t)((int64_t)s->size ^ n)) == 0;
}

/* The slot of a token of n <= 16 bytes (hash h, chunks c0 and c1: the whole
   token) in a table of slots (mask: their number - 1; a hash goes to slot
   h >> shift), or NULL if it is not interned: linear probing, each slot
   compared in place, one branch for a hit. */
static inline RkSlot *rk_slot_find16(RkSlot *slots, int64_t mask, int shift, uint64_t h,
                                     uint64_t c0, uint64_t c1, int64_t n)
{
    int64_t i = (int64_t)(h >> shift);
    RkSlot *s = &slots[i];
    /* In the engine's sparse table (_vocab.pxd: a load of at most 1/8 up
       to 2 MiB of slots) nearly every token is in its first slot. Said to
       the compiler, it keeps the word loop's values in registers rather
       than the probing's (5 instructions fewer a word). */
    if (RK_LIKELY(rk_slot_holds(s, c0, c1, n)))
        return s;
    for (;;) {
        if (s->id == -1)
            return 0;
        i = (i + 1) & mask;
        s = &slots[i];
        if (rk_slot_holds(s, c0, c1, n))
            return s;
    }
}

#endif
