/*
 * Serial and WAN links: PPP (RFC 1661) with or without HDLC-like framing (RFC 1662:
 * address 0xff, control 0x03, either possibly compressed away; a protocol field of one byte
 * when its first byte is odd), Cisco HDLC (address 0x0f or 0x8f, control 0, an EtherType),
 * Frame Relay (a Q.922 address of 2 to 4 bytes, then RFC 2427's multiprotocol encapsulation:
 * control 0x03, an optional pad, an NLPID, and SNAP for EtherTypes; or Cisco's encapsulation,
 * an EtherType right after the address) and SLIP (the 16-byte BSD header of direction and
 * compressed-header bytes, then the IP packet as it was before or after compression).
 */
#include "dissect.h"
#include "bytes.h"

enum {
    PPP_IPV4 = 0x0021, PPP_IPV6 = 0x0057, PPP_MPLS = 0x0281, PPP_MPLS_MULTICAST = 0x0283,
    NLPID_IPV4 = 0xcc, NLPID_IPV6 = 0x8e, NLPID_SNAP = 0x80,
    SLIP_HEADER = 16,
};

void dissect_ppp(struct dissect *d, struct span s)
{
    struct span inner = s;
    /* An address byte whose control byte the capture cut could be taken for a one-byte
     * protocol (0xff is odd): what follows is not known. */
    if (span_has(d, &inner, 1) && d->data[inner.off] == 0xff && inner.end - inner.off >= 2 &&
        !span_need(d, &inner, 2))
        return;
    if (span_has(d, &inner, 2) && d->data[inner.off] == 0xff && d->data[inner.off + 1] == 0x03)
        inner.off += 2; /* address and control */
    if (!span_need(d, &inner, 1))
        return;
    uint16_t protocol;
    if (d->data[inner.off] & 1) { /* protocol field compression: one byte */
        protocol = d->data[inner.off];
        inner.off += 1;
    } else {
        if (!span_need(d, &inner, 2))
            return;
        protocol = be16(d->data + inner.off);
        inner.off += 2;
    }
    if (!span_enter(d, &inner, 0, &inner))
        return;
    switch (protocol) {
    case PPP_IPV4:
    case PPP_IPV6:
        dissect_ip(d, inner);
        break;
    case PPP_MPLS:
    case PPP_MPLS_MULTICAST:
        dissect_mpls(d, inner);
        break;
    default:
        break; /* LCP, IPCP, compressed datagrams, ... */
    }
}

void dissect_chdlc(struct dissect *d, struct span s)
{
    struct span inner;
    if (span_need(d, &s, 4) && span_enter(d, &s, 4, &inner))
        dissect_ethertype(d, be16(d->data + s.off + 2), inner);
}

void dissect_frelay(struct dissect *d, struct span s)
{
    /* The Q.922 address ends with the byte whose EA bit (bit 0) is set. */
    size_t n = 0;
    do {
        if (n == 4 || !span_need(d, &s, n + 1))
            return;
    } while (!(d->data[s.off + n++] & 1));
    if (n < 2 || !span_need(d, &s, n + 2))
        return;
    const unsigned char *p = d->data + s.off + n;
    struct span inner;
    if (p[0] != 0x03) { /* Cisco's encapsulation: an EtherType */
        if (span_enter(d, &s, n + 2, &inner))
            dissect_ethertype(d, be16(p), inner);
        return;
    }
    n += 1;
    if (p[1] == 0x00) /* pad before the NLPID */
        n += 1;
    if (!span_need(d, &s, n + 1))
        return;
    const unsigned nlpid = d->data[s.off + n];
    n += 1;
    if (nlpid == NLPID_IPV4 || nlpid == NLPID_IPV6) {
        if (span_enter(d, &s, n, &inner))
            dissect_ip(d, inner);
    } else if (nlpid == NLPID_SNAP && span_need(d, &s, n + 5)) {
        p = d->data + s.off + n;
        if (p[0] == 0 && p[1] == 0 && p[2] == 0 && span_enter(d, &s, n + 5, &inner))
            dissect_ethertype(d, be16(p + 3), inner); /* OUI 0: the PID is an EtherType */
    }
}

void dissect_slip(struct dissect *d, struct span s)
{
    /* BSD taps SLIP with the uncompressed packet after the header (and the compressed TCP
     * header, when it was sent compressed, inside the header). */
    struct span inner;
    if (span_need(d, &s, SLIP_HEADER) && span_enter(d, &s, SLIP_HEADER, &inner))
        dissect_ip(d, inner);
}
