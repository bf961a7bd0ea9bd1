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
