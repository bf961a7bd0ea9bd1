/*
 * x86-2stream: two independent plain adc chains (van de Ven 2021 in docs/SOURCES.md, the "two streams without
 * ADX" step, generalised from 40 bytes to any length).
 *
 * Algorithm: there is one carry flag, but an out-of-order core renames it, so two chains that
 * each begin with `add` (no carry in) do not depend on each other and run side by side. Each
 * 64-byte block is split into two 32-byte chains with their own accumulators; 32- and 16-byte
 * remainders are split the same way, 8 bytes and the 1..7-byte tail (in-bounds: backward load
 * or 4/2/1 pieces) go to one accumulator each. The accumulators are added at the end.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "x86/x86_adc.h"

X86_ROW_ENTRY static csum_wsum csum_partial_2stream(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    const size_t whole = len;
    uint64_t a = sum, b = 0;

    for (; len >= 64; len -= 64, p += 64) {
        a = x86_chain_q4(a, p);
        b = x86_chain_q4(b, p + 32);
    }
    if (len & 32) {
        a = x86_chain_q2(a, p);
        b = x86_chain_q2(b, p + 16);
        p += 32;
    }
    if (len & 16) {
        a = x86_chain_q1(a, p);
        b = x86_chain_q1(b, p + 8);
        p += 16;
    }
    return x86_finish_two(a, b, p, len, whole);
}

const struct csum_kernel csum_kernel_x86_2stream = {
    CSUM_REFERENCE_NAME("x86-2stream"),
    .sum.partial = csum_partial_2stream,
    .sum.description = "two independent plain add/adc chains per 64/32/16 bytes (van de Ven 2021 "
                       "\"two streams\" step, any length); in-bounds tail",
};
