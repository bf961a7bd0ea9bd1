/*
 * Link "headers" that capture software writes rather than a wire carries: BSD loopback
 * (LINKTYPE_NULL: the address family in the writer's byte order; LINKTYPE_LOOP: in network
 * order), Linux cooked captures v1 and v2 (SLL, SLL2), Apple's PKTAP (a header naming the
 * link type that follows) and Linux NFLOG (netlink attributes, one of which is the packet).
 */
#include "dissect.h"
#include "bytes.h"

enum {
    SLL_PROTOCOL_LLC = 0x0004, /* ETH_P_802_2: an 802.2 LLC frame follows */
    PKTAP_PACKET = 1,          /* PTH_TYPE_PACKET */
    NFULA_PAYLOAD = 9,
};

void dissect_null(struct dissect *d, struct span s)
{
    if (!span_need(d, &s, 4))
        return;
    uint32_t family = le32(d->data + s.off);
    if (family > 0xffff)
        family = be32(d->data + s.off);
    /* AF_INET is 2 everywhere; AF_INET6 is 24 (NetBSD, OpenBSD), 28 (FreeBSD) or 30 (macOS). */
    struct span inner;
    if ((family == 2 || family == 24 || family == 28 || family == 30) && span_enter(d, &s, 4, &inner))
        dissect_ip(d, inner);
}

static void sll_protocol(struct dissect *d, uint16_t protocol, struct span s)
{
    if (protocol == SLL_PROTOCOL_LLC)
        dissect_llc(d, s);
    else
        dissect_ethertype(d, protocol, s); /* also GRE's protocol type on ARPHRD_IPGRE */
}

void dissect_sll(struct dissect *d, struct span s)
{
    /* Packet type, ARPHRD type, address length, 8 address bytes, protocol. */
    struct span inner;
    if (span_need(d, &s, 16) && span_enter(d, &s, 16, &inner))
        sll_protocol(d, be16(d->data + s.off + 14), inner);
}

void dissect_sll2(struct dissect *d, struct span s)
{
    /* Protocol first, then reserved, interface index, ARPHRD type, packet type, address
     * length and 8 address bytes: 20 bytes. */
    struct span inner;
    if (span_need(d, &s, 20) && span_enter(d, &s, 20, &inner))
        sll_protocol(d, be16(d->data + s.off), inner);
}

void dissect_pktap(struct dissect *d, struct span s)
{
    /* Little-endian header length, record type and the DLT of what follows. */
    if (!span_need(d, &s, 12))
        return;
    const unsigned char *h = d->data + s.off;
    const uint32_t len = le32(h);
    struct span inner;
    if (len >= 12 && le32(h + 4) == PKTAP_PACKET && span_need(d, &s, len) &&
        span_enter(d, &s, len, &inner))
        dissect_linktype(d, le32(h + 8), inner);
}

void dissect_nflog(struct dissect *d, struct span s)
{
    /* Family, version, resource id; then TLVs whose length and type are in the writer's
     * byte order (the length counts the 4-byte TLV header; TLVs are padded to 4). A TLV
     * header cut by the capture hides where the payload is. */
    size_t off = s.off + 4;
    if (!span_need(d, &s, 4))
        return;
    int big = -1;
    while (off + 4 <= s.end) {
        if (!have(d, off, 4)) {
            dissect_lost_transport(d, &s, off, 4, s.end);
            return;
        }
        const unsigned char *t = d->data + off;
        if (big < 0) /* the first TLV decides: the byte order in which its length fits */
            big = le16(t) < 4 || off + le16(t) > s.end;
        const size_t len = file16(t, big);
        const unsigned type = file16(t + 2, big) & 0x3fff; /* without netlink's flag bits */
        if (len < 4 || off + len > s.end)
            return;
        if (type == NFULA_PAYLOAD) {
            struct span inner = s;
            inner.off = off + 4;
            inner.end = off + len;
            if (span_enter(d, &inner, 0, &inner))
                dissect_ip(d, inner);
            return;
        }
        off += (len + 3) & ~(size_t)3;
    }
}
