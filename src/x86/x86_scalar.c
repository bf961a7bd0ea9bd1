/*
 * x86-scalar: our best scalar x86-64 csum_partial, designed from scratch-bench measurements
 * on the project machine (AMD Zen 5 under KVM, TSC ticks, latency mode; the lab (`csum bench`)
 * is where the published numbers come from). Needs no CPU extension.
 *
 * What the measurements said, and what follows from it:
 *  - Below a few hundred bytes the call itself costs more than the additions, and the data's
 *    carry chains do not depend on the incoming sum. So the sum is added last, inside the
 *    final 64 -> 32 fold (Herbert's add32_with_carry3; sources in docs/SOURCES.md): a caller whose next call
 *    needs this result waits for two adds, not for the whole chain (van de Ven 2021's "zero input
 *    sum" gain, kept for every sum).
 *  - What is left is instruction count and taken branches. Each length class has a short
 *    path: 8..16 bytes are two loads, 17..24 three; exactly 40 bytes (the IPv6 header, the hot
 *    case named in Dumazet's and Goldstein's kernel commits) is one 5-quadword chain, tested
 *    first, with one compare (x86_scalar.h has what that trade measured); 0..7 bytes at most
 *    two loads. Herbert's computed jump measured slower than one branch per remainder bit on
 *    this CPU for 14..64 bytes, so the 32/16/8 remainder uses the bits.
 *  - The last 1..8 bytes of a buffer of 8 bytes or more are one backward 8-byte load
 *    (Herbert 2016) with the already-counted bytes shifted out: the quadwords before it start at offset
 *    0, so there are (len - 1) / 8 of them and the shift is 8 * (-len mod 8) bits.
 *  - More than 256 bytes: four independent 64-byte chains. A chain of k adc takes k + 1 cycles
 *    whatever the number of adc units, so the chains in flight set the speed until the units
 *    are busy: 2 chains per 64 bytes gave 12.8 B/cycle, 3 gave 19, 4 chains of 8 quadwords 27.
 *    From 64 to 256 bytes fewer instructions matter more: Linux 6.8's two 40-byte chains per
 *    80 bytes (sum_64to256 in x86_scalar.h).
 * Never reads outside [buf, buf + len).
 *
 * The copy (named x86-adc in 1.0): one add-with-carry chain, the shape of Linux's csum-copy
 * (arch/x86/lib/csum-copy_64.S) and of the "adc + dec/jnz" loop in Herbert 2016; our own code. Each
 * 64-byte block is loaded into registers, stored, and added into one accumulator with
 * adc, so every carry goes straight back in. The loop counter is decremented with dec, which
 * leaves the carry flag alone: the chain runs across iterations and the pending carry is added
 * once at the end. For CPUs without AVX2, and as the scalar reference for the vector rows.
 * The last 0..63 bytes, and copies shorter than 64 bytes, are summed by the short path and
 * copied with overlapping moves that cover exactly the bytes left (x86_scalar_copy_short).
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86_scalar.h"

/* More than 256 bytes (declared in x86_scalar.h): four independent chains. */
__attribute__((noinline)) uint64_t csum_x86_scalar_sum_256_and_up(uint64_t acc,
                                                                  const unsigned char *p, size_t n)
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

X86_ROW_ENTRY static csum_wsum csum_partial_scalar(const void *buf, size_t len, csum_wsum sum)
{
    return x86_scalar_partial(buf, len, sum);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_adc(void *dst, const void *src, size_t len, csum_wsum sum)
{
    size_t blocks = len / 64;
    if (blocks == 0)
        return x86_scalar_copy_short(dst, src, len, sum);
    uint64_t acc = sum;
    const unsigned char *s = src;
    unsigned char *d = dst;
    uint64_t t0, t1, t2, t3;
    __asm__("clc\n"
            "1:\n\t"
            "movq 0(%[s]), %[t0]\n\t"
            "movq 8(%[s]), %[t1]\n\t"
            "movq 16(%[s]), %[t2]\n\t"
            "movq 24(%[s]), %[t3]\n\t"
            "movq %[t0], 0(%[d])\n\t"
            "movq %[t1], 8(%[d])\n\t"
            "movq %[t2], 16(%[d])\n\t"
            "movq %[t3], 24(%[d])\n\t"
            "adcq %[t0], %[acc]\n\t"
            "adcq %[t1], %[acc]\n\t"
            "adcq %[t2], %[acc]\n\t"
            "adcq %[t3], %[acc]\n\t"
            "movq 32(%[s]), %[t0]\n\t"
            "movq 40(%[s]), %[t1]\n\t"
            "movq 48(%[s]), %[t2]\n\t"
            "movq 56(%[s]), %[t3]\n\t"
            "movq %[t0], 32(%[d])\n\t"
            "movq %[t1], 40(%[d])\n\t"
            "movq %[t2], 48(%[d])\n\t"
            "movq %[t3], 56(%[d])\n\t"
            "adcq %[t0], %[acc]\n\t"
            "adcq %[t1], %[acc]\n\t"
            "adcq %[t2], %[acc]\n\t"
            "adcq %[t3], %[acc]\n\t"
            "leaq 64(%[s]), %[s]\n\t" /* lea and dec keep the carry flag */
            "leaq 64(%[d]), %[d]\n\t"
            "decq %[n]\n\t"
            "jnz 1b\n\t"
            "adcq $0, %[acc]"
            : [acc] "+r"(acc), [s] "+r"(s), [d] "+r"(d), [n] "+r"(blocks), [t0] "=&r"(t0),
              [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
            :
            : "memory", "cc");
    /* s and d now point just past the blocks (an even offset: words stay words). */
    return x86_scalar_copy_short(d, s, len & 63, csum_fold64(acc));
}

const struct csum_kernel csum_kernel_x86_scalar = {
    CSUM_KERNEL_NAME("x86-scalar"),
    .sum.partial = csum_partial_scalar,
    .sum.description = "our best scalar: sum added last, straight paths for 8-16, 40 and <8 "
                       "bytes, in-bounds backward tail load, up to four adc chains",
    .copy.copy = csum_partial_copy_adc,
    .copy.description = "64-byte blocks through registers, one adc chain kept across "
                        "iterations by dec/jnz (Linux csum-copy shape); below 64 bytes (and "
                        "the last 0..63) the short sum and overlapping moves",
};
