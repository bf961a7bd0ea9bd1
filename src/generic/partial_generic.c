/*
 * generic: portable C, what every CPU without a special path runs.
 *
 * Algorithm (RFC 1071 section 2, "deferred carries" and "parallel summation"): add the buffer
 * as 64-bit words. Since 2^16 = 1 (mod 0xffff), a 64-bit word is congruent to the sum of its
 * four 16-bit words, so summing wide words and folding at the end gives the same checksum as
 * summing 16-bit words. Each 64-bit add may carry out; the carry is worth 2^64 = 1 (mod 0xffff),
 * so we count carries in a separate register instead of feeding them back at once. Four
 * independent accumulator/carry pairs keep the dependency chains short, so a superscalar core
 * overlaps them (on x86 the compiler turns each pair into add + adc).
 *
 * Loads go through memcpy (no alignment or aliasing assumptions, one instruction on every
 * target that allows unaligned access). The tail below 8 bytes is assembled from 4/2/1-byte
 * loads: nothing outside [buf, buf + len) is ever read. Counters are size_t and carry counts
 * are 64-bit, so any length is fine, including lengths above 4 GiB.
 *
 * The result depends only on the bytes, never on the address: there is no alignment handling.
 */
#include "csum_internal.h"

/* s += v, counting the carry out of bit 63 in c. */
#define ADD_COUNT_CARRY(s, c, v) \
    do {                         \
        uint64_t v_ = (v);       \
        (s) += v_;               \
        (c) += (s) < v_;         \
    } while (0)

static csum_wsum csum_partial_generic(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    uint64_t s0 = sum, s1 = 0, s2 = 0, s3 = 0;
    uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;

    for (; len >= 64; p += 64, len -= 64) {
        ADD_COUNT_CARRY(s0, c0, csum_load64(p + 0));
        ADD_COUNT_CARRY(s1, c1, csum_load64(p + 8));
        ADD_COUNT_CARRY(s2, c2, csum_load64(p + 16));
        ADD_COUNT_CARRY(s3, c3, csum_load64(p + 24));
        ADD_COUNT_CARRY(s0, c0, csum_load64(p + 32));
        ADD_COUNT_CARRY(s1, c1, csum_load64(p + 40));
        ADD_COUNT_CARRY(s2, c2, csum_load64(p + 48));
        ADD_COUNT_CARRY(s3, c3, csum_load64(p + 56));
    }
    if (len & 32) {
        ADD_COUNT_CARRY(s0, c0, csum_load64(p + 0));
        ADD_COUNT_CARRY(s1, c1, csum_load64(p + 8));
        ADD_COUNT_CARRY(s2, c2, csum_load64(p + 16));
        ADD_COUNT_CARRY(s3, c3, csum_load64(p + 24));
        p += 32;
    }
    if (len & 16) {
        ADD_COUNT_CARRY(s0, c0, csum_load64(p + 0));
        ADD_COUNT_CARRY(s1, c1, csum_load64(p + 8));
        p += 16;
    }
    if (len & 8) {
        ADD_COUNT_CARRY(s2, c2, csum_load64(p));
        p += 8;
    }
    ADD_COUNT_CARRY(s3, c3, csum_tail_sum7(p, len & 7));

    /* Each carry count is at most len/8 < 2^61, so their sum cannot overflow. */
    uint64_t total = csum_add64(csum_add64(s0, s1), csum_add64(s2, s3));
    total = csum_add64(total, c0 + c1 + c2 + c3);
    return csum_fold64(total);
}

const struct csum_impl_entry csum_impl_generic = {
    .pub = {
        .name = "generic",
        .description = "portable C: four 64-bit accumulators with carry counters, "
                       "safe 4/2/1-byte tail (RFC 1071 deferred carries)",
        .partial = csum_partial_generic,
        .requires = "",
    },
    .cpu_features = 0,
};
