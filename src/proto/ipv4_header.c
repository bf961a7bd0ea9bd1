/*
 * The IPv4 header checksum (RFC 791), one header, and the portable batch: header by header,
 * the generic kernel's batch entry (src/generic/generic.c). csum_ipv4_header_batch itself is
 * dispatched in src/dispatch.c.
 */
#include "proto/proto_internal.h"

/* The body of csum_ipv4_header, inlined into the batch loop too: a call per header (whose
 * caller must then save registers around it) doubled the cost of a batch of one. */
static inline csum_sum16 ipv4_header_checksum(const unsigned char *iph, unsigned ihl)
{
    if (ihl < 5 || ihl > 15)
        return CSUM_IPV4_BAD_IHL; /* documented: no valid-length header folds to 0xffff */
    return csum_inline_fold(csum_ipv4_header_sum(iph, ihl));
}

csum_sum16 csum_ipv4_header(const void *iph, unsigned ihl)
{
    /* A NULL header is a caller bug: the value that never verifies, never a crash. */
    if (__builtin_expect(iph == NULL, 0))
        return CSUM_IPV4_BAD_IHL;
    return ipv4_header_checksum(iph, ihl);
}

void csum_ipv4_header_batch_generic(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char *iph = hdrs[i];
        out[i] = ipv4_header_checksum(iph, iph[0] & 15u);
    }
}
