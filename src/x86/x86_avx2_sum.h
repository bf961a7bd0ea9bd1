/*
 * The avx2 summing loop, shared by csum_partial's avx2 row and the AVX2 copy+checksum rows
 * (temporal and streaming stores). Include only inside the avx2 target region (src/isa.h).
 *
 * Algorithm. Read each 64-bit lane of a vector as v = lo + 2^32 * hi and keep two 64-bit
 * accumulators per lane: A += v (wrapping mod 2^64) and H += hi (exact). The low halves are
 * then recovered exactly, L = A - 2^32 * H (mod 2^64), and L + H is congruent to the lane's
 * 16-bit words modulo 0xffff (2^16 = 1 there). Three simple ops per 32 bytes (add, shift or
 * shuffle, add): the fewest we know with AVX2 alone, which has no unsigned widening add. It is
 * x86_lanes.h's whole-lane/high-word idea on 64-bit lanes, where nothing needs flushing.
 *
 * Where the time goes (docs/METHOD.md, "The AVX2 bound"): those three ops per 32 bytes are the
 * limit on the AVX2 cores we know, 0.75 cycles per 32 bytes with four vector ALU pipes (Zen 3,
 * 4, 5), 1 cycle with three (Golden Cove). Hence: eight accumulators (the adds have 1-cycle
 * latency and issue four a cycle), 256-byte steps, no instruction in the loop beyond the loads,
 * the three ops and the loop's own add/compare/branch, a tail of one overlapping vector and a
 * reduction of 15 ops.
 *
 * Overflow bound. Per lane, T vectors give L, H < T * 2^32, so L + H < T * 2^33 and the four
 * lanes' sum is below T * 2^35. Buffers are summed in chunks of at most 1.5 * 2^33 bytes
 * (T < 1.5 * 2^28): the sum stays below 3 * 2^62, adding a 32-bit seed cannot carry, and no
 * length overflows anything. avx2_sum_from_boundary adds a head vector to a single chunk of at
 * most 2^33 bytes: T <= 2^28 + 2, far inside the bound.
 *
 * Never reads (or writes) outside the buffers, on any x86 implementation. From 32 bytes on,
 * the last 2..30 bytes of the even part come from one 32-byte load that ends at the buffer's
 * last even byte: it overlaps bytes already summed, which a sliding mask clears; a copy stores
 * the whole 32 bytes again, rewriting the overlap with the values it already holds. An odd
 * last byte is added on its own. Below 32 bytes: 16-, 8- and 4/2/1-byte pieces. Not vpmaskmovd:
 * Intel documents that its masked-out elements never fault, but AMD's manual leaves it
 * implementation-dependent and QEMU faults on them, so a masked tail reaching into an unmapped
 * page is not safe everywhere.
 */
#ifndef CSUM_X86_AVX2_SUM_H
#define CSUM_X86_AVX2_SUM_H

#include <immintrin.h>

#include "csum_internal.h"
#include "x86_adc.h" /* x86_fold64_rotate */

/* The 32 bytes at src + i, also stored at dst + i unless `store` is CSUM_STORE_NONE (a
 * streaming store needs dst + i 32-byte aligned). */
CSUM_ALWAYS_INLINE __m256i avx2_move(unsigned char *dst, const unsigned char *src, size_t i,
                                     enum csum_store store)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
    if (store == CSUM_STORE_TEMPORAL)
        _mm256_storeu_si256((__m256i *)(void *)(dst + i), v);
    else if (store == CSUM_STORE_STREAM)
        _mm256_stream_si256((__m256i *)(void *)(dst + i), v);
    return v;
}

/* One vector into an accumulator pair: whole 64-bit lanes (wrapping) and their high halves. The
 * empty asm keeps v in a register: GCC otherwise folds the load into the add and loads the
 * same 32 bytes again for the shift. */
CSUM_ALWAYS_INLINE void avx2_add(__m256i *all, __m256i *high, __m256i v)
{
    __asm__("" : "+x"(v));
    *all = _mm256_add_epi64(*all, v);
    *high = _mm256_add_epi64(*high, _mm256_srli_epi64(v, 32));
}

/*
 * The main loop's 256-byte step, eight vectors. Half of them go into whole-lane accumulators
 * a0..a3 and shifted high halves h0, h1 as in avx2_add; the other half into a0..a3 and g0, g1,
 * which add each lane's high half to both halves of the lane (vpshufd [1,1,3,3]): g = hi *
 * (2^32 + 1) mod 2^64, and since (2^32 + 1) * (1 - 2^32) = 1 - 2^64, the high halves' sum is
 * g - (g << 32) (mod 2^64), exact. Why two kinds: the shift runs on two of the four vector ALU
 * pipes of Zen cores, the shuffle on others (all four on Zen 5), and on Intel cores they use
 * different ports too; a mix keeps every pipe busy. When only summing, the g vectors are read
 * straight from memory by the add and the shuffle (two loads of the same 32 bytes, one
 * instruction fewer): eight vectors are then 28 instructions, so the 24 ALU ops and not the
 * front end set the speed (measured on Zen 5: 6.0 cycles a step, against 6.5 with one load
 * per vector and shifts only). A copy needs each vector in a register for its store.
 *
 * Written as asm because GCC 12 does not keep this loop to its instructions: it holds each
 * accumulator in two registers and copies it back every iteration, spills some to the stack,
 * and folds loads into ops as it likes. Only AVX2 instructions (vmovdqu, vpaddq, vpsrlq,
 * vpshufd, vmovntdq), as the avx2 target region requires.
 */
#define AVX2_SHIFTED_(off, a, h, st)                                                         \
    "vmovdqu " #off "(%[src]), %[t]\n\t" st(off, t)                                          \
    "vpaddq %[t], %[" #a "], %[" #a "]\n\t"                                                  \
    "vpsrlq $32, %[t], %[t]\n\t"                                                             \
    "vpaddq %[t], %[" #h "], %[" #h "]\n\t"
#define AVX2_SHUFFLED_(off, a, g, st)                                                        \
    "vmovdqu " #off "(%[src]), %[u]\n\t" st(off, u)                                          \
    "vpaddq %[u], %[" #a "], %[" #a "]\n\t"                                                  \
    "vpshufd $0xf5, %[u], %[u]\n\t"                                                          \
    "vpaddq %[u], %[" #g "], %[" #g "]\n\t"
#define AVX2_SHUFFLED_FROM_MEMORY_(off, a, g, st)                                            \
    "vpaddq " #off "(%[src]), %[" #a "], %[" #a "]\n\t"                                      \
    "vpshufd $0xf5, " #off "(%[src]), %[u]\n\t"                                              \
    "vpaddq %[u], %[" #g "], %[" #g "]\n\t"
#define AVX2_STORE_NONE_(off, v) ""
#define AVX2_STORE_TEMPORAL_(off, v) "vmovdqu %[" #v "], " #off "(%[dst])\n\t"
#define AVX2_STORE_STREAM_(off, v) "vmovntdq %[" #v "], " #off "(%[dst])\n\t"
#define AVX2_STEP_(shuffled, st)                                                             \
    shuffled(0, a0, g0, st) AVX2_SHIFTED_(32, a1, h0, st)                                    \
    shuffled(64, a2, g1, st) AVX2_SHIFTED_(96, a3, h1, st)                                   \
    shuffled(128, a0, g0, st) AVX2_SHIFTED_(160, a1, h0, st)                                 \
    shuffled(192, a2, g1, st) AVX2_SHIFTED_(224, a3, h1, st)
#define AVX2_ACC_                                                                            \
    [a0] "+x"(a0), [a1] "+x"(a1), [a2] "+x"(a2), [a3] "+x"(a3), [g0] "+x"(g0), [g1] "+x"(g1), \
    [h0] "+x"(h0), [h1] "+x"(h1), [t] "=&x"(t), [u] "=&x"(u)

/* The accumulators + the 256 bytes at s_ + i_ (also stored at d_ + i_ unless st_ is
 * CSUM_STORE_NONE; a streaming store needs d_ + i_ 32-byte aligned). */
#define AVX2_STEP(d_, s_, i_, st_)                                                           \
    do {                                                                                     \
        __m256i t, u;                                                                        \
        typedef unsigned char block_[256];                                                   \
        if ((st_) == CSUM_STORE_NONE)                                                        \
            __asm__(AVX2_STEP_(AVX2_SHUFFLED_FROM_MEMORY_, AVX2_STORE_NONE_)                 \
                    : AVX2_ACC_                                                              \
                    : [src] "r"((s_) + (i_)), "m"(*(const block_ *)((s_) + (i_))));          \
        else if ((st_) == CSUM_STORE_TEMPORAL)                                               \
            __asm__(AVX2_STEP_(AVX2_SHUFFLED_, AVX2_STORE_TEMPORAL_)                         \
                    : AVX2_ACC_, "=m"(*(block_ *)((d_) + (i_)))                              \
                    : [src] "r"((s_) + (i_)), [dst] "r"((d_) + (i_)),                        \
                      "m"(*(const block_ *)((s_) + (i_))));                                  \
        else                                                                                 \
            __asm__(AVX2_STEP_(AVX2_SHUFFLED_, AVX2_STORE_STREAM_)                           \
                    : AVX2_ACC_, "=m"(*(block_ *)((d_) + (i_)))                              \
                    : [src] "r"((s_) + (i_)), [dst] "r"((d_) + (i_)),                        \
                      "m"(*(const block_ *)((s_) + (i_))));                                  \
    } while (0)

/* Sliding masks: the 32 bytes at avx2_byte_mask + n keep the last n (the overlapping tail), those
 * at avx2_byte_mask + 64 - n the first n (the head before a 32-byte boundary). */
static const unsigned char avx2_byte_mask[96] __attribute__((aligned(64))) = {
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
};

/* Of a buffer of at least 32 bytes whose even part does not end on a whole vector
 * ((len & 31) > 1): the last 2..30 bytes of the even part, as the 32 bytes ending at its end (in
 * bounds, since len >= 32, and at an even offset, so words stay words) with the bytes before
 * them cleared. A copy stores all 32: the overlap gets the values it already holds. */
CSUM_ALWAYS_INLINE __m256i avx2_move_even_tail(unsigned char *dst, const unsigned char *p,
                                               size_t len, enum csum_store store)
{
    const size_t even = len & ~(size_t)1;
    const __m256i mask =
        _mm256_loadu_si256((const __m256i *)(const void *)(avx2_byte_mask + (even & 31)));
    __m256i v = avx2_move(dst, p, even - 32,
                          store == CSUM_STORE_NONE ? store : CSUM_STORE_TEMPORAL);
    return _mm256_and_si256(v, mask);
}

/* An odd length's last byte (copied when copying), in the low half of its word; else 0. */
CSUM_ALWAYS_INLINE uint64_t avx2_move_odd_byte(unsigned char *dst, const unsigned char *p,
                                               size_t len, enum csum_store store)
{
    if (!(len & 1))
        return 0;
    if (store != CSUM_STORE_NONE)
        dst[len - 1] = p[len - 1];
    return csum_odd_byte(p[len - 1]);
}

/* Fewer than 32 bytes: a 16-byte vector, then 8 bytes and the 0..7-byte pieces in scalar code,
 * each piece stored as it is loaded when copying. */
CSUM_ALWAYS_INLINE uint64_t avx2_short(unsigned char *dst, const unsigned char *p, size_t n,
                                       enum csum_store store)
{
    uint64_t s = 0;
    size_t i = 0;
    if (n & 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        if (store != CSUM_STORE_NONE)
            _mm_storeu_si128((__m128i *)(void *)dst, v);
        __m128i w = _mm_add_epi64(_mm_and_si128(v, _mm_set1_epi64x(0xffffffff)),
                                  _mm_srli_epi64(v, 32));
        s = (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(w, _mm_unpackhi_epi64(w, w)));
        i = 16;
    }
    if (n & 8) {
        uint64_t v = csum_load64(p + i);
        if (store != CSUM_STORE_NONE)
            csum_store64(dst + i, v);
        s = csum_add64(s, v);
        i += 8;
    }
    if (!(n & 7)) /* also keeps csum_partial(NULL, 0) from computing NULL + 0 */
        return s;
    return csum_add64(s, csum_tail_copy_sum7(csum_dst_at(dst, i), p + i, n & 7));
}

/* At least 32 bytes, at most one chunk (see the bound): the sum of the 16-bit words, unfolded.
 * With has_head, `head` is one more vector summed with them (the bound allows for it). */
CSUM_ALWAYS_INLINE uint64_t avx2_chunk_with(unsigned char *dst, const unsigned char *p, size_t len,
                                            enum csum_store store, int has_head, __m256i head)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i a0 = zero, a1 = zero, a2 = zero, a3 = zero, g0 = zero, g1 = zero, h0 = zero,
            h1 = zero;
    if (has_head)
        avx2_add(&a0, &h0, head);
    const size_t steps_end = len & ~(size_t)255;
    size_t i = 0;
    for (; i != steps_end; i += 256)
        AVX2_STEP(dst, p, i, store);
    /* The 0..7 whole vectors left, each whole-lane accumulator taking at most two more. */
    const size_t rest = len - i;
    if (rest & 128) {
        avx2_add(&a0, &h0, avx2_move(dst, p, i, store));
        avx2_add(&a1, &h1, avx2_move(dst, p, i + 32, store));
        avx2_add(&a2, &h0, avx2_move(dst, p, i + 64, store));
        avx2_add(&a3, &h1, avx2_move(dst, p, i + 96, store));
        i += 128;
    }
    if (rest & 64) {
        avx2_add(&a0, &h0, avx2_move(dst, p, i, store));
        avx2_add(&a1, &h1, avx2_move(dst, p, i + 32, store));
        i += 64;
    }
    if (rest & 32)
        avx2_add(&a2, &h0, avx2_move(dst, p, i, store));
    if ((len & 31) > 1)
        avx2_add(&a3, &h1, avx2_move_even_tail(dst, p, len, store));
    /* Each lane's L + H (exact, see the bound). With H1 the high halves that went into h0, h1
     * and H2 those that went into g0, g1: all = L + 2^32 (H1 + H2), h = H1, g = H2 + 2^32 H2,
     * so with s = h + g, 2^32 (s + g) = 2^32 H1 + 2^33 H2 and all + s - 2^32 (s + g) = L + H1 + H2
     * (mod 2^64): 5 ops from the four sums. */
    const __m256i g = _mm256_add_epi64(g0, g1);
    const __m256i s_hg = _mm256_add_epi64(_mm256_add_epi64(h0, h1), g);
    const __m256i all = _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3));
    const __m256i lanes = _mm256_sub_epi64(_mm256_add_epi64(all, s_hg),
                                           _mm256_slli_epi64(_mm256_add_epi64(s_hg, g), 32));
    const __m128i two =
        _mm_add_epi64(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(two, _mm_unpackhi_epi64(two, two))) +
           avx2_move_odd_byte(dst, p, len, store);
}

CSUM_ALWAYS_INLINE uint64_t avx2_chunk(unsigned char *dst, const unsigned char *p, size_t len,
                                       enum csum_store store)
{
    return avx2_chunk_with(dst, p, len, store, 0, _mm256_setzero_si256());
}

/* A chunk's summing loop: at least 32 bytes, at most the size its overflow bound allows; the
 * sum of the 16-bit words, unfolded, below 3 * 2^62. */
typedef uint64_t (*avx2_chunk_kernel)(unsigned char *dst, const unsigned char *p, size_t len,
                                      enum csum_store store);

/* Whole chunks of `chunk` bytes through a chunk kernel (a constant here, so it is inlined) until
 * at most `last_max` are left, which go in one last chunk. The streaming stores need dst + i
 * 32-byte aligned for every whole vector: x86_copy_stream passes a 64-byte aligned dst, and
 * chunks are multiples of 64 bytes. */
CSUM_ALWAYS_INLINE csum_wsum avx2_sum_chunks(avx2_chunk_kernel kernel, size_t chunk,
                                             size_t last_max, unsigned char *dst,
                                             const unsigned char *p, size_t len, csum_wsum sum,
                                             enum csum_store store)
{
    uint64_t s = sum;
    do {
        s = csum_add64(s, kernel(dst, p, chunk, store));
        p += chunk, len -= chunk;
        if (dst)
            dst += chunk;
    } while (len > last_max);
    return csum_fold64(csum_add64(s, kernel(dst, p, len, store)));
}

/* avx2_sum_chunks for a `store` known only at run time: each mode's loop, chosen once; for the
 * out-of-line paths of buffers longer than one chunk. The streaming stores are fenced here too
 * (the caller fences again): every function that streams has its own sfence, which
 * tests/isa_test.py checks. */
CSUM_ALWAYS_INLINE csum_wsum avx2_sum_chunks_any(avx2_chunk_kernel kernel, size_t chunk,
                                                 size_t last_max, unsigned char *dst,
                                                 const unsigned char *p, size_t len,
                                                 csum_wsum sum, enum csum_store store)
{
    if (store == CSUM_STORE_TEMPORAL)
        return avx2_sum_chunks(kernel, chunk, last_max, dst, p, len, sum, CSUM_STORE_TEMPORAL);
    if (store == CSUM_STORE_NONE)
        return avx2_sum_chunks(kernel, chunk, last_max, NULL, p, len, sum, CSUM_STORE_NONE);
    const csum_wsum r = avx2_sum_chunks(kernel, chunk, last_max, dst, p, len, sum,
                                        CSUM_STORE_STREAM);
    _mm_sfence();
    return r;
}

/* A summing row's path for buffers longer than one chunk, out of line (see avx2_sum_chunked). */
typedef csum_wsum (*avx2_long_path)(unsigned char *dst, const unsigned char *p, size_t len,
                                    csum_wsum sum, enum csum_store store);

/* Any length through a chunk kernel and, above `last_max` bytes, `long_path` (constants here,
 * so the kernel is inlined): below 32 bytes the 16/8/4/2/1-byte pieces; up to `last_max`
 * bytes one chunk. The chunk loop for longer buffers is a call, not inlined: inline, it made
 * GCC 12 save two to four registers on the stack at every call of the avx2 and avx-vnni rows,
 * stores that a copy's own loads can then wait on (4K aliasing, docs/METHOD.md). The tail is
 * stored normally. */
CSUM_ALWAYS_INLINE csum_wsum avx2_sum_chunked(avx2_chunk_kernel kernel, avx2_long_path long_path,
                                              size_t last_max, unsigned char *dst,
                                              const unsigned char *p, size_t len, csum_wsum sum,
                                              enum csum_store store)
{
    if (__builtin_expect(len < 32, 0))
        return csum_fold64(csum_add64(avx2_short(dst, p, len, store), sum));
    if (__builtin_expect(len > last_max, 0))
        return long_path(dst, p, len, sum, store);
    /* A chunk's sum is below 3 * 2^62, so adding the seed cannot carry; the seed comes last,
     * so a caller's dependency chain through `sum` is one add and a fold. */
    return x86_fold64_rotate(kernel(dst, p, len, store) + sum);
}

/* 8 GiB chunks; the last one up to 12 GiB (the bound) */
#define AVX2_CHUNK_BYTES ((size_t)1 << 33)

__attribute__((noinline, cold)) static csum_wsum avx2_sum_long(unsigned char *dst,
                                                               const unsigned char *p, size_t len,
                                                               csum_wsum sum,
                                                               enum csum_store store)
{
    return avx2_sum_chunks_any(avx2_chunk, AVX2_CHUNK_BYTES, AVX2_CHUNK_BYTES * 3 / 2, dst, p,
                               len, sum, store);
}

CSUM_ALWAYS_INLINE csum_wsum avx2_sum(unsigned char *dst, const unsigned char *p, size_t len,
                                      csum_wsum sum, enum csum_store store)
{
    return avx2_sum_chunked(avx2_chunk, avx2_sum_long, AVX2_CHUNK_BYTES * 3 / 2, dst, p, len, sum,
                            store);
}

/*
 * At least 32 bytes and at most one chunk, from a 32-byte boundary of the buffer (of a copy's
 * destination): when it starts off one, the bytes up to it are one vector
 * moved from the buffer's start, with the bytes after them cleared for the sum, and the loop
 * starts at the boundary, so none of its loads (stores) straddles a cache line. A straddling
 * load takes two load slots, and the loop reads half its vectors twice: on Zen 4 (AVX-512
 * hidden) a 16 KiB buffer at offset 2 took 1.3 times as long as an aligned one
 * (docs/METHOD.md). A copy stores the head's whole 32 bytes, and the loop then stores those
 * after the boundary again, with the same values.
 *
 * At an odd address the head has an odd length, and the loop pairs the bytes after it the
 * other way round: each of its words is a high byte of the buffer's and the low byte of the
 * next. RFC 1071 (section 2, "byte order independence") gives the way out: summing with the
 * bytes of every word swapped gives the byte-swapped sum. So the head's words are swapped too
 * (one vpshufb), everything is summed in the loop's pairing, and the canonical result is
 * swapped back at the end (0xffff and 0 stay what they are).
 *
 * The loop's exact total depends on how its 32-bit halves fall, which differs with the head,
 * so the result is the total's canonical 16-bit value plus `sum`: the same for the same bytes
 * at any address, for every length this path takes.
 */
CSUM_ALWAYS_INLINE csum_wsum avx2_sum_from_boundary(unsigned char *dst, const unsigned char *p,
                                                    size_t len, csum_wsum sum,
                                                    enum csum_store store)
{
    /* One loop for every address (GCC 12 copies the accumulators around a second copy of it,
     * 4 more instructions a step): the head is the 32 - off bytes before the boundary, and
     * nothing (the mask clears the whole vector) at a boundary. */
    const uintptr_t at = (uintptr_t)(store == CSUM_STORE_NONE ? (const void *)p : dst);
    const size_t off = at & 31, head_len = (32 - off) & 31;
    const __m256i keep =
        _mm256_loadu_si256((const __m256i *)(const void *)(avx2_byte_mask + 64 - head_len));
    __m256i head = _mm256_and_si256(avx2_move(dst, p, 0, store), keep);
    if (off & 1) {
        const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                                              1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
        head = _mm256_shuffle_epi8(head, swap);
    }
    const uint64_t total =
        avx2_chunk_with(csum_dst_at(dst, head_len), p + head_len, len - head_len, store, 1, head);
    const uint32_t folded = x86_fold64_rotate(total);
    /* 32 -> 16 bits with one rotate, as x86_fold64_rotate does 64 -> 32: canonical (1..0xffff,
     * 0 only for an exact zero) and three instructions, not csum_canonical16's six. */
    uint32_t canonical = (folded + ((folded >> 16) | (folded << 16))) >> 16;
    if (off & 1)
        canonical = ((canonical >> 8) | (canonical << 8)) & 0xffff;
    return x86_add_ec32(canonical, sum);
}

#endif /* CSUM_X86_AVX2_SUM_H */
