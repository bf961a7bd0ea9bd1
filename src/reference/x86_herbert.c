/*
 * x86-herbert: Tom Herbert's "fast csum_partial for x86_64", v5 (2016), the "new" code of
 * Herbert 2016 (docs/SOURCES.md). Rewritten here from the patch description and review.
 *
 * Algorithm: no alignment handling at all (x86 loads unaligned words at full speed unless they
 * cross a page). Exactly 8 bytes is a special case: two 32-bit halves and the sum in one
 * add/adc/adc chain. Otherwise, while more than 64 bytes are left, a 64-byte add/adc chain;
 * then the remaining 0..8 whole quadwords through a computed jump into a run of adc
 * instructions (a jump table with no table: every adc is 4 bytes long, so the entry for n
 * quadwords is 4 * n bytes before the end); then the last 1..7 bytes by re-reading the final
 * 8 bytes of the buffer and shifting the already-counted bytes out.
 *
 * Changed from the original: below 8 bytes the original used load_unaligned_zeropad(), which
 * reads past the end of the buffer (legal only under the kernel's fault fixup); here those
 * lengths use 4/2/1-byte loads. The backward 8-byte tail load is kept: with len >= 8 it stays
 * inside the buffer. The jump is position-independent (RIP-relative lea, not an absolute
 * address) because libcsum is built -fPIC, and is `notrack` so that it stays legal if indirect
 * branch tracking (CET IBT) is ever enforced on the process.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86/x86_adc.h"

static uint64_t sum_bytes_herbert(const unsigned char *p, size_t len)
{
    if (len < 8)
        return csum_tail_sum7(p, len);

    uint64_t acc = 0;
    for (; len > 64; len -= 64, p += 64)
        acc = x86_chain_q8(acc, p);
    acc = x86_adc_quads_jump(acc, p, len >> 3);
    if (len & 7)
        acc = x86_add_ec64(acc, x86_tail_backward(p + len, (unsigned)(len & 7)));
    return acc;
}

X86_ROW_ENTRY static csum_wsum csum_partial_herbert(const void *buf, size_t len, csum_wsum sum)
{
    if (len == 8) {
        const unsigned char *p = buf;
        return x86_add3_ec32(sum, csum_load32(p), csum_load32(p + 4));
    }
    return x86_fold64_add(sum_bytes_herbert(buf, len), sum);
}

const struct csum_kernel csum_kernel_x86_herbert = {
    CSUM_REFERENCE_NAME("x86-herbert"),
    .sum.partial = csum_partial_herbert,
    .sum.description = "Herbert 2016 v5 (\"new\"): no alignment, 64-byte loop, computed "
                       "jump into an adc run, backward 8-byte tail; <8 bytes by 4/2/1 loads",
};
