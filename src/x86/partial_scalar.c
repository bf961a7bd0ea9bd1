/*
 * x86-scalar: our best scalar x86-64 csum_partial, designed from scratch-bench measurements
 * on the project machine (AMD Zen 5 under KVM, TSC ticks, latency mode; the lab (`csum bench`)
 * is where the published numbers come from). Needs no CPU extension.
 *
 * What the measurements said, and what follows from it:
 *  - Below a few hundred bytes the call itself costs more than the additions, and the data's
 *    carry chains do not depend on the incoming sum. So the sum is added last, inside the
 *    final 64 -> 32 fold (Herbert's add32_with_carry3, seed 000): a caller whose next call
 *    needs this result waits for two adds, not for the whole chain (seed 003's "zero input
 *    sum" gain, kept for every sum).
 *  - What is left is instruction count and taken branches. Each length class has a short
 *    path: 8..16 bytes are two loads, 17..24 three; exactly 40 bytes (the IPv6 header, the hot
 *    case named in Dumazet's and Goldstein's kernel commits) is one 5-quadword chain, tested
 *    first so that it is the fall-through path; 0..7 bytes at most two loads. Herbert's computed jump measured slower than one branch per remainder bit on this
 *    CPU for 14..64 bytes, so the 32/16/8 remainder uses the bits.
 *  - The last 1..8 bytes of a buffer of 8 bytes or more are one backward 8-byte load (seed
 *    000) with the already-counted bytes shifted out: the quadwords before it start at offset
 *    0, so there are (len - 1) / 8 of them and the shift is 8 * (-len mod 8) bits.
 *  - 256 bytes and more: four independent 64-byte chains. A chain of k adc takes k + 1 cycles
 *    whatever the number of adc units, so the chains in flight set the speed until the units
 *    are busy: 2 chains per 64 bytes gave 12.8 B/cycle, 3 gave 19, 4 chains of 8 quadwords 27.
 *    Between 64 and 255 bytes fewer instructions matter more: two chains for a 128-byte
 *    block, one for a 64-byte block.
 * Never reads outside [buf, buf + len).
 */
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

/*
 * 256 bytes and more, out of line: its four accumulators would make the compiler save
 * registers on entry to csum_partial_scalar, a cost every short call would pay.
 */
__attribute__((noinline)) static uint64_t sum_256_and_up(uint64_t acc, const unsigned char *p,
                                                         size_t n)
{
    uint64_t b = 0, c = 0, d = 0;
    for (size_t blocks = n >> 8; blocks; blocks--, p += 256) {
        acc = x86_chain_q8(acc, p);
        b = x86_chain_q8(b, p + 64);
        c = x86_chain_q8(c, p + 128);
        d = x86_chain_q8(d, p + 192);
    }
    if (n & 128) {
        acc = x86_chain_q4(acc, p);
        b = x86_chain_q4(b, p + 32);
        c = x86_chain_q4(c, p + 64);
        d = x86_chain_q4(d, p + 96);
        p += 128;
    }
    if (n & 64) {
        acc = x86_chain_q4(acc, p);
        b = x86_chain_q4(b, p + 32);
        p += 64;
    }
    acc = x86_add_ec64(x86_add_ec64(acc, b), x86_add_ec64(c, d));
    return x86_bisect_32_16_8(acc, p, n);
}

/* Any length >= 8; used from 25 on. */
static inline uint64_t sum_long(const unsigned char *p, size_t len)
{
    const size_t n = len - 1; /* the bits from 3 up count the quadwords before the last 1..8 bytes */
    uint64_t acc = csum_load64(p + len - 8) >> ((0 - len * 8) & 63);

    if (n >= 256)
        return sum_256_and_up(acc, p, n);
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

X86_ROW_ENTRY static csum_wsum csum_partial_scalar(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    uint64_t data;

    if (__builtin_expect(len == 40, 1)) { /* the IPv6 header: first, as the fall-through path */
        data = sum_40(p);
    } else if (len <= 16) {
        if (len == 8) /* UDP header: both halves and the sum in one add/adc/adc chain (seed 000) */
            return x86_add3_ec32(sum, csum_load32(p), csum_load32(p + 4));
        data = len < 8 ? sum_under8(p, len) : sum_8to16(p, len);
    } else if (len <= 24) {
        data = sum_17to24(p, len);
    } else {
        data = sum_long(p, len);
    }
    return x86_fold64_add(data, sum);
}

const struct csum_impl_entry csum_impl_scalar = {
    .pub = {
        .name = "x86-scalar",
        .description = "our best scalar: sum added last, straight paths for 8-16, 40 and <8 "
                       "bytes, in-bounds backward tail load, up to four adc chains",
        .partial = csum_partial_scalar,
        .requires = "",
    },
    .cpu_features = 0,
};
