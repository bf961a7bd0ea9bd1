/*
 * linux-6.8: today's x86-64 csum_partial (arch/x86/lib/csum-partial_64.c as of Linux 6.8:
 * Dumazet's code reworked by Noah Goldstein in 2023 and by Linus Torvalds in January 2024, whose
 * cleanup brought the 80-byte loop of two 40-byte chains; docs/SOURCES.md). Our main scalar
 * baseline in the lab.
 * Rewritten here from its description.
 *
 * Algorithm: no alignment handling. While 80 bytes or more are left, two independent 40-byte
 * add/adc chains (the second into its own accumulator, so the two carry chains overlap in an
 * out-of-order core); then one 40-byte chain, returning at once when exactly 40 bytes were
 * left (the IPv6 header case); then Dumazet's 32/16/8 bisection and the last 1..7 bytes as
 * one word. The final 64 -> 32 fold is (x + ror64(x, 32)) >> 32.
 *
 * Changed from the original: the last 1..7 bytes were read with load_unaligned_zeropad(),
 * which may read past the end of the buffer (legal only under the kernel's fault fixup); here
 * they are re-read in bounds by a backward 8-byte load when the buffer has 8 bytes or more,
 * else assembled from 4/2/1-byte loads.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86/x86_adc.h"

X86_ROW_ENTRY static csum_wsum csum_partial_linux68(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    const size_t whole = len;
    uint64_t acc = sum;

    if (__builtin_expect(len >= 80, 1)) {
        uint64_t acc2 = 0;
        do {
            acc = x86_chain_q5(acc, p);
            acc2 = x86_chain_q5(acc2, p + 40);
            p += 80;
            len -= 80;
        } while (len >= 80);
        acc = x86_add_ec64(acc, acc2);
    }
    if (len >= 40) {
        acc = x86_chain_q5(acc, p);
        len -= 40;
        if (len == 0)
            return x86_fold64_rotate(acc);
        p += 40;
    }
    acc = x86_bisect_32_16_8(acc, p, len);
    p += len & 56;
    if (len & 7)
        acc = x86_add_ec64(acc, x86_tail_safe(p + (len & 7), len, whole));
    return x86_fold64_rotate(acc);
}

const struct csum_kernel csum_kernel_linux_6_8 = {
    CSUM_REFERENCE_NAME("linux-6.8"),
    .sum.partial = csum_partial_linux68,
    .sum.description = "Linux 6.8 (Torvalds 2024, Goldstein 2023): two 40-byte adc chains per 80 "
                       "bytes, 40-byte early return, 32/16/8 bisection; in-bounds tail instead of "
                       "zeropad",
};
