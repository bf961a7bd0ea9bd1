/*
 * The avx2 summing loop, shared by csum_partial's avx2 row and the AVX2 copy+checksum rows
 * (temporal and streaming stores). Include only from files compiled with AVX2.
 *
 * The algorithm and its lane-overflow bound are x86_lanes.h's, here on 256-bit vectors.
 *
 * Never reads (or writes) outside the buffers: AVX2 has no byte-masked load, so the last 1..31
 * bytes are moved as whole 32-bit elements with vpmaskmovd (masked-out elements are not
 * accessed and cannot fault, for loads and stores alike) plus at most three bytes in scalar code.
 */
#ifndef CSUM_X86_AVX2_SUM_H
#define CSUM_X86_AVX2_SUM_H

#include <immintrin.h>

#include "csum_internal.h"

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

#define LANES_VEC __m256i
#define LANES_BYTES 32
#define LANES_FUNCTION avx2_sum
#define LANES_MOVE avx2_move
#define V_ZERO() _mm256_setzero_si256()
#define V_ADD32(a, b) _mm256_add_epi32((a), (b))
#define V_SUB32(a, b) _mm256_sub_epi32((a), (b))
#define V_SRLI32(a, n) _mm256_srli_epi32((a), (n))
#define V_SLLI32(a, n) _mm256_slli_epi32((a), (n))
#define V_ADD64(a, b) _mm256_add_epi64((a), (b))
#define V_AND(a, b) _mm256_and_si256((a), (b))
#define V_SRLI64(a, n) _mm256_srli_epi64((a), (n))
#define V_SET1_64(x) _mm256_set1_epi64x(x)
#include "x86_lanes.h"

/* The last 1..31 bytes: whole 32-bit elements with vpmaskmovd (load and, when copying, store),
 * then at most three bytes in scalar code. */
CSUM_ALWAYS_INLINE uint64_t lanes_tail(struct lanes *l, unsigned char *dst, const unsigned char *p,
                                       size_t i, size_t n, enum csum_store store)
{
    if (n >= 4) {
        const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n / 4)), index);
        __m256i v = _mm256_maskload_epi32((const int *)(const void *)(p + i), mask);
        if (store != CSUM_STORE_NONE)
            _mm256_maskstore_epi32((int *)(void *)(dst + i), mask, v);
        lanes_add(l, v);
    }
    size_t whole = n & ~(size_t)3;
    return csum_tail_copy_sum7(csum_dst_at(dst, i + whole), p + i + whole, n & 3);
}

static inline uint64_t lanes_reduce(__m256i wide)
{
    __m128i w = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    return (uint64_t)_mm_cvtsi128_si64(w) + (uint64_t)_mm_extract_epi64(w, 1);
}

#include "x86_lanes.h"

#endif /* CSUM_X86_AVX2_SUM_H */
