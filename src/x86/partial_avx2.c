/*
 * avx2: the whole-lane/high-word algorithm of x86_lanes.h on 256-bit vectors, for CPUs
 * without AVX-512.
 *
 * Never reads outside the buffer: AVX2 has no byte-masked load, so the last 1..31 bytes are
 * read as whole 32-bit elements with vpmaskmovd (masked-out elements are not accessed and
 * cannot fault) plus at most three bytes assembled in scalar code.
 */
#include <immintrin.h>

#include "csum_internal.h"

#define LANES_VEC __m256i
#define LANES_BYTES 32
#define LANES_FUNCTION csum_partial_avx2
#define V_ZERO() _mm256_setzero_si256()
#define V_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_ADD32(a, b) _mm256_add_epi32((a), (b))
#define V_SUB32(a, b) _mm256_sub_epi32((a), (b))
#define V_SRLI32(a, n) _mm256_srli_epi32((a), (n))
#define V_SLLI32(a, n) _mm256_slli_epi32((a), (n))
#define V_ADD64(a, b) _mm256_add_epi64((a), (b))
#define V_AND(a, b) _mm256_and_si256((a), (b))
#define V_SRLI64(a, n) _mm256_srli_epi64((a), (n))
#define V_SET1_64(x) _mm256_set1_epi64x(x)
#include "x86_lanes.h"

static inline uint64_t lanes_tail(struct lanes *l, const unsigned char *p, size_t n)
{
    if (n >= 4) { /* the whole 32-bit elements */
        const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n / 4)), index);
        lanes_add(l, _mm256_maskload_epi32((const int *)(const void *)p, mask));
    }
    return csum_tail_sum7(p + (n & ~(size_t)3), n & 3);
}

static inline uint64_t lanes_reduce(__m256i wide)
{
    __m128i w = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    return (uint64_t)_mm_cvtsi128_si64(w) + (uint64_t)_mm_extract_epi64(w, 1);
}

#include "x86_lanes.h"

const struct csum_impl_entry csum_impl_avx2 = {
    .pub = {
        .name = "avx2",
        .description = "AVX2: whole-lane and high-word 32-bit accumulators, low words recovered "
                       "exactly (3 simple ops/32 B); vpmaskmovd + byte tail",
        .partial = csum_partial_avx2,
        .requires = "avx2",
    },
    .cpu_features = CSUM_CPU_AVX2,
};
