/*
 * x86-scalar: our best scalar x86-64 code (draft).
 */
#include "x86_adc.h"

static inline uint64_t sum_short(const unsigned char *p, size_t len)
{
    if (len >= 4)
        return (uint64_t)csum_load32(p) + ((uint64_t)csum_load32(p + len - 4) >> (8 * (8 - len)));
    if (len >= 2)
        return (uint64_t)csum_load16(p) + ((uint32_t)csum_load16(p + len - 2) >> (8 * (4 - len)));
    return len ? *p : 0;
}

static csum_wsum csum_partial_scalar(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    if (len < 8)
        return x86_fold64_add(sum_short(p, len), sum);

    size_t body = (len - 1) & ~(size_t)7;
    uint64_t a = x86_tail_backward(p + len, (unsigned)(len - body)), b = 0;
    for (; body >= 64; body -= 64, p += 64) {
        a = x86_chain_q4(a, p);
        b = x86_chain_q4(b, p + 32);
    }
    if (body & 32) {
        a = x86_chain_q4(a, p);
        p += 32;
    }
    if (body & 16) {
        b = x86_chain_q2(b, p);
        p += 16;
    }
    if (body & 8)
        a = x86_chain_q1(a, p);
    return x86_fold64_add(x86_add_ec64(a, b), sum);
}

const struct csum_impl_entry csum_impl_scalar = {
    .pub = {
        .name = "x86-scalar",
        .description = "draft",
        .partial = csum_partial_scalar,
        .requires = "",
    },
    .cpu_features = 0,
};
