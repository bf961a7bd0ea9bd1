/*
 * avx512: the whole-lane/high-word algorithm of x86_lanes.h on 512-bit vectors (AVX-512BW).
 *
 * Never reads outside the buffer: the last partial vector is a masked load (masked-out bytes
 * are neither read nor able to fault), zero-padded like RFC 1071 pads an odd last byte.
 */
#include <immintrin.h>

#include "csum_internal.h"
#include "x86_avx512_common.h"

#define LANES_VEC __m512i
#define LANES_BYTES 64
#define LANES_FUNCTION csum_partial_avx512
#define V_ZERO() _mm512_setzero_si512()
#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_ADD32(a, b) _mm512_add_epi32((a), (b))
#define V_SUB32(a, b) _mm512_sub_epi32((a), (b))
#define V_SRLI32(a, n) _mm512_srli_epi32((a), (n))
#define V_SLLI32(a, n) _mm512_slli_epi32((a), (n))
#define V_ADD64(a, b) _mm512_add_epi64((a), (b))
#define V_AND(a, b) _mm512_and_si512((a), (b))
#define V_SRLI64(a, n) _mm512_srli_epi64((a), (n))
#define V_SET1_64(x) _mm512_set1_epi64(x)
#include "x86_lanes.h"

static inline uint64_t lanes_tail(struct lanes *l, const unsigned char *p, size_t n)
{
    lanes_add(l, avx512_load_tail(p, n));
    return 0;
}

static inline uint64_t lanes_reduce(__m512i wide)
{
    return (uint64_t)_mm512_reduce_add_epi64(wide);
}

#include "x86_lanes.h"

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
