/*
 * The avx-vnni summing loop, shared by csum_partial's avx-vnni row and its copy+checksum rows
 * (temporal and streaming stores). Include only inside the avx_vnni target region (src/isa.h).
 *
 * For CPUs with AVX-VNNI but without AVX-512: Intel's client cores from Alder Lake (2021) on,
 * its E-core servers (Sierra Forest, 2024), AMD Zen 5. AVX-VNNI is the VEX encoding of
 * vpdpwssd on 32-byte vectors, the instruction of the avx512-vnni row: each 16-bit word is
 * shifted into signed range by flipping its top bit (u ^ 0x8000 read as signed is u - 32768),
 * dotted with a vector of ones, and the bias (32768 per word) is added back at the end. Two
 * vector ops per 32 bytes (xor, dot product) where AVX2 alone needs three (add, shift or
 * shuffle, add: x86_avx2_sum.h), so the limit moves from three ALU ops to the loads and the
 * dot-product pipes (docs/METHOD.md, "The AVX2 bound").
 *
 * Overflow bound. One vpdpwssd moves a 32-bit lane by at most 2 * 32768 = 2^16. The
 * accumulators are added lane by lane in 32 bits and then widened, so one chunk may feed at
 * most 32767 vectors into them together: chunks are AVX_VNNI_CHUNK_BYTES (32752 vectors), the
 * last one up to two vectors longer (so that it is never shorter than the 32 bytes its tail
 * needs), and the tail vector (below) counts as one of them: at most 32755. A chunk's exact sum
 * is below 32755 * 16 * 65535 < 2^35.
 *
 * Never reads (or writes) outside the buffers: the pieces below 32 bytes and the tail are
 * x86_avx2_sum.h's (an in-bounds overlapping vector with the overlap masked off, an odd last
 * byte on its own), since AVX2 has no masked load that is safe on every x86 implementation. The
 * masked-off bytes are zero words, which the flip turns into -32768 like any other word: every
 * vector, the tail included, counts 16 words in the bias.
 *
 * The dot product is inline asm, as in the avx512-vnni row, so that each accumulator stays in
 * its register (x86_avx512_vnni_sum.h says what GCC 12 does otherwise); {vex} selects the AVX-VNNI
 * encoding, which is all this row's gate checks (the EVEX form needs AVX-512 VNNI and VL).
 */
#ifndef CSUM_X86_AVX_VNNI_SUM_H
#define CSUM_X86_AVX_VNNI_SUM_H

#include "x86_avx2_sum.h"

/* 32752 vectors (< 32768, see the bound): a whole number of 256-byte steps, a multiple of 64
 * bytes for the streaming stores, and the size of the avx512-vnni row's pieces, so the tests'
 * lane edges cover both. */
#define AVX_VNNI_CHUNK_BYTES ((size_t)32752 * 32)

/* acc + the words of v, each less 32768, in pairs per 32-bit lane. */
static inline __m256i avx_vnni_dot(__m256i acc, __m256i v)
{
    const __m256i flip = _mm256_set1_epi16((short)0x8000);
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i flipped = _mm256_xor_si256(v, flip);
    __asm__("%{vex%} vpdpwssd %2, %1, %0" : "+x"(acc) : "x"(flipped), "x"(ones));
    return acc;
}

/* The same with nothing to add to (vpmaddwd): the first vector of an accumulator. */
static inline __m256i avx_vnni_dot_first(__m256i v)
{
    return _mm256_madd_epi16(_mm256_xor_si256(v, _mm256_set1_epi16((short)0x8000)),
                             _mm256_set1_epi16(1));
}

/* At least 32 bytes, at most AVX_VNNI_CHUNK_BYTES + 64: the sum of the 16-bit words, unfolded. */
CSUM_ALWAYS_INLINE uint64_t avx_vnni_chunk(unsigned char *dst, const unsigned char *p, size_t len,
                                           enum csum_store store)
{
    /* Eight dot products in flight cover their latency at two a cycle. Copies too: with four
     * accumulators (which suit the avx512-vnni copy, bound by its stores) a copy of 1500 bytes
     * was bound by that latency, 1.78 times memcpy against 1.37 with eight (Zen 5 VM). */
    const __m256i zero = _mm256_setzero_si256();
    __m256i a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero, a7 = zero;
    size_t i = 0;
    /* A first whole step starts the accumulators instead of adding to zero (as in
     * x86_avx512_vnni_sum.h). */
#define AVX_VNNI_STEP(DOT)                                                                     \
    do {                                                                                       \
        a0 = DOT(a0, avx2_move(dst, p, i + 0, store));                                         \
        a1 = DOT(a1, avx2_move(dst, p, i + 32, store));                                        \
        a2 = DOT(a2, avx2_move(dst, p, i + 64, store));                                        \
        a3 = DOT(a3, avx2_move(dst, p, i + 96, store));                                        \
        a4 = DOT(a4, avx2_move(dst, p, i + 128, store));                                       \
        a5 = DOT(a5, avx2_move(dst, p, i + 160, store));                                       \
        a6 = DOT(a6, avx2_move(dst, p, i + 192, store));                                       \
        a7 = DOT(a7, avx2_move(dst, p, i + 224, store));                                       \
    } while (0)
#define START(acc, v) avx_vnni_dot_first(v)
    if (len >= 256) {
        AVX_VNNI_STEP(START);
        for (i = 256; len - i >= 256; i += 256)
            AVX_VNNI_STEP(avx_vnni_dot);
    }
#undef START
#undef AVX_VNNI_STEP
    /* The whole vectors left (fewer than eight), one per accumulator, then the tail into the
     * last one, so no accumulator takes more than one more vector. */
    const size_t rest = len - i;
    if (rest >= 32)
        a0 = avx_vnni_dot(a0, avx2_move(dst, p, i, store));
    if (rest >= 64)
        a1 = avx_vnni_dot(a1, avx2_move(dst, p, i + 32, store));
    if (rest >= 96)
        a2 = avx_vnni_dot(a2, avx2_move(dst, p, i + 64, store));
    if (rest >= 128)
        a3 = avx_vnni_dot(a3, avx2_move(dst, p, i + 96, store));
    if (rest >= 160)
        a4 = avx_vnni_dot(a4, avx2_move(dst, p, i + 128, store));
    if (rest >= 192)
        a5 = avx_vnni_dot(a5, avx2_move(dst, p, i + 160, store));
    if (rest >= 224)
        a6 = avx_vnni_dot(a6, avx2_move(dst, p, i + 192, store));
    uint64_t words = (len & ~(size_t)31) / 2; /* 16 per vector that went through the flip */
    if ((len & 31) > 1) {
        a7 = avx_vnni_dot(a7, avx2_move_even_tail(dst, p, len, store));
        words += 16;
    }
    /* Lane by lane in 32 bits (the bound), then widened: the exact sum is non-negative. */
    __m256i s = _mm256_add_epi32(_mm256_add_epi32(_mm256_add_epi32(a0, a1), _mm256_add_epi32(a2, a3)),
                                 _mm256_add_epi32(_mm256_add_epi32(a4, a5), _mm256_add_epi32(a6, a7)));
    __m256i w = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(s)),
                                 _mm256_cvtepi32_epi64(_mm256_extracti128_si256(s, 1)));
    __m128i two = _mm_add_epi64(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
    int64_t total = _mm_cvtsi128_si64(_mm_add_epi64(two, _mm_unpackhi_epi64(two, two)));
    return (uint64_t)(total + (int64_t)(words * 32768u)) + avx2_move_odd_byte(dst, p, len, store);
}

__attribute__((noinline, cold)) static csum_wsum avx_vnni_sum_long(unsigned char *dst,
                                                                   const unsigned char *p,
                                                                   size_t len, csum_wsum sum,
                                                                   enum csum_store store)
{
    return avx2_sum_chunks_any(avx_vnni_chunk, AVX_VNNI_CHUNK_BYTES, AVX_VNNI_CHUNK_BYTES + 64,
                               dst, p, len, sum, store);
}

CSUM_ALWAYS_INLINE csum_wsum avx_vnni_sum(unsigned char *dst, const unsigned char *p, size_t len,
                                          csum_wsum sum, enum csum_store store)
{
    return avx2_sum_chunked(avx_vnni_chunk, avx_vnni_sum_long, AVX_VNNI_CHUNK_BYTES + 64, dst, p,
                            len, sum, store);
}

#endif /* CSUM_X86_AVX_VNNI_SUM_H */
