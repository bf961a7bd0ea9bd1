/*
 * The avx512-vnni summing loop, shared by csum_partial's avx512-vnni row and the AVX-512 VNNI
 * copy+checksum rows (temporal and streaming stores). Include only inside the
 * avx512_vnni target region (src/isa.h).
 *
 * Algorithm. vpdpwssd multiplies pairs of *signed* 16-bit words and adds both products to a
 * 32-bit lane. Checksum words are unsigned, so each word is first shifted into signed range
 * by flipping its top bit (u ^ 0x8000 read as signed is exactly u - 32768), then dotted with a
 * vector of ones: one xor and one vpdpwssd per 64 bytes, no carries to track. The bias is
 * added back at the end: sum(u) = sum(u - 32768) + 32768 * words. The idea of flipping the sign
 * bit to use a signed multiply-add for unsigned data is folklore from SIMD checksum and
 * pixel code ("Sign-flipped dot product" in docs/SOURCES.md); the code here is ours.
 *
 * Lane overflow bound. One vpdpwssd moves a lane by at most 2 * 32768 = 2^16. All accumulators
 * are added together in 32-bit lanes at a flush, so fewer than 2^31 / 2^16 = 32768 vectors may
 * go in between two flushes. A buffer of more than 16376 vectors (about 1 MiB) is taken in
 * chunks of 16376 vectors, each flushed, until at most 16376 are left; those (tail included)
 * stay in the accumulators until the final flush. A flush widens the 32-bit lanes to 64 bits;
 * 64-bit lanes cannot overflow for any size_t length. Up to 1024 vectors (64 KiB) no flush
 * happens, and every partial sum of the 16 lanes stays within 1024 * 16 * 2^16 = 2^30: the
 * final reduction can then stay in 32-bit lanes. A buffer summed from its 64-byte boundary
 * (avx512_vnni_sum_from_boundary) has one vector more, its head: 16377 between flushes, and
 * 1025 up to 64 KiB, whose partial sums stay within 1025 * 16 * 2^16 = 2^30 + 2^20: a little
 * over 2^30, still far inside int32.
 *
 * Unrolling. Summing alone is bound by two loads per cycle and needs eight dot products in
 * flight to cover their latency: eight accumulators, 512-byte steps. Copying is bound by one
 * store per cycle, and there four accumulators over 256-byte steps measured faster on the
 * Zen 5 VM (a cached 16 KiB copy: 159 instead of 214 TSC ticks).
 *
 * Never reads (or writes) outside the buffers: the last partial vector is a masked load (and
 * masked store); masked-out bytes are neither accessed nor able to fault. They load as zero
 * words, which the flip turns into -32768 like any other word: every vector, the partial one
 * included, counts 32 words in the bias.
 *
 * Why the dot product is inline asm: GCC 12 keeps each vpdpwssd accumulator in two registers and
 * copies it back and forth every iteration (16 extra moves per 512 bytes); the asm ties the
 * accumulator to its register. Measured on the Zen 5 VM: csum_partial at 4 KiB ~33 -> ~24 TSC
 * ticks (throughput), equal to what clang makes of the intrinsic.
 */
#ifndef CSUM_X86_AVX512_VNNI_SUM_H
#define CSUM_X86_AVX512_VNNI_SUM_H

#include "x86_adc.h"
#include "x86_avx512_common.h"

/* 16376 vectors (+ 8 < 32768, see the overflow bound): a whole number of steps both when
 * summing (512 bytes) and when copying (256). */
#define AVX512_VNNI_FLUSH_BYTES ((size_t)16376 * 64)
#define AVX512_VNNI_SHORT_REDUCE_BYTES ((size_t)1024 * 64)

static inline __m512i dot_flipped(__m512i acc, __m512i v)
{
    const __m512i flip = _mm512_set1_epi16((short)0x8000);
    const __m512i ones = _mm512_set1_epi16(1);
    __m512i flipped = _mm512_xor_si512(v, flip);
    __asm__("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(flipped), "v"(ones)); /* acc += dot */
    return acc;
}

/* The same dot product with nothing to add to (vpmaddwd): the first vector of an accumulator. */
static inline __m512i dot_flipped_first(__m512i v)
{
    return _mm512_madd_epi16(_mm512_xor_si512(v, _mm512_set1_epi16((short)0x8000)),
                             _mm512_set1_epi16(1));
}

/* Widen the sum of eight accumulators into 8 64-bit lanes. */
static inline __m512i sum8_wide(__m512i a0, __m512i a1, __m512i a2, __m512i a3, __m512i a4,
                                __m512i a5, __m512i a6, __m512i a7)
{
    __m512i s03 = _mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3));
    __m512i s47 = _mm512_add_epi32(_mm512_add_epi32(a4, a5), _mm512_add_epi32(a6, a7));
    return avx512_widen_s32(_mm512_add_epi32(s03, s47));
}

/* The loop. With has_head, `head` is one more vector, summed with the buffer (the bounds above
 * allow for one more), and whole_len the length of both together: it chooses the reduction, so
 * that the same bytes give the same 32-bit result either way. */
CSUM_ALWAYS_INLINE csum_wsum avx512_vnni_sum_with(unsigned char *dst, const unsigned char *p,
                                                  size_t len, csum_wsum sum, enum csum_store store,
                                                  int has_head, __m512i head, size_t whole_len)
{
    const size_t unroll = store == CSUM_STORE_NONE ? 8 : 4, step = 64 * unroll;
    /* every word that goes through the flip */
    const uint64_t words = ((len + 63) / 64 + (has_head ? 1 : 0)) * 32;
    __m512i wide = _mm512_setzero_si512();       /* 8 signed 64-bit lanes */
    /* The head first, so that its load and dot product are done while the loop runs. */
    __m512i head_dot = has_head ? dot_flipped_first(head) : _mm512_setzero_si512();
    __asm__("" : "+v"(head_dot));
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,
            a7 = a0;
    size_t i = 0;

    /* One step: a vector into each accumulator with DOT: dot_flipped, or START for the first
     * step, which begins each accumulator with its vector (dot_flipped_first). */
#define AVX512_VNNI_STEP(DOT)                                                                  \
    do {                                                                                       \
        a0 = DOT(a0, avx512_move(dst, p, i + 0, store));                                       \
        a1 = DOT(a1, avx512_move(dst, p, i + 64, store));                                      \
        a2 = DOT(a2, avx512_move(dst, p, i + 128, store));                                     \
        a3 = DOT(a3, avx512_move(dst, p, i + 192, store));                                     \
        if (unroll == 8) {                                                                     \
            a4 = DOT(a4, avx512_move(dst, p, i + 256, store));                                 \
            a5 = DOT(a5, avx512_move(dst, p, i + 320, store));                                 \
            a6 = DOT(a6, avx512_move(dst, p, i + 384, store));                                 \
            a7 = DOT(a7, avx512_move(dst, p, i + 448, store));                                 \
        }                                                                                      \
    } while (0)
#define START(acc, v) dot_flipped_first(v)

    /* Above AVX512_VNNI_FLUSH_BYTES: whole chunks of that size, each flushed into `wide`,
     * until at most that much is left, so the lanes never take more than the bound allows.
     * Shorter buffers of a step or more start the accumulators with their first step, not
     * from zero: from 512 bytes on the sum takes 0.3-1.2 ticks less (Zen 5 VM, throughput mode;
     * the copy is unchanged within noise). Below a step only the rest code runs. */
    if (__builtin_expect(len > AVX512_VNNI_FLUSH_BYTES, 0)) {
        do {
            for (const size_t end = i + AVX512_VNNI_FLUSH_BYTES; i < end; i += step)
                AVX512_VNNI_STEP(dot_flipped);
            wide = _mm512_add_epi64(wide, sum8_wide(a0, a1, a2, a3, a4, a5, a6, a7));
            a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = _mm512_setzero_si512();
        } while (len - i > AVX512_VNNI_FLUSH_BYTES);
        for (; len - i >= step; i += step)
            AVX512_VNNI_STEP(dot_flipped);
    } else if (len >= step) {
        AVX512_VNNI_STEP(START);
        for (i = step; len - i >= step; i += step)
            AVX512_VNNI_STEP(dot_flipped);
    }
#undef START
#undef AVX512_VNNI_STEP

    /* The rest (less than a step): its whole vectors one per accumulator, then the tail, so
     * no accumulator takes more than one more vector. When copying, a4..a7 are never touched:
     * they stay zero and their adds fold away. (Measured against halving, 256/128/64: faster
     * at 1500 bytes, within noise at 256.) */
    const size_t rest = len - i;
    if (rest >= 64)
        a0 = dot_flipped(a0, avx512_move(dst, p, i, store));
    if (rest >= 128)
        a1 = dot_flipped(a1, avx512_move(dst, p, i + 64, store));
    if (rest >= 192)
        a2 = dot_flipped(a2, avx512_move(dst, p, i + 128, store));
    if (unroll == 8) {
        if (rest >= 256)
            a3 = dot_flipped(a3, avx512_move(dst, p, i + 192, store));
        if (rest >= 320)
            a4 = dot_flipped(a4, avx512_move(dst, p, i + 256, store));
        if (rest >= 384)
            a5 = dot_flipped(a5, avx512_move(dst, p, i + 320, store));
        if (rest >= 448)
            a6 = dot_flipped(a6, avx512_move(dst, p, i + 384, store));
    }
    i += rest & ~(size_t)63;
    if (rest & 63) {
        __m512i tail = avx512_move_tail(dst, p, i, rest & 63, store);
        if (unroll == 8)
            a7 = dot_flipped(a7, tail);
        else
            a3 = dot_flipped(a3, tail);
    }
    if (has_head)
        a0 = _mm512_add_epi32(a0, head_dot);
    /* The exact sum of the unsigned words is non-negative and far below 2^63. */
    if (__builtin_expect(whole_len <= AVX512_VNNI_SHORT_REDUCE_BYTES, 1)) {
        /* No flush happened and no partial sum of the lanes leaves int32 (the bound above):
         * add the accumulators and reduce in 32-bit lanes, then fold with the seed in one
         * add/adc chain. About a dozen instructions fewer than widening to 64 bits first,
         * which is most of what a copy of 1500 bytes costs over memcpy (Zen 5 VM, the lab's
         * copy table: 1.18 -> 1.08 times memcpy). */
        __m512i s = _mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)),
                                     _mm512_add_epi32(_mm512_add_epi32(a4, a5), _mm512_add_epi32(a6, a7)));
        int64_t total = (int64_t)avx512_reduce_add_s32(s) + (int64_t)(words * 32768u);
        return x86_fold64_add((uint64_t)total, sum);
    }
    wide = _mm512_add_epi64(wide, sum8_wide(a0, a1, a2, a3, a4, a5, a6, a7));
    uint64_t total = (uint64_t)(_mm512_reduce_add_epi64(wide) + (int64_t)(words * 32768u));
    return csum_fold64(csum_add64(total, sum));
}

CSUM_ALWAYS_INLINE csum_wsum avx512_vnni_sum(unsigned char *dst, const unsigned char *p,
                                             size_t len, csum_wsum sum, enum csum_store store)
{
    return avx512_vnni_sum_with(dst, p, len, sum, store, 0, _mm512_setzero_si512(), len);
}

/*
 * A buffer (a copy's destination) at an even address off a 64-byte boundary, longer than the
 * bytes up to it: those bytes as one zero-padded (masked) move, the rest from the boundary on,
 * so every load of the loop (every store of a copy) is aligned. An unaligned 64-byte access
 * touches two cache lines: on Zen 4 a 16 KiB buffer at offset 2 took 1.5 times as long to sum
 * as an aligned one, and a 4 KiB copy to offset 14 1.2 times as long (docs/METHOD.md). The word
 * pairs and the exact sum are those of the unaligned loop, and so is the result. An odd address
 * would pair the loop's bytes the other way and give another (congruent) 32-bit result, so it
 * keeps the unaligned loop.
 */
CSUM_ALWAYS_INLINE csum_wsum avx512_vnni_sum_from_boundary(unsigned char *dst,
                                                           const unsigned char *p, size_t len,
                                                           csum_wsum sum, enum csum_store store)
{
    size_t head_len;
    const __m512i head = avx512_move_head(dst, p, store, &head_len);
    return avx512_vnni_sum_with(csum_dst_at(dst, head_len), p + head_len, len - head_len, sum,
                                store, 1, head, len);
}

#endif /* CSUM_X86_AVX512_VNNI_SUM_H */
