/*
 * Pseudo-header sums for TCP, UDP and ICMPv6 (RFC 793 section 3.1, RFC 768, RFC 8200
 * section 8.1), and UDP's rule for a computed zero.
 *
 * Every field is added as the host-order word(s) its stored bytes load as, the same way
 * csum_partial reads data, so the result composes with csum_partial on either endianness.
 * A 64-bit accumulator takes all the terms without carries; one csum_fold64 at the end.
 */
#include "proto/proto_internal.h"

csum_wsum csum_tcpudp_nofold(uint32_t saddr, uint32_t daddr, uint32_t len, uint8_t proto,
                             csum_wsum sum)
{
    /* The IPv4 pseudo-header's last word pair is zero, protocol, 16-bit length; writing the
     * protocol and the length as two 32-bit big-endian fields gives the same words for any
     * len <= 0xffff, and the IPv6 layout above that. */
    uint64_t s = (uint64_t)sum + saddr + daddr + csum_be32_field(len) + csum_be32_field(proto);
    return csum_fold64(s);
}

csum_sum16 csum_tcpudp_magic(uint32_t saddr, uint32_t daddr, uint32_t len, uint8_t proto,
                             csum_wsum sum)
{
    return csum_inline_fold(csum_tcpudp_nofold(saddr, daddr, len, proto, sum));
}

csum_sum16 csum_ipv6_magic(const void *saddr16, const void *daddr16, uint32_t len,
                           uint8_t proto, csum_wsum sum)
{
    const unsigned char *s8 = saddr16, *d8 = daddr16;
    uint64_t s = (uint64_t)sum + csum_be32_field(len) + csum_be32_field(proto);
    for (int i = 0; i < 16; i += 4)
        s += (uint64_t)csum_load32(s8 + i) + csum_load32(d8 + i);
    return csum_inline_fold(csum_fold64(s));
}

csum_sum16 csum_udp_fixup(csum_sum16 check)
{
    return check ? check : CSUM_MANGLED_0;
}
