/* The walk back through the columns of rougeLsum's one-word path
   (rougekit._core._lcs._walk_one_word says what it computes and why): a
   chain of dependent steps, each isolating the highest set bit of a word.
   Where the CPU runs the x86-64-v3 loops (cpu.h) the bit is found with
   LZCNT and a BMI2 shift (2 cycles) instead of BSR and a shift by CL (5 on
   some CPUs); both give the same marks. */
#ifndef ROUGEKIT_WALK_H
#define ROUGEKIT_WALK_H

#include <stdint.h>
#include <Python.h>
#include "bits.h"
#include "cpu.h"
#include "hints.h"


/* The walk for a reference sentence at the bits seg of cols (cols[j]: the
   column after can[0:j], j = 1..n), pm[id] the bits of the reference
   positions holding id: marks with the bit of each position on its LCS
   added. It stops once no position of want is within its reach. lzcnt: 1
   to find the highest bit with __builtin_clzll in a function compiled for
   LZCNT (0 portable). */
static RK_ALWAYS_INLINE uint64_t rk_walk_body(uint64_t seg, uint64_t want, const uint64_t *pm,
                                              const int32_t *can, Py_ssize_t n,
                                              const uint64_t *cols, uint64_t marks,
                                              int lzcnt)
{
    uint64_t lim = seg, x, mm, top, upto, hit;
    Py_ssize_t j = n;
    /* lim may hold bits below seg (they are dropped where x is formed,
       off the chain of steps: each step waits only on the one before) */
    while (j > 0 && (lim & want) != 0) {
        mm = pm[can[j - 1]];
        x = (mm | ~cols[j]) & seg & lim;
        if (x == 0)
            break;                      /* up to row 0: the walk ends */
#if defined(__GNUC__) || defined(__clang__)
        if (lzcnt) {
            int lz = __builtin_clzll(x);
            top = ((uint64_t)1 << 63) >> lz;
            upto = ~(uint64_t)0 >> lz;
        } else
#endif
        {
            top = (uint64_t)1 << rk_high_bit64(x);
            upto = (top << 1) - 1;      /* (all bits when top is bit 63) */
        }
        hit = top & mm;
        marks |= hit;
        /* the rows below top after a match, else top's row and those below */
        lim = upto ^ hit;
        j -= 1;
    }
    return marks;
}

#ifdef RK_HAVE_X86_64_V3
__attribute__((target("lzcnt,bmi2")))
static uint64_t rk_walk_x86_64_v3(uint64_t seg, uint64_t want, const uint64_t *pm,
                                  const int32_t *can, Py_ssize_t n, const uint64_t *cols,
                                  uint64_t marks)
{
    return rk_walk_body(seg, want, pm, can, n, cols, marks, 1);
}
#endif

static inline uint64_t rk_walk_one_word(uint64_t seg, uint64_t want, const uint64_t *pm,
                                        const int32_t *can, Py_ssize_t n, const uint64_t *cols,
                                        uint64_t marks)
{
#ifdef RK_HAVE_X86_64_V3
    if (rk_x86_64_v3)
        return rk_walk_x86_64_v3(seg, want, pm, can, n, cols, marks);
#endif
    return rk_walk_body(seg, want, pm, can, n, cols, marks, 0);
}

#endif
