/*
 * The portable summing loop, written once for csum_partial's and csum_partial_copy's generic
 * rows: with dst == NULL it only sums; otherwise every word it loads is also stored at the same
 * offset of dst. Always inlined with a constant dst-or-not.
 *
 * Algorithm (RFC 1071 section 2, "deferred carries" and "parallel summation"): add the buffer
 * as 64-bit words. Since 2^16 = 1 (mod 0xffff), a 64-bit word is congruent to the sum of its
 * four 16-bit words, so summing wide words and folding at the end gives the same checksum as
 * summing 16-bit words. Each 64-bit add may carry out; the carry is worth 2^64 = 1 (mod 0xffff),
 * so we count carries in a separate register instead of feeding them back at once. Four
 * independent accumulator/carry pairs keep the dependency chains short, so a superscalar core
 * overlaps them (on x86 the compiler turns each pair into add + adc).
 *
 * Loads and stores go through memcpy (no alignment or aliasing assumptions, one instruction on
 * every target that allows unaligned access). The tail below 8 bytes is assembled from 4/2/1-byte
 * pieces: nothing outside [p, p + len) is read, nothing outside [dst, dst + len) is written.
 * Counters are size_t and carry counts are 64-bit, so any length is fine, above 4 GiB included.
 *
 * The result depends only on the bytes, never on the addresses: there is no alignment handling.
 */
#ifndef CSUM_SUM_GENERIC_H
#define CSUM_SUM_GENERIC_H

#include "csum_internal.h"

/* Load the word at offset i (storing it at dst + i when copying); s += it, counting the carry
 * out of bit 63 in c. */
#define GENERIC_STEP(s, c, i)                      \
    do {                                           \
        uint64_t v_ = csum_load64(p + (i));        \
        if (dst)                                   \
            csum_store64(dst + (i), v_);           \
        (s) += v_;                                 \
        (c) += (s) < v_;                           \
    } while (0)

CSUM_ALWAYS_INLINE csum_wsum csum_generic_sum(unsigned char *dst, const unsigned char *p,
                                              size_t len, csum_wsum sum)
{
    uint64_t s0 = sum, s1 = 0, s2 = 0, s3 = 0;
    uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    size_t i = 0;

    for (; len - i >= 64; i += 64) {
        GENERIC_STEP(s0, c0, i + 0);
        GENERIC_STEP(s1, c1, i + 8);
        GENERIC_STEP(s2, c2, i + 16);
        GENERIC_STEP(s3, c3, i + 24);
        GENERIC_STEP(s0, c0, i + 32);
        GENERIC_STEP(s1, c1, i + 40);
        GENERIC_STEP(s2, c2, i + 48);
        GENERIC_STEP(s3, c3, i + 56);
    }
    if (len & 32) {
        GENERIC_STEP(s0, c0, i + 0);
        GENERIC_STEP(s1, c1, i + 8);
        GENERIC_STEP(s2, c2, i + 16);
        GENERIC_STEP(s3, c3, i + 24);
        i += 32;
    }
    if (len & 16) {
        GENERIC_STEP(s0, c0, i + 0);
        GENERIC_STEP(s1, c1, i + 8);
        i += 16;
    }
    if (len & 8) {
        GENERIC_STEP(s2, c2, i);
        i += 8;
    }
    uint64_t tail = csum_tail_copy_sum7(csum_dst_at(dst, i), p + i, len & 7);
    s3 += tail;
    c3 += s3 < tail;

    /* Each carry count is at most len/8 < 2^61, so their sum cannot overflow. */
    uint64_t total = csum_add64(csum_add64(s0, s1), csum_add64(s2, s3));
    total = csum_add64(total, c0 + c1 + c2 + c3);
    return csum_fold64(total);
}

#undef GENERIC_STEP

#endif /* CSUM_SUM_GENERIC_H */
