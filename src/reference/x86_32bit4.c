/*
 * x86-32bit4: four 32-bit add/adc chains (van de Ven 2021 in docs/SOURCES.md, the "32 bit only" step,
 * generalised from 40 bytes to any length).
 *
 * Algorithm: with 32-bit accumulators no 64 -> 32 fold is needed at the end, at the price of
 * twice as many additions; four independent chains (each starting with `add`, so they do not
 * wait for each other's carry) keep the extra additions off the critical path. Each 64-byte
 * block gives 16 bytes to each chain; 32- and 16-byte remainders are split four ways too,
 * 8 bytes two ways. The 1..7-byte tail (in-bounds: backward load or 4/2/1 pieces) is split into
 * its 32-bit halves. The four accumulators and the initial sum meet in one 32-bit chain.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86/x86_adc.h"

X86_ROW_ENTRY static csum_wsum csum_partial_32bit4(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    const size_t whole = len;
    uint32_t a = sum, b = 0, c = 0, d = 0;

    for (; len >= 64; len -= 64, p += 64) {
        a = x86_chain_l4(a, p);
        b = x86_chain_l4(b, p + 16);
        c = x86_chain_l4(c, p + 32);
        d = x86_chain_l4(d, p + 48);
    }
    if (len & 32) {
        a = x86_chain_l2(a, p);
        b = x86_chain_l2(b, p + 8);
        c = x86_chain_l2(c, p + 16);
        d = x86_chain_l2(d, p + 24);
        p += 32;
    }
    if (len & 16) {
        a = x86_chain_l1(a, p);
        b = x86_chain_l1(b, p + 4);
        c = x86_chain_l1(c, p + 8);
        d = x86_chain_l1(d, p + 12);
        p += 16;
    }
    if (len & 8) {
        a = x86_chain_l1(a, p);
        b = x86_chain_l1(b, p + 4);
        p += 8;
    }
    if (len & 7) {
        uint64_t tail = x86_tail_safe(p + (len & 7), len, whole);
        c = x86_add_ec32(c, (uint32_t)tail);
        d = x86_add_ec32(d, (uint32_t)(tail >> 32));
    }
    return x86_add_ec32(x86_add3_ec32(a, b, c), d);
}

const struct csum_kernel csum_kernel_x86_32bit4 = {
    CSUM_REFERENCE_NAME("x86-32bit4"),
    .sum.partial = csum_partial_32bit4,
    .sum.description = "four independent 32-bit add/adc chains, no 64->32 fold (van de Ven 2021 "
                       "\"32 bit only\" step, any length); in-bounds tail",
};
