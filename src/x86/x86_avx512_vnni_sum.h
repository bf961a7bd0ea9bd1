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
 * are added together in 32-bit lanes before they are widened, so fewer than 2^31 / 2^16 =
 * 32768 vectors may go into one loop. A buffer of more than 16376 vectors (about 1 MiB) is
 * taken in pieces of 16376 vectors (avx512_vnni_sum_long), the last one up to that size, each
 * reduced through 64-bit lanes to its exact sum (below 2^36); those sums are added with
 * end-around carry, which is right for any size_t length. Up to 1024 vectors (64 KiB) every
 * partial sum of the 16 lanes stays within 1024 * 16 * 2^16 = 2^30: the final reduction can
 * then stay in 32-bit lanes. A buffer summed from its 64-byte boundary
 * (avx512_vnni_sum_from_boundary) has one vector more, its head (summed on its own above
 * 1 MiB): at most 16377 in one loop, and 1025 up to 64 KiB, whose partial sums stay within
 * 1025 * 16 * 2^16 = 2^30 + 2^20: a little over 2^30, still far inside int32.
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

/* 16376 vectors, a head vector more at most: far below the 32768 of the overflow bound, and a
 * whole number of steps both when summing (512 bytes) and when copying (256). */
#define AVX512_VNNI_PIECE_BYTES ((size_t)16376 * 64)
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

/* The loop, for at most AVX512_VNNI_PIECE_BYTES (longer buffers: avx512_vnni_sum_long, which
 * calls it on pieces of that size): the exact sum of the words, a non-negative integer. With
 * has_head, `head` is one more vector, summed with the buffer (the bounds above allow for one
 * more). With lanes32 (buffers of at most AVX512_VNNI_SHORT_REDUCE_BYTES, head included) the
 * accumulators are reduced in 32-bit lanes, else widened to 64 bits first. */
CSUM_ALWAYS_INLINE uint64_t avx512_vnni_exact(unsigned char *dst, const unsigned char *p,
                                              size_t len, enum csum_store store, int has_head,
                                              __m512i head, int lanes32)
{
    const size_t unroll = store == CSUM_STORE_NONE ? 8 : 4, step = 64 * unroll;
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

    /* Buffers of a step or more start the accumulators with their first step, not from zero:
     * from 512 bytes on the sum takes 0.3-1.2 ticks less (Zen 5 VM, throughput mode; the copy
     * is unchanged within noise). Below a step only the rest code runs. */
    if (len >= step) {
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
    /* Every word that went through the flip; counted here, not before the loop, where it
     * would keep a register (and GCC then saves one on the stack). */
    const uint64_t words = ((len + 63) / 64 + (has_head ? 1 : 0)) * 32;
    /* The exact sum of the unsigned words is non-negative and far below 2^63. */
    if (lanes32) {
        /* No partial sum of the lanes leaves int32 (the bound above): add the accumulators
         * and reduce in 32-bit lanes. About a dozen instructions fewer than widening to 64
         * bits first: a copy of 1500 bytes went from 1.18 to 1.08 times memcpy in the lab's
         * copy table (Zen 5 VM, 2026-11-26, when that table's memcpy was slowed by 4K
         * aliasing; what the copy still pays is its two vector instructions per 64 bytes:
         * docs/METHOD.md, "Registers saved on the stack"). */
        __m512i s = _mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)),
                                     _mm512_add_epi32(_mm512_add_epi32(a4, a5), _mm512_add_epi32(a6, a7)));
        return (uint64_t)((int64_t)avx512_reduce_add_s32(s) + (int64_t)(words * 32768u));
    }
    return (uint64_t)(_mm512_reduce_add_epi64(sum8_wide(a0, a1, a2, a3, a4, a5, a6, a7)) +
                      (int64_t)(words * 32768u));
}

/* The seed and the fold to 32 bits. Both folds give the same value (the end-around-carry sum of
 * the total's halves and the seed), so the result does not depend on which one runs: the
 * add/adc chain for the short buffers (lanes32), where it is the shorter code, else the
 * portable one. */
CSUM_ALWAYS_INLINE csum_wsum avx512_vnni_finish(uint64_t total, csum_wsum sum, int lanes32)
{
    if (__builtin_expect(lanes32, 1))
        return x86_fold64_add(total, sum);
    return csum_fold64(csum_add64(total, sum));
}

/* The sum of the bytes from p + i to p + len (stored from dst + i), in whole pieces of
 * AVX512_VNNI_PIECE_BYTES until at most that many are left, then the rest (the lanes' bound);
 * `store` is a constant here, so each mode gets its own loop. */
CSUM_ALWAYS_INLINE uint64_t avx512_vnni_pieces(unsigned char *dst, const unsigned char *p,
                                               size_t i, size_t len, enum csum_store store)
{
    const __m512i none = _mm512_setzero_si512();
    uint64_t total = 0;
    for (; len - i > AVX512_VNNI_PIECE_BYTES; i += AVX512_VNNI_PIECE_BYTES)
        total = csum_add64(total, avx512_vnni_exact(csum_dst_at(dst, i), p + i,
                                                    AVX512_VNNI_PIECE_BYTES, store, 0, none, 0));
    return csum_add64(total, avx512_vnni_exact(csum_dst_at(dst, i), p + i, len - i, store, 0,
                                               none, 0));
}

/*
 * Buffers longer than AVX512_VNNI_PIECE_BYTES, out of line: a head (from_boundary) on its own,
 * then pieces, each reduced to its exact sum, the sums added with end-around carry (plain
 * 64-bit adds would wrap from 2^49 bytes of 0xff on, which a 57-bit address space can hold).
 * Out of line so that the common lengths' code keeps everything in call-clobbered registers:
 * with this loop inline GCC 12 saved two (sum) to four (copy) registers on the stack at every
 * call (stores that a copy's own loads can then wait on: 4K aliasing, docs/METHOD.md), and a
 * copy of 1.5-9 KiB took 1-3 TSC ticks longer (Zen 5 VM). The streaming stores are fenced
 * here, once after the last piece (the caller fences again): every function that streams has
 * its own sfence, which tests/isa_test.py checks.
 */
__attribute__((noinline, cold)) static csum_wsum avx512_vnni_sum_long(
    unsigned char *dst, const unsigned char *p, size_t len, csum_wsum sum, enum csum_store store,
    int from_boundary)
{
    uint64_t total = 0;
    size_t i = 0;
    if (from_boundary) {
        const __m512i head = avx512_move_head(dst, p, store, &i);
        total = avx512_vnni_exact(NULL, p, 0, CSUM_STORE_NONE, 1, head, 1);
    }
    if (store == CSUM_STORE_TEMPORAL) {
        total = csum_add64(total, avx512_vnni_pieces(dst, p, i, len, CSUM_STORE_TEMPORAL));
    } else if (store == CSUM_STORE_NONE) {
        total = csum_add64(total, avx512_vnni_pieces(NULL, p, i, len, CSUM_STORE_NONE));
    } else {
        total = csum_add64(total, avx512_vnni_pieces(dst, p, i, len, CSUM_STORE_STREAM));
        _mm_sfence();
    }
    return avx512_vnni_finish(total, sum, 0);
}

/* The whole buffer; with from_boundary, the bytes up to dst's (a copy's) or p's 64-byte
 * boundary as one head vector, then the rest from the boundary (avx512_vnni_sum_from_boundary). */
CSUM_ALWAYS_INLINE csum_wsum avx512_vnni_sum_with(unsigned char *dst, const unsigned char *p,
                                                  size_t len, csum_wsum sum, enum csum_store store,
                                                  int from_boundary)
{
    if (__builtin_expect(len > AVX512_VNNI_PIECE_BYTES, 0))
        return avx512_vnni_sum_long(dst, p, len, sum, store, from_boundary);
    const int lanes32 = len <= AVX512_VNNI_SHORT_REDUCE_BYTES;
    if (!from_boundary)
        return avx512_vnni_finish(
            avx512_vnni_exact(dst, p, len, store, 0, _mm512_setzero_si512(), lanes32), sum,
            lanes32);
    size_t head_len;
    const __m512i head = avx512_move_head(dst, p, store, &head_len);
    return avx512_vnni_finish(avx512_vnni_exact(csum_dst_at(dst, head_len), p + head_len,
                                                len - head_len, store, 1, head, lanes32),
                              sum, lanes32);
}

CSUM_ALWAYS_INLINE csum_wsum avx512_vnni_sum(unsigned char *dst, const unsigned char *p,
                                             size_t len, csum_wsum sum, enum csum_store store)
{
    return avx512_vnni_sum_with(dst, p, len, sum, store, 0);
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
    return avx512_vnni_sum_with(dst, p, len, sum, store, 1);
}

#endif /* CSUM_X86_AVX512_VNNI_SUM_H */
