/*
 * x86-2002: the x86-64 csum_partial Linux used from 2002 until Dumazet's rewrite in Linux 5.17
 * (2021; Herbert's 2016 patch was not merged). It is the "old" code in Herbert 2016
 * (docs/SOURCES.md, Tom Herbert's v5 patch, which quotes it in full). Rewritten here from that
 * description.
 *
 * Algorithm: align first. An odd start address takes one byte off (it is the high half of a
 * word that began one byte earlier) and byte-swaps the final 16-bit result; then a 2-byte and
 * a 4-byte step bring the pointer to an 8-byte boundary. 64-byte blocks go through an unrolled
 * add/adc chain, the remaining 0..7 quadwords one add/adc pair each, then the sum is folded to
 * 32 bits and a 4/2/1-byte tail is added. The initial sum is added last.
 *
 * Changed from the original: the original returned 32 bits for an even start and 16 bits for
 * an odd one, so the same bytes at two addresses could give different (congruent) sums. Here
 * both paths end with a canonical 16-bit fold (see x86_fold32_to16), which costs the even path
 * three instructions. The original's tail never read past the end, so it is kept as it was.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86/x86_adc.h"

#include <stdint.h>

static uint32_t sum_bytes_2002(const unsigned char *p, size_t len)
{
    uint64_t acc = 0;
    const int odd = (uintptr_t)p & 1;

    if (len == 0)
        return 0;
    if (odd) {
        acc = (uint64_t)*p << 8;
        p++;
        len--;
    }
    if (len >= 2 && ((uintptr_t)p & 2)) {
        acc += csum_load16(p);
        p += 2;
        len -= 2;
    }
    if (len >= 4 && ((uintptr_t)p & 4)) {
        acc += csum_load32(p);
        p += 4;
        len -= 4;
    }
    /* p is now 8-byte aligned whenever a quadword is left. */
    size_t quads = len >> 3;
    for (; quads >= 8; quads -= 8, p += 64)
        acc = x86_chain_q8(acc, p);
    for (; quads; quads--, p += 8)
        acc = x86_chain_q1(acc, p);
    acc = csum_fold64(acc);
    if (len & 4) {
        acc += csum_load32(p);
        p += 4;
    }
    if (len & 2) {
        acc += csum_load16(p);
        p += 2;
    }
    if (len & 1)
        acc += *p;
    uint32_t r16 = x86_fold32_to16(csum_fold64(acc));
    return odd ? x86_swab16(r16) : r16;
}

X86_ROW_ENTRY static csum_wsum csum_partial_x86_2002(const void *buf, size_t len, csum_wsum sum)
{
    return x86_add_ec32(sum, sum_bytes_2002(buf, len));
}

const struct csum_kernel csum_kernel_x86_2002 = {
    CSUM_REFERENCE_NAME("x86-2002"),
    .sum.partial = csum_partial_x86_2002,
    .sum.description = "Linux x86-64 2002 to 5.16 (Herbert 2016 \"old\"): align odd/2/4 first, 64-byte "
                       "add/adc loop, 8-byte loop, 4/2/1 tail; ends in a canonical 16-bit fold",
};
