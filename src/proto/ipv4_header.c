/*
 * The IPv4 header checksum (RFC 791), one header, and the portable batch: header by header,
 * the generic kernel's batch entry (src/generic/generic.c). csum_ipv4_header_batch itself is
 * dispatched in src/dispatch.c.
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
