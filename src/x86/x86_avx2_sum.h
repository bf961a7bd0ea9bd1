/*
 * The avx2 summing loop, shared by csum_partial's avx2 row and the AVX2 copy+checksum rows
 * (temporal and streaming stores). Include only from files compiled with AVX2.
 *
 * Algorithm (see x86_avx512_sum.h): per 32-bit lane x = lo + 65536 * hi keep A += x (mod 2^32)
 * and H += x >> 16; the low words' sum is recovered exactly as A - 65536 * H while it stays
 * below 2^32, and the lane's word sum is that plus H. Three simple ops per 32 bytes.
 *
 * Lane overflow bound: as in avx512, each accumulator pair is flushed to 64-bit lanes before it
 * has taken 65536 vectors (every 16384 steps of 4 vectors, i.e. every 2 MiB).
 *
 * Never reads (or writes) outside the buffers: AVX2 has no byte-masked load, so the last 1..31
 * bytes are moved as whole 32-bit elements with vpmaskmovd (masked-out elements are not
 * accessed and cannot fault, for loads and stores alike) plus at most three bytes in scalar code.
 */
#ifndef CSUM_X86_AVX2_SUM_H
#define CSUM_X86_AVX2_SUM_H

#include <immintrin.h>

#include "csum_internal.h"

enum { AVX2_STEPS_PER_FLUSH = 16384 };

struct avx2_lanes {
    __m256i all, high;
};

static inline void avx2_add_vector(struct avx2_lanes *l, __m256i v)
{
    l->all = _mm256_add_epi32(l->all, v);
    l->high = _mm256_add_epi32(l->high, _mm256_srli_epi32(v, 16));
}

static inline __m256i avx2_widen_u32(__m256i a)
{
    const __m256i low32 = _mm256_set1_epi64x(0xffffffff);
    return _mm256_add_epi64(_mm256_and_si256(a, low32), _mm256_srli_epi64(a, 32));
}

static inline __m256i avx2_reconstruct(struct avx2_lanes l)
{
    __m256i low = _mm256_sub_epi32(l.all, _mm256_slli_epi32(l.high, 16));
    return _mm256_add_epi64(avx2_widen_u32(low), avx2_widen_u32(l.high));
}

/* The 32 bytes at src + i, also stored at dst + i unless `store` is CSUM_STORE_NONE (a
 * streaming store needs dst + i 32-byte aligned). */
CSUM_ALWAYS_INLINE __m256i avx2_move(unsigned char *dst, const unsigned char *src, size_t i,
                                     enum csum_store store)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(src + i));
    if (store == CSUM_STORE_TEMPORAL)
        _mm256_storeu_si256((__m256i *)(dst + i), v);
    else if (store == CSUM_STORE_STREAM)
        _mm256_stream_si256((__m256i *)(dst + i), v);
    return v;
}

CSUM_ALWAYS_INLINE csum_wsum avx2_sum(unsigned char *dst, const unsigned char *p, size_t len,
                                      csum_wsum sum, enum csum_store store)
{
    const struct avx2_lanes zero = { _mm256_setzero_si256(), _mm256_setzero_si256() };
    __m256i wide = _mm256_setzero_si256(); /* 4 64-bit lanes */
    size_t i = 0;

    while (len - i >= 128) {
        size_t steps = (len - i) / 128;
        if (steps > AVX2_STEPS_PER_FLUSH)
            steps = AVX2_STEPS_PER_FLUSH;
        struct avx2_lanes l0 = zero, l1 = zero, l2 = zero, l3 = zero;
        for (size_t k = 0; k < steps; k++, i += 128) {
            avx2_add_vector(&l0, avx2_move(dst, p, i + 0, store));
            avx2_add_vector(&l1, avx2_move(dst, p, i + 32, store));
            avx2_add_vector(&l2, avx2_move(dst, p, i + 64, store));
            avx2_add_vector(&l3, avx2_move(dst, p, i + 96, store));
        }
        wide = _mm256_add_epi64(wide, _mm256_add_epi64(_mm256_add_epi64(avx2_reconstruct(l0), avx2_reconstruct(l1)),
                                                       _mm256_add_epi64(avx2_reconstruct(l2), avx2_reconstruct(l3))));
    }
    struct avx2_lanes r0 = zero, r1 = zero;
    if (len & 64) {
        avx2_add_vector(&r0, avx2_move(dst, p, i + 0, store));
        avx2_add_vector(&r1, avx2_move(dst, p, i + 32, store));
        i += 64;
    }
    if (len & 32) {
        avx2_add_vector(&r0, avx2_move(dst, p, i, store));
        i += 32;
    }
    if (len & 28) { /* whole 32-bit elements of the last 1..31 bytes */
        const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)((len & 31) / 4)), index);
        __m256i v = _mm256_maskload_epi32((const int *)(p + i), mask);
        if (store != CSUM_STORE_NONE)
            _mm256_maskstore_epi32((int *)(dst + i), mask, v);
        avx2_add_vector(&r1, v);
        i += len & 28;
    }
    wide = _mm256_add_epi64(wide, _mm256_add_epi64(avx2_reconstruct(r0), avx2_reconstruct(r1)));

    __m128i w = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    uint64_t total = (uint64_t)_mm_cvtsi128_si64(w) + (uint64_t)_mm_extract_epi64(w, 1);
    total = csum_add64(total, csum_tail_copy_sum7(csum_dst_at(dst, i), p + i, len & 3));
    return csum_fold64(csum_add64(total, sum));
}

#endif /* CSUM_X86_AVX2_SUM_H */
