/*
 * x86-laight: David Laight's flag-neutral adc loop (in the review of Herbert 2016, docs/SOURCES.md), built to test
 * his claim that a short loop whose counter update leaves the carry flag alone runs about as
 * fast as an 8-way unrolled add/adc block.
 *
 * Algorithm: one carry chain runs through the whole loop. The index counts up from minus the
 * number of quadwords to zero in %rcx; `lea` advances it without touching the flags and `jrcxz`
 * (which reads %rcx, not the flags) ends the loop, so the carry of the last adc of one
 * iteration feeds the first adc of the next and the chain is closed once, after the loop.
 * Two adc per iteration (16 bytes), as Laight suggested. The 8-byte remainder and the 1..7-byte
 * tail (in-bounds: backward load or 4/2/1 pieces) are added after the loop.
 *
 * Not tried: Laight's 3-instruction variant (rotating the counter's high bits into %cx) and
 * `loop`, which that thread reports as slow on Intel and fast on recent AMD.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86/x86_adc.h"

/* acc + the `quads` (even, >= 2) quadwords that end at `end`, in one carry chain. */
static inline uint64_t adc_loop_flag_neutral(uint64_t acc, const unsigned char *end,
                                             size_t quads)
{
    uint64_t index = -(uint64_t)quads;
    __asm__("clc\n"
            "1:\n\t"
            "adcq (%[end], %[i], 8), %[acc]\n\t"
            "adcq 8(%[end], %[i], 8), %[acc]\n\t"
            "lea 2(%[i]), %[i]\n\t"
            "jrcxz 2f\n\t"
            "jmp 1b\n"
            "2:\n\t"
            "adcq $0, %[acc]"
            : [acc] "+r"(acc), [i] "+c"(index)
            : [end] "r"(end)
            : "cc", "memory");
    return acc;
}

X86_ROW_ENTRY static csum_wsum csum_partial_laight(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    uint64_t acc = sum;
    size_t pairs = len >> 4;

    if (pairs) {
        p += pairs * 16;
        acc = adc_loop_flag_neutral(acc, p, pairs * 2);
    }
    if (len & 8) {
        acc = x86_chain_q1(acc, p);
        p += 8;
    }
    if (len & 7)
        acc = x86_add_ec64(acc, x86_tail_safe(p + (len & 7), len, len));
    return x86_fold64_rotate(acc);
}

const struct csum_kernel csum_kernel_x86_laight = {
    CSUM_REFERENCE_NAME("x86-laight"),
    .sum.partial = csum_partial_laight,
    .sum.description = "Laight's flag-neutral loop (Herbert 2016 review): 2 adc per iteration, "
                       "lea/jrcxz counter keeps one carry chain; in-bounds tail",
};
