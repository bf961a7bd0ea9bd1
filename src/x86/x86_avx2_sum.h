/*
 * The avx2 summing loop, shared by csum_partial's avx2 row and the AVX2 copy+checksum rows
 * (temporal and streaming stores). Include only inside the avx2 target region (src/isa.h).
 *
 * The algorithm and its lane-overflow bound are x86_lanes.h's, here on 256-bit vectors.
 *
 * Never reads (or writes) outside the buffers, on any x86 implementation: the last 1..31 bytes
 * are moved by in-bounds loads and stores only, 16 bytes (one xmm), 8 bytes, then 4/2/1. Not
 * vpmaskmovd: Intel documents that its masked-out elements never fault, but AMD's manual
 * leaves it implementation-dependent and QEMU faults on them, so a masked tail reaching into an
 * unmapped page is not safe everywhere.
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

/* The last 1..31 bytes, in bounds: 16 bytes as a vector (upper half zero), then 8 bytes and the
 * 0..7-byte pieces in scalar code (returned). Each piece is stored as it is loaded when copying;
 * streaming or not, the tail is a normal store. */
CSUM_ALWAYS_INLINE uint64_t lanes_tail(struct lanes *l, unsigned char *dst, const unsigned char *p,
                                       size_t i, size_t n, enum csum_store store)
{
    if (n & 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        if (store != CSUM_STORE_NONE)
            _mm_storeu_si128((__m128i *)(void *)(dst + i), v);
        lanes_add(l, _mm256_zextsi128_si256(v));
        i += 16;
    }
    uint64_t rest = 0;
    if (n & 8) {
        rest = csum_load64(p + i);
        if (store != CSUM_STORE_NONE)
            csum_store64(dst + i, rest);
        i += 8;
    }
    return csum_add64(rest, csum_tail_copy_sum7(csum_dst_at(dst, i), p + i, n & 7));
}

static inline uint64_t lanes_reduce(__m256i wide)
{
    __m128i w = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    return (uint64_t)_mm_cvtsi128_si64(w) + (uint64_t)_mm_extract_epi64(w, 1);
}

#include "x86_lanes.h"

#endif /* CSUM_X86_AVX2_SUM_H */
