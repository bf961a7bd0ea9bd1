/*
 * avx2: the avx512 row's algorithm on 256-bit vectors, for CPUs without AVX-512.
 *
 * Algorithm (see partial_avx512.c): per 32-bit lane x = lo + 65536 * hi keep A += x (mod 2^32)
 * and H += x >> 16; the low words' sum is recovered exactly as A - 65536 * H while it stays
 * below 2^32, and the lane's word sum is that plus H. Three simple ops per 32 bytes.
 *
 * Lane overflow bound: as in avx512, each accumulator pair is flushed to 64-bit lanes before it
 * has taken 65536 vectors (every 16384 steps of 4 vectors, i.e. every 2 MiB).
 *
 * Never reads outside the buffer: AVX2 has no byte-masked load, so the last 1..31 bytes are
 * read as whole 32-bit elements with vpmaskmovd (masked-out elements are not accessed and
 * cannot fault) plus at most three bytes assembled in scalar code.
 */
#include <immintrin.h>

#include "csum_internal.h"

enum { STEPS_PER_FLUSH = 16384 };

struct lanes {
    __m256i all, high;
};

static inline void add_vector(struct lanes *l, __m256i v)
{
    l->all = _mm256_add_epi32(l->all, v);
    l->high = _mm256_add_epi32(l->high, _mm256_srli_epi32(v, 16));
}

static inline __m256i widen_u32(__m256i a)
{
    const __m256i low32 = _mm256_set1_epi64x(0xffffffff);
    return _mm256_add_epi64(_mm256_and_si256(a, low32), _mm256_srli_epi64(a, 32));
}

static inline __m256i reconstruct(struct lanes l)
{
    __m256i low = _mm256_sub_epi32(l.all, _mm256_slli_epi32(l.high, 16));
    return _mm256_add_epi64(widen_u32(low), widen_u32(l.high));
}

static inline __m256i load(const unsigned char *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

static csum_wsum csum_partial_avx2(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    const struct lanes zero = { _mm256_setzero_si256(), _mm256_setzero_si256() };
    __m256i wide = _mm256_setzero_si256(); /* 4 64-bit lanes */

    while (len >= 128) {
        size_t steps = len / 128 < STEPS_PER_FLUSH ? len / 128 : STEPS_PER_FLUSH;
        struct lanes l0 = zero, l1 = zero, l2 = zero, l3 = zero;
        for (size_t i = 0; i < steps; i++, p += 128) {
            add_vector(&l0, load(p));
            add_vector(&l1, load(p + 32));
            add_vector(&l2, load(p + 64));
            add_vector(&l3, load(p + 96));
        }
        len -= steps * 128;
        wide = _mm256_add_epi64(wide, _mm256_add_epi64(_mm256_add_epi64(reconstruct(l0), reconstruct(l1)),
                                                       _mm256_add_epi64(reconstruct(l2), reconstruct(l3))));
    }
    struct lanes r0 = zero, r1 = zero;
    if (len & 64) {
        add_vector(&r0, load(p));
        add_vector(&r1, load(p + 32));
        p += 64;
    }
    if (len & 32) {
        add_vector(&r0, load(p));
        p += 32;
    }
    if (len & 28) { /* whole 32-bit elements of the last 1..31 bytes */
        const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)((len & 31) / 4)), index);
        add_vector(&r1, _mm256_maskload_epi32((const int *)p, mask));
        p += len & 28;
    }
    wide = _mm256_add_epi64(wide, _mm256_add_epi64(reconstruct(r0), reconstruct(r1)));

    __m128i w = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    uint64_t total = (uint64_t)_mm_cvtsi128_si64(w) + (uint64_t)_mm_extract_epi64(w, 1);
    total = csum_add64(total, csum_tail_sum7(p, len & 3));
    return csum_fold64(csum_add64(total, sum));
}

const struct csum_impl_entry csum_impl_avx2 = {
    .pub = {
        .name = "avx2",
        .description = "AVX2: whole-lane and high-word 32-bit accumulators (as avx512, 32 B "
                       "vectors); vpmaskmovd + byte tail",
        .partial = csum_partial_avx2,
        .requires = "avx2",
    },
    .cpu_features = CSUM_CPU_AVX2,
};
