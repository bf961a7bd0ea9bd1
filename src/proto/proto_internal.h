/*
 * Pieces shared by the protocol helpers (src/proto/) and the kernels' IPv4 header batches.
 */
#ifndef CSUM_PROTO_INTERNAL_H
#define CSUM_PROTO_INTERNAL_H

#include "csum_internal.h"

/*
 * The unfolded sum of an IPv4 header of ihl (5..15) 32-bit words. Headers are short and of
 * few lengths, so a dedicated inline sum beats an indirect call to csum_partial (Alexander
 * Duyck's suggestion in the 2016 csum_partial review: inline sums for fixed-length headers).
 * Up to fifteen 32-bit words cannot overflow a 64-bit accumulator, so no carries are handled
 * until the final fold (RFC 1071's deferred carries).
 */
static inline csum_wsum csum_ipv4_header_sum(const unsigned char *iph, unsigned ihl)
{
    uint64_t s = (uint64_t)csum_load32(iph) + csum_load32(iph + 4) + csum_load32(iph + 8) +
                 csum_load32(iph + 12) + csum_load32(iph + 16);
    for (unsigned i = 5; i < ihl; i++)
        s += csum_load32(iph + 4 * i);
    return csum_fold64(s);
}

/*
 * A host-order number as the 32-bit big-endian field that carries it in a packet, read back
 * as a host-order word: what csum_partial would add for those four bytes (htonl).
 */
static inline uint32_t csum_be32_field(uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return v;
#else
    return __builtin_bswap32(v);
#endif
}

/* csum_ipv4_header_batch header by header (src/proto/ipv4_header.c): the generic kernel's batch,
 * and the SIMD batches' way with a few leftover headers. */
void csum_ipv4_header_batch_generic(const void *const *hdrs, size_t n, csum_sum16 *out);

#endif /* CSUM_PROTO_INTERNAL_H */
