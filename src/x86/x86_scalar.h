/*
 * x86-scalar, as an inline function: the row (partial_scalar.c, where the design is explained)
 * and the dispatcher (src/dispatch.c, which runs it in place for short buffers so that they
 * pay no second indirect jump) share this one definition.
 */
#ifndef CSUM_X86_SCALAR_H
#define CSUM_X86_SCALAR_H

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

/* 8..16 bytes: the first quadword, and the last one with the 16 - len bytes it shares with
 * the first shifted out (in two equal steps, as a single 64-bit shift is undefined for 8). */
static inline uint64_t sum_8to16(const unsigned char *p, size_t len)
{
    unsigned half_shift = (unsigned)(16 - len) * 4;
    uint64_t last = csum_load64(p + len - 8) >> half_shift >> half_shift;
    return x86_add_ec64(csum_load64(p), last);
}

/* 17..24 bytes (the IPv4 header, UDP + VXLAN): two quadwords, and the last one with the
 * 24 - len bytes it shares with the second shifted out (at most 7: one shift). */
static inline uint64_t sum_17to24(const unsigned char *p, size_t len)
{
    uint64_t last = csum_load64(p + len - 8) >> ((24 - len) * 8);
    return x86_add_ec64(x86_add_ec64(csum_load64(p), csum_load64(p + 8)), last);
}

/* Exactly 40 bytes: one chain that starts by loading the first quadword. */
static inline uint64_t sum_40(const unsigned char *p)
{
    uint64_t acc;
    __asm__("movq (%[src]), %[acc]\n\t" X86_ADDQ(8) X86_ADCQ(16) X86_ADCQ(24) X86_ADCQ(32) X86_CLOSE
            : [acc] "=&r"(acc)
            : [src] "r"(p), "m"(*(const unsigned char(*)[40])p)
            : "cc");
    return acc;
}

/* 256 bytes and more: out of line (partial_scalar.c), because its four accumulators would
 * make every caller save registers on entry, a cost every short call would pay. */
uint64_t csum_x86_scalar_sum_256_and_up(uint64_t acc, const unsigned char *p, size_t n);

/* 25..256 bytes (n = len - 1 < 256: its bits from 3 up count the quadwords before the last
 * 1..8 bytes, which one backward load covers). */
static inline uint64_t sum_25to256(const unsigned char *p, size_t len)
{
    const size_t n = len - 1;
    uint64_t acc = csum_load64(p + len - 8) >> ((0 - len * 8) & 63);
    if (n & 128) {
        uint64_t b = x86_chain_q8(0, p + 64);
        acc = x86_add_ec64(x86_chain_q8(acc, p), b);
        p += 128;
    }
    if (n & 64) { /* one chain: fewest instructions */
        acc = x86_chain_q8(acc, p);
        p += 64;
    }
    return x86_bisect_32_16_8(acc, p, n);
}

/* Every length up to 256 bytes. No calls inside, so a caller that inlines this (the
 * dispatcher) keeps its registers and needs no stack frame. */
static inline __attribute__((always_inline)) csum_wsum x86_scalar_partial_short(const void *buf,
                                                                           size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    uint64_t data;

    if (__builtin_expect(len == 40, 1)) { /* the IPv6 header: first, as the fall-through path */
        data = sum_40(p);
    } else if (len <= 16) {
        if (len == 8) /* UDP header: both halves and the sum in one add/adc/adc chain (Herbert 2016) */
            return x86_add3_ec32(sum, csum_load32(p), csum_load32(p + 4));
        data = len < 8 ? sum_under8(p, len) : sum_8to16(p, len);
    } else if (len <= 24) {
        data = sum_17to24(p, len);
    } else {
        data = sum_25to256(p, len);
    }
    return x86_fold64_add(data, sum);
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
