/*
 * van de Ven 2021's steps as 40-byte-only kernels, so the h40 table can put them side by side with
 * the library's rows. They handle exactly 40 bytes (the zero-sum one only an initial sum of 0),
 * so they are lab subjects checked at 40 bytes, never rows of the implementation table.
 * Written from the write-up's descriptions (Arjan van de Ven's 40-byte csum_partial series on
 * netdev, 2021) with the library's own adc building blocks.
 *
 * Each step comes twice: with the initial sum entering at the start of the chain ("/first")
 * and with it added in the final fold ("/last"). In latency mode, where every result is the
 * next call's initial sum, only what follows the seed is on the critical path: a seed-last
 * kernel overlaps all its loads and adds with the previous call. Both variants side by side
 * show how much of a step's gain is its chain layout and how much the seed's position.
 * Both use the same code: the seed-last variant starts its chains from 0.
 */
#include "lab.h"

#if defined(__x86_64__)
#include "x86/x86_adc.h"

/* "Unaligned removed": Dumazet's 32/8 split for 40 bytes, two closed chains, no odd-address
 * handling. */
static inline csum_wsum no_odd(const unsigned char *p, uint64_t first, uint32_t last)
{
    uint64_t acc = x86_chain_q4(first, p);
    acc = x86_chain_q1(acc, p + 32);
    return x86_fold64_add(acc, last);
}

/* "Dead code removed": one 5-quadword chain, one fold. */
static inline csum_wsum one_chain(const unsigned char *p, uint64_t first, uint32_t last)
{
    return x86_fold64_add(x86_chain_q5(first, p), last);
}

/* "Using ADX": quadwords 0-2 through adcx (carry flag), 3-4 through adox (overflow flag). */
static inline csum_wsum adx(const unsigned char *p, uint64_t first, uint32_t last)
{
    uint64_t a, b, zero = 0;
    __asm__("xorl %k[b], %k[b]\n\t" /* clears CF and OF */
            "movq %[first], %[a]\n\t"
            "movq 24(%[src]), %[b]\n\t"
            "adcx (%[src]), %[a]\n\t"
            "adox 32(%[src]), %[b]\n\t"
            "adcx 8(%[src]), %[a]\n\t"
            "adcx 16(%[src]), %[a]\n\t"
            "adcx %[z], %[a]\n\t"
            "adox %[z], %[b]"
            : [a] "=&r"(a), [b] "=&r"(b)
            : [src] "r"(p), [z] "r"(zero), [first] "r"(first),
              "m"(*(const unsigned char(*)[40])p)
            : "cc");
    return x86_fold64_add(x86_add_ec64(a, b), last);
}

/* "Two streams": the same split with two plain add/adc chains. */
static inline csum_wsum two_streams(const unsigned char *p, uint64_t first, uint32_t last)
{
    uint64_t a = x86_chain_q2(x86_chain_q1(first, p + 16), p);
    uint64_t b = x86_chain_q1(csum_load64(p + 24), p + 32);
    return x86_fold64_add(x86_add_ec64(a, b), last);
}

/* "32 bit only": ten 32-bit words in four chains, no 64 -> 32 fold. */
static inline csum_wsum bits32(const unsigned char *p, uint64_t first, uint32_t last)
{
    uint32_t a = x86_add3_ec32((uint32_t)first, csum_load32(p + 0), csum_load32(p + 4));
    uint32_t b = x86_add_ec32(csum_load32(p + 8), csum_load32(p + 12));
    uint32_t c = x86_add_ec32(csum_load32(p + 16), csum_load32(p + 20));
    uint32_t d = x86_add3_ec32(csum_load32(p + 24), csum_load32(p + 28), csum_load32(p + 32));
    return x86_add3_ec32(x86_add3_ec32(a, b, csum_load32(p + 36)), c, x86_add_ec32(d, last));
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

#define SEED_VARIANTS(core)                                                                  \
    static csum_wsum core##_first(const void *buf, size_t len, csum_wsum sum)                \
    {                                                                                        \
        (void)len;                                                                           \
        return core(buf, sum, 0);                                                            \
    }                                                                                        \
    static csum_wsum core##_last(const void *buf, size_t len, csum_wsum sum)                 \
    {                                                                                        \
        (void)len;                                                                           \
        return core(buf, 0, sum);                                                            \
    }
SEED_VARIANTS(no_odd)
SEED_VARIANTS(one_chain)
SEED_VARIANTS(adx)
SEED_VARIANTS(two_streams)
SEED_VARIANTS(bits32)

const struct lab_h40_kernel lab_h40_kernels[] = {
    { "40:no-odd/first", "unaligned removed", no_odd_first, 0, "first" },
    { "40:no-odd/last", "unaligned removed", no_odd_last, 0, "last" },
    { "40:one-chain/first", "dead code removed", one_chain_first, 0, "first" },
    { "40:one-chain/last", "dead code removed", one_chain_last, 0, "last" },
    { "40:adx/first", "using ADX", adx_first, 0, "first" },
    { "40:adx/last", "using ADX", adx_last, 0, "last" },
    { "40:2-stream/first", "two streams", two_streams_first, 0, "first" },
    { "40:2-stream/last", "two streams", two_streams_last, 0, "last" },
    { "40:32-bit/first", "32 bit only", bits32_first, 0, "first" },
    { "40:32-bit/last", "32 bit only", bits32_last, 0, "last" },
    { "40:zero-sum", "assume zero input", h40_zero_sum, 1, "none" },
    { NULL, NULL, NULL, 0, NULL },
};
#else
const struct lab_h40_kernel lab_h40_kernels[] = { { NULL, NULL, NULL, 0, NULL } };
#endif
