/*
 * The avx512 summing loop, shared by csum_partial's avx512 row and the AVX-512 copy+checksum
 * row. Include only from files compiled with AVX-512 F/BW and BMI2.
 *
 * Algorithm. Treat each 32-bit lane x = lo + 65536 * hi as a pair of 16-bit words. Keep two
 * 32-bit accumulators per lane: A += x (wraps mod 2^32) and H += x >> 16 (the high words). As
 * long as the true sum of the low words L = sum(lo) stays below 2^32, it is recovered exactly:
 * L = A - 65536 * H (mod 2^32). The lane's word sum is then L + H. Three simple vector ops per
 * 64 bytes (add, shift, add), all on the common integer pipes. We derived this ourselves from
 * the usual "widen then add" approach, dropping the mask by letting the low words ride in A.
 *
 * Lane overflow bound. Each step adds at most 0xffff to L and to H per lane; they stay below
 * 2^32 for 65536 steps. Four accumulator pairs are flushed (reconstructed and widened to 64-bit
 * lanes) every 16384 steps of 4 vectors, i.e. every 4 MiB; 64-bit lanes cannot overflow.
 *
 * Never reads (or writes) outside the buffers: the last partial vector is a masked load (and
 * masked store).
 */
#ifndef CSUM_X86_AVX512_SUM_H
#define CSUM_X86_AVX512_SUM_H

#include "x86_avx512_common.h"

enum { AVX512_STEPS_PER_FLUSH = 16384 };

struct avx512_lanes {
    __m512i all, high; /* A and H above */
};

static inline void avx512_add_vector(struct avx512_lanes *l, __m512i v)
{
    l->all = _mm512_add_epi32(l->all, v);
    l->high = _mm512_add_epi32(l->high, _mm512_srli_epi32(v, 16));
}

/* L + H per 32-bit lane, as 8 64-bit lanes (exact: L and H are each below 2^32). */
static inline __m512i avx512_reconstruct(struct avx512_lanes l)
{
    __m512i low = _mm512_sub_epi32(l.all, _mm512_slli_epi32(l.high, 16));
    return _mm512_add_epi64(avx512_widen_u32(low), avx512_widen_u32(l.high));
}

CSUM_ALWAYS_INLINE csum_wsum avx512_sum(unsigned char *dst, const unsigned char *p, size_t len,
                                        csum_wsum sum, enum csum_store store)
{
    const struct avx512_lanes zero = { _mm512_setzero_si512(), _mm512_setzero_si512() };
    __m512i wide = _mm512_setzero_si512(); /* 8 64-bit lanes */
    size_t i = 0;

    while (len - i >= 256) {
        size_t steps = (len - i) / 256;
        if (steps > AVX512_STEPS_PER_FLUSH)
            steps = AVX512_STEPS_PER_FLUSH;
        struct avx512_lanes l0 = zero, l1 = zero, l2 = zero, l3 = zero;
        for (size_t k = 0; k < steps; k++, i += 256) {
            avx512_add_vector(&l0, avx512_move(dst, p, i + 0, store));
            avx512_add_vector(&l1, avx512_move(dst, p, i + 64, store));
            avx512_add_vector(&l2, avx512_move(dst, p, i + 128, store));
            avx512_add_vector(&l3, avx512_move(dst, p, i + 192, store));
        }
        wide = _mm512_add_epi64(wide, _mm512_add_epi64(_mm512_add_epi64(avx512_reconstruct(l0), avx512_reconstruct(l1)),
                                                       _mm512_add_epi64(avx512_reconstruct(l2), avx512_reconstruct(l3))));
    }
    struct avx512_lanes r0 = zero, r1 = zero;
    if (len & 128) {
        avx512_add_vector(&r0, avx512_move(dst, p, i + 0, store));
        avx512_add_vector(&r1, avx512_move(dst, p, i + 64, store));
        i += 128;
    }
    if (len & 64) {
        avx512_add_vector(&r0, avx512_move(dst, p, i, store));
        i += 64;
    }
    if (len & 63)
        avx512_add_vector(&r1, avx512_move_tail(dst, p, i, len & 63, store));
    wide = _mm512_add_epi64(wide, _mm512_add_epi64(avx512_reconstruct(r0), avx512_reconstruct(r1)));
    return csum_fold64(csum_add64((uint64_t)_mm512_reduce_add_epi64(wide), sum));
}

#endif /* CSUM_X86_AVX512_SUM_H */
