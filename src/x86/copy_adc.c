/*
 * x86-adc copy: scalar x86-64, one add-with-carry chain, the shape of Linux's csum-copy
 * (arch/x86/lib/csum-copy_64.S) and of seed 000's "adc + dec/jnz" loop; our own code.
 *
 * Each 64-byte block is loaded into registers, stored, and added into one accumulator with
 * adc, so every carry goes straight back in. The loop counter is decremented with dec, which
 * leaves the carry flag alone: the chain runs across iterations and the pending carry is added
 * once at the end. For CPUs without AVX2, and as the scalar reference for the vector rows.
 * The last 0..63 bytes go through the generic copy loop (sum_generic.h), continuing the sum:
 * it copies exactly the bytes that are left.
 */
#include "../generic/sum_generic.h"

static csum_wsum csum_partial_copy_adc(void *dst, const void *src, size_t len, csum_wsum sum)
{
    size_t blocks = len / 64;
    if (blocks == 0)
        return csum_generic_sum(dst, src, len, sum);
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
    /* s and d now point just past the blocks. */
    return csum_generic_sum(d, s, len & 63, csum_fold64(acc));
}

const struct csum_copy_impl_entry csum_copy_impl_x86_adc = {
    .pub = {
        .name = "x86-adc",
        .description = "scalar x86-64: 64-byte blocks through registers, one adc chain kept "
                       "across iterations by dec/jnz (Linux csum-copy shape); generic tail",
        .copy = csum_partial_copy_adc,
        .requires = "",
        .nontemporal = 0,
    },
    .cpu_features = 0,
};
