/*
 * GRE: version 0 (RFC 2784 with RFC 2890's key and sequence number, and RFC 1701's source
 * route entries, walked over) and version 1, PPTP's enhanced GRE (RFC 2637) carrying PPP. The
 * optional checksum covers the GRE header and its payload, and is checked after the payload
 * (which a fix may change). ERSPAN (draft-foschiano-erspan, Cisco): type I is Ethernet right after a
 * GRE header without sequence number, type II an 8-byte header then Ethernet (protocol
 * 0x88be with a sequence number), type III a 12-byte header, plus an 8-byte platform
 * subheader when its O bit is set, then Ethernet (protocol 0x22eb). A GRE or ERSPAN header cut
 * by the capture gives the packet up (span_need, dissect_lost_transport), as a link layer's.
 */
#include "dissect.h"
#include "bytes.h"
#include "protocols.h"
#include "csum.h"

#include <string.h>

enum {
    GRE_C = 0x8000, GRE_R = 0x4000, GRE_K = 0x2000, GRE_S = 0x1000,
    GRE_A = 0x0080, /* version 1: acknowledgment number present */
};

static void payload(struct dissect *d, uint16_t flags, uint16_t proto, struct span s)
{
    if ((flags & 7) == 1) { /* PPTP */
        if (proto == ETHERTYPE_PPP)
            dissect_ppp(d, s);
        return;
    }
    struct span inner = s;
    switch (proto) {
    case ETHERTYPE_TEB:
        dissect_ethernet(d, s);
        break;
    case ETHERTYPE_ERSPAN_2:
        inner.via = CSUM_PCAP_VIA_ERSPAN;
        if (!(flags & GRE_S)) { /* type I: no ERSPAN header */
            dissect_ethernet(d, inner);
        } else if (span_need(d, &s, 8) && span_enter(d, &s, 8, &inner)) {
            inner.via = CSUM_PCAP_VIA_ERSPAN;
            dissect_ethernet(d, inner);
        }
        break;
    case ETHERTYPE_ERSPAN_3:
        if (span_need(d, &s, 12)) {
            const size_t n = d->data[s.off + 11] & 1 ? 20 : 12; /* O: platform subheader */
            if (span_need(d, &s, n) && span_enter(d, &s, n, &inner)) {
                inner.via = CSUM_PCAP_VIA_ERSPAN;
                dissect_ethernet(d, inner);
            }
        }
        break;
    default:
        dissect_ethertype(d, proto, s); /* IPv4, IPv6, MPLS, ... */
        break;
    }
}

void dissect_gre(struct dissect *d, const struct ip_info *ip, struct span s)
{
    if (!span_need(d, &s, 4))
        return;
    const unsigned char *h = d->data + s.off;
    const uint16_t flags = be16(h), proto = be16(h + 2);
    const unsigned version = flags & 7;
    if (version > 1) { /* undefined: RFC 2784 has receivers drop it */
        if (!s.quoted)
            dissect_skip(d, CSUM_PCAP_SKIP_MALFORMED);
        return;
    }
    size_t n = 4;
    if (flags & (GRE_C | GRE_R))
        n += 4;                   /* checksum, and reserved (RFC 1701: offset into the route) */
    if (flags & GRE_K)
        n += 4;                   /* key (version 1: payload length, call id) */
    if (flags & GRE_S)
        n += 4;
    if (version == 1 && (flags & GRE_A))
        n += 4;
    if (flags & GRE_R) {
        /* RFC 1701's source route: entries of address family (2), offset (1), length (1) and
         * that many bytes, up to one of family 0 and length 0. */
        for (;;) {
            if (!span_need(d, &s, n + 4))
                return;
            const unsigned char *sre = d->data + s.off + n;
            n += 4 + (size_t)sre[3];
            if (be16(sre) == 0 && sre[3] == 0)
                break;
        }
    }
    if (!span_need(d, &s, n))
        return;
    struct span inner;
    if (span_enter(d, &s, n, &inner)) {
        inner.level = ip->level + 1;
        inner.via = CSUM_PCAP_VIA_GRE;
        payload(d, flags, proto, inner);
    }
    if (!(flags & GRE_C) || version != 0)
        return;
    /* The checksum covers the GRE header and everything after it in the IP payload. */
    const size_t len = s.end - s.off;
    if (!have(d, s.off, len)) {
        dissect_not_checkable(d, ip->level, ip->via, CSUM_PCAP_GRE,
                              ip->quoted ? "quoted in an ICMP error: not all quoted" : "truncated");
        return;
    }
    h = d->data + s.off;
    csum_wsum sum = csum_partial(h, 4, 0);
    sum = csum_partial(h + 6, len - 6, sum);
    uint16_t stored_word;
    memcpy(&stored_word, h + 4, 2);
    const csum_sum16 verify = csum_fold(csum_add(sum, stored_word));
    const csum_sum16 value = csum_fold(sum);
    unsigned char vb[2];
    memcpy(vb, &value, 2);
    dissect_report(d, ip->level, ip->via, CSUM_PCAP_GRE, verify == 0 ? CSUM_PCAP_GOOD : CSUM_PCAP_BAD,
                   be16(h + 4), be16(vb), s.off + 4, NULL);
}
