/*
 * x86-scalar, as an inline function: the row (x86_scalar.c, where the design is explained)
 * and the dispatcher (src/dispatch.c, which runs it in place for short buffers so that they
 * pay no second indirect jump) share this one definition.
 */
#ifndef CSUM_X86_SCALAR_H
#define CSUM_X86_SCALAR_H

#include <emmintrin.h> /* SSE2: the x86-64 baseline */

#include "x86_adc.h"

/* The 0..7 bytes at p. 4..7: two 4-byte loads, the second overlapping the first and shifted
 * so that only bytes not yet counted remain (they start at offset 4: word-aligned). 0..3: a
 * 2-byte load and the last byte, which then sits at an even offset (the low half of its word).
 * Measured against a len >= 4 / >= 2 / else tree: one taken branch fewer, 1 cycle less. */
static inline uint64_t sum_under8(const unsigned char *p, size_t len)
{
    uint64_t s = 0;
    if (len & 4)
        return (uint64_t)csum_load32(p) + ((uint64_t)csum_load32(p + len - 4) >> (8 * (8 - len)));
    if (len & 2)
        s = csum_load16(p);
    if (len & 1)
        s += p[len - 1];
    return s;
}

/* Exactly 40 bytes: one chain that starts by loading the first quadword. */
static inline uint64_t sum_40(const unsigned char *p)
{
    uint64_t acc;
    __asm__("movq %1, %0\n\taddq %2, %0\n\tadcq %3, %0\n\tadcq %4, %0\n\tadcq %5, %0\n\t" X86_CLOSE
            : "=&r"(acc)
            : X86_Q(p, 0), X86_Q(p, 1), X86_Q(p, 2), X86_Q(p, 3), X86_Q(p, 4)
            : "cc");
    return acc;
}

/* More than 256 bytes: out of line (x86_scalar.c), because its four accumulators would
 * make every caller save registers on entry, a cost every short call would pay. */
uint64_t csum_x86_scalar_sum_256_and_up(uint64_t acc, const unsigned char *p, size_t n);

/* 8..16 bytes: the first quadword, and the last one with the 16 - len bytes it shares with
 * the first shifted out (in two equal steps, as a single 64-bit shift is undefined for 8). */
static inline uint64_t sum_8to16(const unsigned char *p, size_t len)
{
    unsigned half_shift = (unsigned)(16 - len) * 4;
    uint64_t last = csum_load64(p + len - 8) >> half_shift >> half_shift;
    return x86_add_ec64(csum_load64(p), last);
}

/* The last 1..8 bytes of a buffer of 8 bytes or more, as one backward load with the bytes
 * the quadwords before them cover shifted out: those quadwords start at offset 0, so there
 * are (len - 1) / 8 of them and the shift is 8 * (-len mod 8) bits. */
static inline uint64_t sum_last_1to8(const unsigned char *p, size_t len)
{
    return csum_load64(p + len - 8) >> ((0 - len * 8) & 63);
}

/* 17..32 bytes (IPv4 and UDP/TCP headers with options, VXLAN): two or three quadwords in one
 * chain and the last 1..8 bytes. */
static inline uint64_t sum_17to32(const unsigned char *p, size_t len)
{
    uint64_t last = sum_last_1to8(p, len);
    return len > 24 ? x86_chain_q3(last, p) : x86_chain_q2(last, p);
}

/* 33..63 bytes: the last 1..8 bytes and Dumazet's 32/16/8 bisection of the quadwords before
 * them (n = len - 1: its bits from 3 up count those quadwords), one chain. */
static inline uint64_t sum_33to63(const unsigned char *p, size_t len)
{
    return x86_bisect_32_16_8(sum_last_1to8(p, len), p, len - 1);
}

/*
 * 64..256 bytes: Linux 6.8's shape (Dumazet 2021, Goldstein 2023, Torvalds 2024: "Linux 6.8" in
 * docs/SOURCES.md), which keeps the dependency chains short: two 40-byte chains per 80 bytes
 * (unrolled here, at most three times), one more 40-byte chain, the 32/16/8 bisection, and the
 * last 1..7 bytes only when there are some (one backward load). In the lab's throughput mode,
 * where only about two calls fit in the out-of-order window, a single chain through 64-byte
 * blocks measured 10-30 % slower.
 */
static inline uint64_t sum_64to256(const unsigned char *p, size_t len)
{
    const unsigned char *const end = p + len;
    uint64_t a = 0, b = 0;
    /* What the callers guarantee, told to the compiler: then it knows that fewer than 40
     * bytes are left after the blocks, so a 32-byte block rules out the 16- and 8-byte ones
     * and their tests are skipped (GCC derives this for Linux's loop by itself). */
    if (len < 64 || len > 256)
        __builtin_unreachable();
    /* At most three 80-byte blocks (len <= 256): unrolled, no loop branch. (An unoptimized
     * build, such as the sanitizer one, cannot unroll, and gcc warns about the request.) */
#ifdef __OPTIMIZE__
#pragma GCC unroll 3
#endif
    for (int k = 0; k < 3 && len >= 80; k++) {
        a = x86_chain_q5(a, p);
        b = x86_chain_q5(b, p + 40);
        p += 80;
        len -= 80;
    }
    if (len >= 40) {
        a = x86_chain_q5(a, p);
        p += 40;
        len -= 40;
    }
    if (len) { /* nothing left at multiples of 40: no tests over nothing (Linux's early return) */
        b = x86_bisect_32_16_8(b, p, len);
        if (len & 7)
            a = x86_add_ec64(a, csum_load64(end - 8) >> (8 * (8 - (len & 7))));
    }
    return x86_add_ec64(a, b);
}

/*
 * Every length up to 256 bytes: straight-line code per length class, no calls (a caller that
 * inlines this, the dispatcher, keeps its registers) and no indirect jump (a jump table on the
 * quadword count measured 1 to 3 cycles slower per call on the Zen 5 VM, and swung by as much
 * with code placement). The sum is added last, in the fold: a caller chaining sums waits for
 * two adds, not for the data's chain.
 */
static inline __attribute__((always_inline)) csum_wsum x86_scalar_partial_short(const void *buf,
                                                                                size_t len,
                                                                                csum_wsum sum)
{
    const unsigned char *p = buf;
    /* Each class ends in its own fold and return: a shared fold would cost every call one more
     * taken jump. 40 bytes first (the IPv6 header, Linux's order too): one compare, where
     * behind the 64..256 test it took two taken jumps. A trade, measured on AMD EPYC family 25
     * model 17 (Zen 4 VM; five alternated rounds of `csum bench short -l`): 40 bytes 5.8 -> 3.6
     * ticks in latency mode, 5.0 -> 3.6 in throughput; 24 bytes 0.7-1.5 less; 0.3-0.8 more at
     * 72, 100, 160 and 250 bytes in some modes, within 0.1 at 8, 64, 96, 104, 136 and 200. Then
     * 64..256, as the fall-through: it has the most work to overlap. */
    if (len == 40) /* the IPv6 header */
        return x86_fold64_add(sum_40(p), sum);
    if (__builtin_expect(len >= 64, 1))
        return x86_fold64_add(sum_64to256(p, len), sum);
    if (len <= 16) {
        if (len == 8) /* UDP header: both halves and the sum in one add/adc/adc chain */
            return x86_add3_ec32(sum, csum_load32(p), csum_load32(p + 4));
        if (len < 8)
            return x86_fold64_add(sum_under8(p, len), sum);
        return x86_fold64_add(sum_8to16(p, len), sum);
    }
    if (len <= 32)
        return x86_fold64_add(sum_17to32(p, len), sum);
    return x86_fold64_add(sum_33to63(p, len), sum);
}

/* The 0..63 bytes at src copied to dst as at most four loads, then as many stores, each piece
 * of the largest size that fits, the last one ending at the last byte and overlapping the one
 * before (what memcpy implementations do for short copies; no loop, at most three branches). */
static inline void x86_copy_under64(unsigned char *dst, const unsigned char *src, size_t len)
{
    if (len >= 16) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)src);
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + len - 16));
        if (len > 32) {
            const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(src + 16));
            const __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(src + len - 32));
            _mm_storeu_si128((__m128i *)(void *)(dst + 16), c);
            _mm_storeu_si128((__m128i *)(void *)(dst + len - 32), d);
        }
        _mm_storeu_si128((__m128i *)(void *)dst, a);
        _mm_storeu_si128((__m128i *)(void *)(dst + len - 16), b);
    } else if (len >= 8) {
        const uint64_t a = csum_load64(src), b = csum_load64(src + len - 8);
        csum_store64(dst, a);
        csum_store64(dst + len - 8, b);
    } else if (len >= 4) {
        const uint32_t a = csum_load32(src), b = csum_load32(src + len - 4);
        csum_store32(dst, a);
        csum_store32(dst + len - 4, b);
    } else if (len >= 2) {
        const uint16_t a = csum_load16(src), b = csum_load16(src + len - 2);
        csum_store16(dst, a);
        csum_store16(dst + len - 2, b);
    } else if (len) {
        dst[0] = src[0];
    }
}

/* Copy and checksum fewer than 64 bytes: the short path's sum of src, then the copy. Summing
 * from src rather than from registers costs loads, which are cheap here, and keeps both halves
 * as short as they are alone; measured against the vector rows' short copies on the Zen 5 VM
 * (docs/METHOD.md). */
static inline __attribute__((always_inline)) csum_wsum x86_scalar_copy_short(void *dst, const void *src,
                                                                            size_t len, csum_wsum sum)
{
    if (len >= 64) /* what the callers guarantee: the sum's 64..256 path is not compiled in */
        __builtin_unreachable();
    const csum_wsum r = x86_scalar_partial_short(src, len, sum);
    x86_copy_under64(dst, src, len);
    return r;
}

/* Any length: above 256 bytes the four-chain loop, out of line. */
static inline __attribute__((always_inline)) csum_wsum x86_scalar_partial(const void *buf, size_t len,
                                                                     csum_wsum sum)
{
    if (len > 256) {
        const unsigned char *p = buf;
        uint64_t acc = csum_load64(p + len - 8) >> ((0 - len * 8) & 63);
        return x86_fold64_add(csum_x86_scalar_sum_256_and_up(acc, p, len - 1), sum);
    }
    return x86_scalar_partial_short(buf, len, sum);
}

#endif /* CSUM_X86_SCALAR_H */
