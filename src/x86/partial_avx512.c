/*
 * avx512: 16-bit words summed with plain AVX-512BW adds and shifts, no carries to track.
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
 * Never reads outside the buffer: the last partial vector is a masked load.
 */
#include <immintrin.h>

#include "csum_internal.h"
#include "x86_avx512_common.h"

enum { STEPS_PER_FLUSH = 16384 };

struct lanes {
    __m512i all, high; /* A and H above */
};

static inline void add_vector(struct lanes *l, __m512i v)
{
    l->all = _mm512_add_epi32(l->all, v);
    l->high = _mm512_add_epi32(l->high, _mm512_srli_epi32(v, 16));
}

/* L + H per 32-bit lane, as 8 64-bit lanes (exact: L and H are each below 2^32). */
static inline __m512i reconstruct(struct lanes l)
{
    __m512i low = _mm512_sub_epi32(l.all, _mm512_slli_epi32(l.high, 16));
    return _mm512_add_epi64(avx512_widen_u32(low), avx512_widen_u32(l.high));
}

static csum_wsum csum_partial_avx512(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    const struct lanes zero = { _mm512_setzero_si512(), _mm512_setzero_si512() };
    __m512i wide = _mm512_setzero_si512(); /* 8 64-bit lanes */

    while (len >= 256) {
        size_t steps = len / 256 < STEPS_PER_FLUSH ? len / 256 : STEPS_PER_FLUSH;
        struct lanes l0 = zero, l1 = zero, l2 = zero, l3 = zero;
        for (size_t i = 0; i < steps; i++, p += 256) {
            add_vector(&l0, _mm512_loadu_si512(p));
            add_vector(&l1, _mm512_loadu_si512(p + 64));
            add_vector(&l2, _mm512_loadu_si512(p + 128));
            add_vector(&l3, _mm512_loadu_si512(p + 192));
        }
        len -= steps * 256;
        wide = _mm512_add_epi64(wide, _mm512_add_epi64(_mm512_add_epi64(reconstruct(l0), reconstruct(l1)),
                                                       _mm512_add_epi64(reconstruct(l2), reconstruct(l3))));
    }
    struct lanes r0 = zero, r1 = zero;
    if (len & 128) {
        add_vector(&r0, _mm512_loadu_si512(p));
        add_vector(&r1, _mm512_loadu_si512(p + 64));
        p += 128;
    }
    if (len & 64) {
        add_vector(&r0, _mm512_loadu_si512(p));
        p += 64;
    }
    if (len & 63)
        add_vector(&r1, avx512_load_tail(p, len & 63));
    wide = _mm512_add_epi64(wide, _mm512_add_epi64(reconstruct(r0), reconstruct(r1)));
    return csum_fold64(csum_add64((uint64_t)_mm512_reduce_add_epi64(wide), sum));
}

const struct csum_impl_entry csum_impl_avx512 = {
    .pub = {
        .name = "avx512",
        .description = "AVX-512BW: whole-lane and high-word 32-bit accumulators, low words "
                       "recovered exactly (3 simple ops/64 B); masked-load tail",
        .partial = csum_partial_avx512,
        .requires = "avx512f avx512bw bmi2",
    },
    .cpu_features = CSUM_CPU_AVX512F | CSUM_CPU_AVX512BW | CSUM_CPU_BMI2,
};
