/*
 * x86-dumazet: Eric Dumazet's 2021 rewrite of the x86-64 csum_partial (Linux 5.17), the
 * "baseline" of van de Ven 2021 (docs/SOURCES.md). Rewritten here from that description.
 *
 * Algorithm: an odd start address is handled first (the initial sum is rotated by 8 bits, the
 * first byte goes into the high half of a word, and the 16-bit result is byte-swapped at the
 * end); then one add/adc chain per 64-byte block, then a bisection of the remaining 0..63
 * bytes into one chain each for 32, 16 and 8 bytes, then the last 1..7 bytes as one word.
 *
 * Changed from the original: the original read the last 1..7 bytes with
 * load_unaligned_zeropad(), which may read past the end of the buffer (legal only under the
 * kernel's fault fixup); here they are re-read in bounds by a backward 8-byte load when the
 * buffer has 8 bytes or more, else assembled from 4/2/1-byte loads. And, as in x86-2002, the
 * even-address path ends with the same canonical 16-bit fold as the odd one, so the result
 * does not depend on the address.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86/x86_adc.h"

#include <stdint.h>

X86_ROW_ENTRY static csum_wsum csum_partial_dumazet(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    uint64_t acc = sum;
    const int odd = ((uintptr_t)p & 1) && len != 0;

    if (__builtin_expect(odd, 0)) {
        acc = ((sum >> 8) | (sum << 24)) + ((uint64_t)*p << 8);
        p++;
        len--;
    }
    const size_t whole = len;
    for (; len >= 64; len -= 64, p += 64)
        acc = x86_chain_q8(acc, p);
    acc = x86_bisect_32_16_8(acc, p, len);
    p += len & 56;
    if (len & 7)
        acc = x86_add_ec64(acc, x86_tail_safe(p + (len & 7), len, whole));

    uint32_t r16 = x86_fold32_to16(x86_add_ec32((uint32_t)acc, (uint32_t)(acc >> 32)));
    return odd ? x86_swab16(r16) : r16;
}

const struct csum_kernel csum_kernel_x86_dumazet = {
    CSUM_REFERENCE_NAME("x86-dumazet"),
    .sum.partial = csum_partial_dumazet,
    .sum.description = "Dumazet 2021 (Linux 5.17, van de Ven 2021's baseline): odd-address rotation, "
                       "64-byte adc loop, 32/16/8 bisection; in-bounds tail, 16-bit result",
};
