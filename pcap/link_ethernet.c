/*
 * Ethernet and what an EtherType leads to: 802.1Q / 802.1ad tags (any number), 802.3 frames
 * with an 802.2 LLC / SNAP header, MPLS, PPPoE sessions (RFC 2516), MACsec (IEEE 802.1AE:
 * frames with integrity only are followed, encrypted ones skipped), and IPv4 / IPv6.
 */
#include "dissect.h"
#include "bytes.h"
#include "protocols.h"

enum {
    MACSEC_ICV = 16,              /* the default cipher suites' integrity check value */
};

/* MACsec SecTAG: TCI/AN, short length, packet number, and the SCI when the SC bit says so;
 * then the frame's own EtherType and data, then the ICV. */
static void macsec(struct dissect *d, struct span s)
{
    if (!span_need(d, &s, 6))
        return;
    const unsigned char tci = d->data[s.off], short_len = d->data[s.off + 1] & 0x3f;
    if (tci & 0x08) { /* E: the data is encrypted */
        dissect_skip(d, CSUM_PCAP_SKIP_MACSEC_ENCRYPTED);
        return;
    }
    const size_t tag = tci & 0x20 ? 14 : 6;
    struct span inner;
    if (!span_need(d, &s, tag + 2) || !span_enter(d, &s, tag, &inner))
        return;
    /* The secure data ends before the ICV; a short length (under 48) gives it exactly. */
    if (short_len)
        inner.end = inner.off + short_len < s.end ? inner.off + short_len : s.end;
    else
        inner.end = s.end - inner.off >= MACSEC_ICV + 2 ? s.end - MACSEC_ICV : s.end;
    const uint16_t type = be16(d->data + inner.off);
    struct span data;
    if (span_enter(d, &inner, 2, &data))
        dissect_ethertype(d, type, data);
}

void dissect_pppoe_session(struct dissect *d, struct span s)
{
    if (!span_need(d, &s, 6))
        return;
    const size_t len = be16(d->data + s.off + 4);
    struct span inner;
    if (!span_enter(d, &s, 6, &inner))
        return;
    if (inner.off + len < inner.end)
        inner.end = inner.off + len;
    dissect_ppp(d, inner);
}

void dissect_ethertype(struct dissect *d, uint16_t type, struct span s)
{
    struct span inner;
    switch (type) {
    case ETHERTYPE_IPV4:
    case ETHERTYPE_IPV6:
        dissect_ip(d, s);
        break;
    case ETHERTYPE_VLAN:
    case ETHERTYPE_QINQ:
    case ETHERTYPE_QINQ_OLD:
        /* The tag control field, then the next EtherType (or an 802.3 length). */
        if (span_need(d, &s, 4) && span_enter(d, &s, 4, &inner)) {
            const uint16_t next = be16(d->data + s.off + 2);
            if (next >= 0x0600) {
                dissect_ethertype(d, next, inner);
            } else if (next <= 1500) {
                if (inner.off + next < inner.end)
                    inner.end = inner.off + next;
                dissect_llc(d, inner);
            }
        }
        break;
    case ETHERTYPE_MPLS:
    case ETHERTYPE_MPLS_MULTICAST:
        dissect_mpls(d, s);
        break;
    case ETHERTYPE_PPPOE_SESSION:
        dissect_pppoe_session(d, s);
        break;
    case ETHERTYPE_MACSEC:
        macsec(d, s);
        break;
    case ETHERTYPE_TEB:
        dissect_ethernet(d, s);
        break;
    case ETHERTYPE_PPP:
        dissect_ppp(d, s);
        break;
    default:
        break; /* ARP, LLDP, ...: no checksum of ours */
    }
}

void dissect_ethernet(struct dissect *d, struct span s)
{
    /* Destination and source addresses, then an EtherType (>= 0x0600) or an 802.3 length. */
    struct span inner;
    if (!span_need(d, &s, 14) || !span_enter(d, &s, 14, &inner))
        return;
    const uint16_t type = be16(d->data + s.off + 12);
    if (type >= 0x0600) {
        dissect_ethertype(d, type, inner);
    } else if (type <= 1500) {
        if (inner.off + type < inner.end)
            inner.end = inner.off + type;
        dissect_llc(d, inner);
    }
}

void dissect_llc(struct dissect *d, struct span s)
{
    /* SNAP (DSAP = SSAP = 0xaa, UI): an OUI of 0 (or 00-00-f8, 802.1H) means the protocol
     * identifier is an EtherType (RFC 1042). A header cut before its EtherType is given up
     * only if what was captured of it is SNAP's: another LLC header carries no IP, nor does
     * an empty frame. */
    static const unsigned char snap[6] = { 0xaa, 0xaa, 0x03, 0, 0, 0 };
    if (s.off >= s.end)
        return;
    for (size_t i = 0; i < 6 && span_has(d, &s, i + 1); i++) {
        const unsigned char b = d->data[s.off + i];
        if (b != snap[i] && !(i == 5 && b == 0xf8))
            return;
    }
    struct span inner;
    if (span_need(d, &s, 8) && span_enter(d, &s, 8, &inner))
        dissect_ethertype(d, be16(d->data + s.off + 6), inner);
}
