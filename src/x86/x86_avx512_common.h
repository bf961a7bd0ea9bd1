/*
 * Helpers shared by the AVX-512 implementations. Include only from files compiled with
 * AVX-512 (F, BW) and BMI2 enabled.
 */
#ifndef CSUM_X86_AVX512_COMMON_H
#define CSUM_X86_AVX512_COMMON_H

#include <immintrin.h>
#include <stddef.h>

/*
 * The last 1..63 bytes as a zero-padded vector. A masked load neither reads nor faults on the
 * masked-out bytes, so this is safe even when the full 64 bytes would cross into an unmapped
 * page. A zero high byte pads an odd last byte exactly like RFC 1071 (little-endian x86).
 */
static inline __m512i avx512_load_tail(const unsigned char *p, size_t len)
{
    return _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)len), p);
}

/* Sign-extend the 16 32-bit lanes to 64 bits and add them pairwise: 8 64-bit lanes. */
static inline __m512i avx512_widen_s32(__m512i a)
{
    return _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(a)),
                            _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(a, 1)));
}

#endif /* CSUM_X86_AVX512_COMMON_H */
