/*
 * Seed 003's steps as 40-byte-only kernels, so the h40 table can put them side by side with
 * the library's rows. They handle exactly 40 bytes (the zero-sum one only an initial sum of 0),
 * so they are lab subjects checked at 40 bytes, never rows of the implementation table.
 * Written from the write-up's descriptions with the library's own adc building blocks.
 */
#include "lab.h"

#if defined(__x86_64__)
#include "x86/x86_adc.h"

/* "Unaligned removed": Dumazet's 32/8 split for 40 bytes, two closed chains, no odd-address
 * handling. */
static csum_wsum h40_no_odd(const void *buf, size_t len, csum_wsum sum)
{
    (void)len;
    uint64_t acc = x86_chain_q4(sum, buf);
    acc = x86_chain_q1(acc, (const unsigned char *)buf + 32);
    return x86_fold64_add(acc, 0);
}

/* "Dead code removed": one 5-quadword chain, one fold. */
static csum_wsum h40_one_chain(const void *buf, size_t len, csum_wsum sum)
{
    (void)len;
    return x86_fold64_add(x86_chain_q5(sum, buf), 0);
}

/* "Using ADX": quadwords 0-2 through adcx (carry flag), 3-4 through adox (overflow flag). */
static csum_wsum h40_adx(const void *buf, size_t len, csum_wsum sum)
{
    (void)len;
    const unsigned char *p = buf;
    uint64_t a, b, zero = 0;
    __asm__("xorl %k[a], %k[a]\n\t" /* clears CF and OF */
            "movq (%[src]), %[a]\n\t"
            "movq 24(%[src]), %[b]\n\t"
            "adcx 8(%[src]), %[a]\n\t"
            "adox 32(%[src]), %[b]\n\t"
            "adcx 16(%[src]), %[a]\n\t"
            "adcx %[z], %[a]\n\t"
            "adox %[z], %[b]"
            : [a] "=&r"(a), [b] "=&r"(b)
            : [src] "r"(p), [z] "r"(zero), "m"(*(const unsigned char(*)[40])p)
            : "cc");
    return x86_fold64_add(x86_add_ec64(a, b), sum);
}

/* "Two streams": the same split with two plain add/adc chains. */
static csum_wsum h40_two_streams(const void *buf, size_t len, csum_wsum sum)
{
    (void)len;
    const unsigned char *p = buf;
    uint64_t a = x86_chain_q2(csum_load64(p + 16), p);
    uint64_t b = x86_chain_q1(csum_load64(p + 24), p + 32);
    return x86_fold64_add(x86_add_ec64(a, b), sum);
}

/* "32 bit only": ten 32-bit words in four chains, no 64 -> 32 fold. */
static csum_wsum h40_32bit(const void *buf, size_t len, csum_wsum sum)
{
    (void)len;
    const unsigned char *p = buf;
    uint32_t a = x86_add_ec32(csum_load32(p + 0), csum_load32(p + 4));
    uint32_t b = x86_add_ec32(csum_load32(p + 8), csum_load32(p + 12));
    uint32_t c = x86_add_ec32(csum_load32(p + 16), csum_load32(p + 20));
    uint32_t d = x86_add3_ec32(csum_load32(p + 24), csum_load32(p + 28), csum_load32(p + 32));
    return x86_add3_ec32(x86_add3_ec32(a, b, csum_load32(p + 36)), c, x86_add_ec32(d, sum));
}

/* "Assume zero input": two streams with no initial sum to add (valid only for sum == 0). */
static csum_wsum h40_zero_sum(const void *buf, size_t len, csum_wsum sum)
{
    (void)len;
    (void)sum;
    const unsigned char *p = buf;
    uint64_t a = x86_chain_q2(csum_load64(p + 16), p);
    uint64_t b = x86_chain_q1(csum_load64(p + 24), p + 32);
    return x86_fold64_rotate(x86_add_ec64(a, b));
}

const struct lab_h40_kernel lab_h40_kernels[] = {
    { "40:no-odd", "unaligned removed", h40_no_odd, 0 },
    { "40:one-chain", "dead code removed", h40_one_chain, 0 },
    { "40:adx", "using ADX", h40_adx, 0 },
    { "40:2-stream", "two streams", h40_two_streams, 0 },
    { "40:32-bit", "32 bit only", h40_32bit, 0 },
    { "40:zero-sum", "assume zero input", h40_zero_sum, 1 },
    { NULL, NULL, NULL, 0 },
};
#else
const struct lab_h40_kernel lab_h40_kernels[] = { { NULL, NULL, NULL, 0 } };
#endif
