/*
 * Tunnels in UDP, found by destination port: VXLAN (RFC 7348: an 8-byte header, then
 * Ethernet), VXLAN-GPE (draft-ietf-nvo3-vxlan-gpe: the header's last byte of the first word
 * names the payload) and Geneve (RFC 8926: options, then the payload by EtherType). The
 * span's level and via were set by the UDP dissector. A header cut by the capture hides what
 * it carries, as a link layer's does: the packet is given up (span_need), truncated, or
 * malformed when the UDP datagram itself is shorter than the header.
 */
#include "dissect.h"
#include "bytes.h"

void dissect_vxlan(struct dissect *d, struct span s)
{
    struct span inner;
    if (span_need(d, &s, 8) && span_enter(d, &s, 8, &inner))
        dissect_ethernet(d, inner);
}

void dissect_vxlan_gpe(struct dissect *d, struct span s)
{
    struct span inner;
    if (!span_need(d, &s, 8) || !span_enter(d, &s, 8, &inner))
        return;
    const unsigned char *h = d->data + s.off;
    if (!(h[0] & 0x04)) { /* no P bit: the payload is Ethernet, as in VXLAN */
        dissect_ethernet(d, inner);
        return;
    }
    switch (h[3]) {
    case 1: case 2: dissect_ip(d, inner); break;      /* IPv4, IPv6 */
    case 3: dissect_ethernet(d, inner); break;
    case 5: dissect_mpls(d, inner); break;
    default: break;                                   /* NSH and others */
    }
}

void dissect_geneve(struct dissect *d, struct span s)
{
    if (!span_need(d, &s, 8))
        return;
    const unsigned char *h = d->data + s.off;
    if (h[0] >> 6 != 0)
        return; /* only version 0 is defined */
    const size_t n = 8 + 4 * (size_t)(h[0] & 0x3f); /* options, in 4-byte words */
    struct span inner;
    if (span_need(d, &s, n) && span_enter(d, &s, n, &inner))
        dissect_ethertype(d, be16(h + 2), inner); /* 0x6558: Ethernet */
}
