/*
 * Helpers shared by the AVX-512 implementations. Include only inside the target
 * region of an AVX-512 kernel (src/isa.h).
 */
#ifndef CSUM_X86_AVX512_COMMON_H
#define CSUM_X86_AVX512_COMMON_H

#include <immintrin.h>
#include <stddef.h>

#include "csum_internal.h"

/* The mask of the first `len` (0..63) bytes of a vector. */
static inline __mmask64 avx512_tail_mask(size_t len)
{
    return _bzhi_u64(~0ull, (unsigned)len);
}

/*
 * The last 1..63 bytes as a zero-padded vector. A masked load neither reads nor faults on the
 * masked-out bytes, so this is safe even when the full 64 bytes would cross into an unmapped
 * page. A zero high byte pads an odd last byte exactly like RFC 1071 (little-endian x86).
 */
static inline __m512i avx512_load_tail(const unsigned char *p, size_t len)
{
    return _mm512_maskz_loadu_epi8(avx512_tail_mask(len), p);
}

/*
 * The 64 bytes at src + i, also stored at dst + i unless `store` is CSUM_STORE_NONE. A
 * streaming store (vmovntdq) needs dst + i 64-byte aligned. Offsets rather than pointers, so
 * the sum-only kernels never compute an address from their NULL dst.
 */
CSUM_ALWAYS_INLINE __m512i avx512_move(unsigned char *dst, const unsigned char *src, size_t i,
                                       enum csum_store store)
{
    __m512i v = _mm512_loadu_si512(src + i);
    if (store == CSUM_STORE_TEMPORAL)
        _mm512_storeu_si512(dst + i, v);
    else if (store == CSUM_STORE_STREAM)
        _mm512_stream_si512((void *)(dst + i), v);
    return v;
}

/* The last 1..63 bytes at src + i, zero-padded, and stored at dst + i with the same mask: a
 * masked store writes nothing, and cannot fault, outside the mask. There is no masked streaming
 * store, so the tail is always a normal store. */
CSUM_ALWAYS_INLINE __m512i avx512_move_tail(unsigned char *dst, const unsigned char *src, size_t i,
                                            size_t len, enum csum_store store)
{
    __m512i v = avx512_load_tail(src + i, len);
    if (store != CSUM_STORE_NONE)
        _mm512_mask_storeu_epi8(dst + i, avx512_tail_mask(len), v);
    return v;
}

/*
 * Where a buffer is read from its first 64-byte boundary (the *_from_boundary paths): the
 * source's when summing, the destination's when copying (a store that straddles a cache line
 * costs more than such a load: docs/METHOD.md, "Buffers off a vector boundary"). The bytes before
 * it are one masked move, `head`, and `*head_len` of them; the caller's loop starts after them.
 */
CSUM_ALWAYS_INLINE __m512i avx512_move_head(unsigned char *dst, const unsigned char *src,
                                            enum csum_store store, size_t *head_len)
{
    const uintptr_t at = (uintptr_t)(store == CSUM_STORE_NONE ? (const void *)src : dst);
    *head_len = 64 - (at & 63);
    return avx512_move_tail(dst, src, 0, *head_len, store);
}

/*
 * Whether a copy goes from the destination's first 64-byte boundary: dst at an even address off
 * one (an odd head would pair the loop's bytes the other way), and at least 1280 bytes when src
 * is as far off its own boundary (all loads aligned then too), or 4 KiB when it is not (only
 * the stores are; shorter copies measured up to 8 % slower). Both AVX-512 rows, measured alike
 * on Zen 4 (docs/METHOD.md, "Buffers off a vector boundary"). The length is tested first,
 * expected short: shorter copies pay one compare that falls through to the loop.
 */
#define AVX512_COPY_SAME_ALIGN_MIN 1280
#define AVX512_COPY_ALIGN_MIN 4096

CSUM_ALWAYS_INLINE int avx512_copy_from_boundary_wanted(const void *dst, const void *src, size_t len)
{
    const uintptr_t d = (uintptr_t)dst;
    return __builtin_expect(len >= AVX512_COPY_SAME_ALIGN_MIN, 0) && (d & 63) && !(d & 1) &&
           (len >= AVX512_COPY_ALIGN_MIN || !(((uintptr_t)src ^ d) & 63));
}

/* The sum of the 16 32-bit lanes modulo 2^32 (the adds wrap), for callers that know it fits
 * in 32 bits, signed or unsigned: halve the vector three times, then swap the last pairs, with
 * a single move to a general register at the end. */
static inline int32_t avx512_reduce_add_s32(__m512i a)
{
    __m256i y = _mm256_add_epi32(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64(a, 1));
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
    return _mm_cvtsi128_si32(x);
}

/* Sign-extend the 16 32-bit lanes to 64 bits and add them pairwise: 8 64-bit lanes. */
static inline __m512i avx512_widen_s32(__m512i a)
{
    return _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(a)),
                            _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(a, 1)));
}

#endif /* CSUM_X86_AVX512_COMMON_H */
