/*
 * The IPv4 header checksum (RFC 791), one header or many.
 */
#include "proto/proto_internal.h"

csum_sum16 csum_ipv4_header(const void *iph, unsigned ihl)
{
    if (ihl < 5 || ihl > 15)
        return CSUM_IPV4_BAD_IHL; /* documented: no valid-length header folds to 0xffff */
    return csum_inline_fold(csum_ipv4_header_sum(iph, ihl));
}

void csum_ipv4_header_batch_generic(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char *iph = hdrs[i];
        out[i] = csum_ipv4_header(iph, iph[0] & 15u);
    }
}

const struct csum_ipv4_batch_variant csum_ipv4_batch_variants[] = {
#if defined(__x86_64__)
    { "avx512", csum_ipv4_header_batch_avx512,
      CSUM_CPU_AVX512F | CSUM_CPU_AVX512BW | CSUM_CPU_BMI2 },
#endif
    { "generic", csum_ipv4_header_batch_generic, 0 },
};

const size_t csum_ipv4_batch_variant_count =
    sizeof csum_ipv4_batch_variants / sizeof csum_ipv4_batch_variants[0];

/* Below this many headers a SIMD step costs more than the headers one by one (the lab's
 * batch table: about 12 ticks for a batch of one through the AVX-512 variant, 4 alone). */
enum { BATCH_MIN = 8 };

void csum_ipv4_header_batch(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    if (n < BATCH_MIN) {
        csum_ipv4_header_batch_generic(hdrs, n, out);
        return;
    }
    /* csum_cpu_features() is one cached load, cheaper than a single header. */
    const uint32_t have = csum_cpu_features();
    const struct csum_ipv4_batch_variant *v = csum_ipv4_batch_variants;
    while ((have & v->cpu_features) != v->cpu_features)
        v++; /* the last row needs nothing */
    v->fn(hdrs, n, out);
}
