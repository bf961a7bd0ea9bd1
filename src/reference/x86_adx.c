/*
 * x86-adx: two carry chains at once with ADX (Arjan van de Ven's "Using ADX" step, van de Ven 2021 in docs/SOURCES.md,
 * generalised from 40 bytes to any length). Needs the ADX extension (Broadwell and later,
 * AMD Zen and later).
 *
 * Algorithm: adcx adds with the carry flag only and adox with the overflow flag only, so two
 * add-with-carry chains can be interleaved instruction by instruction without one waiting for
 * the other's flag. Per 64-byte block the even quadwords go through adcx into one accumulator
 * and the odd ones through adox into another; each chain is closed by adding a zero register
 * (neither instruction takes an immediate), and the `xor` that makes the zero also clears
 * both flags for the next block. 32- and 16-byte remainders use the same pairing, 8 bytes and
 * the 1..7-byte tail (in-bounds: backward load or 4/2/1 pieces) plain add/adc.
 */
#define CSUM_KERNEL_ISA adx
#include "kernel.h"

CSUM_TARGET_BEGIN
#include "x86/x86_adc.h"

#define ADX_PAIR(off_a, off_b)                  \
    "adcx " #off_a "(%[src]), %[a]\n\t"         \
    "adox " #off_b "(%[src]), %[b]\n\t"

/* Defines `static inline void name(uint64_t *a, uint64_t *b, const unsigned char *p)`. */
#define ADX_DEFINE_BLOCK(name, nbytes, pairs)                                          \
    static inline void name(uint64_t *a, uint64_t *b, const unsigned char *p)         \
    {                                                                                  \
        uint64_t zero;                                                                 \
        __asm__("xorl %k[z], %k[z]\n\t" pairs                                         \
                "adcx %[z], %[a]\n\t"                                                  \
                "adox %[z], %[b]"                                                      \
                : [a] "+r"(*a), [b] "+r"(*b), [z] "=&r"(zero)                          \
                : [src] "r"(p), "m"(*(const unsigned char(*)[nbytes])p)                \
                : "cc");                                                               \
    }

ADX_DEFINE_BLOCK(adx_block64, 64, ADX_PAIR(0, 8) ADX_PAIR(16, 24) ADX_PAIR(32, 40) ADX_PAIR(48, 56))
ADX_DEFINE_BLOCK(adx_block32, 32, ADX_PAIR(0, 8) ADX_PAIR(16, 24))
ADX_DEFINE_BLOCK(adx_block16, 16, ADX_PAIR(0, 8))

X86_ROW_ENTRY static csum_wsum csum_partial_adx(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    const size_t whole = len;
    uint64_t a = sum, b = 0;

    for (; len >= 64; len -= 64, p += 64)
        adx_block64(&a, &b, p);
    if (len & 32) {
        adx_block32(&a, &b, p);
        p += 32;
    }
    if (len & 16) {
        adx_block16(&a, &b, p);
        p += 16;
    }
    return x86_finish_two(a, b, p, len, whole);
}

CSUM_TARGET_END

const struct csum_kernel csum_kernel_x86_adx = {
    CSUM_REFERENCE_NAME("x86-adx"),
    .sum.partial = csum_partial_adx,
    .sum.description = "two carry chains with adcx/adox per 64/32/16 bytes (van de Ven 2021 \"ADX\" "
                       "step, any length); in-bounds tail",
};
