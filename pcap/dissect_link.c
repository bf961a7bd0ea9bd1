/*
 * Link layers: find where the IP packet starts. Ethernet II with any number of 802.1Q /
 * 802.1ad tags, Linux cooked captures v1 and v2, raw IP and BSD loopback.
 */
#include "dissect.h"
#include "bytes.h"

enum {
    ETHERTYPE_IPV4 = 0x0800,
    ETHERTYPE_IPV6 = 0x86dd,
    ETHERTYPE_VLAN = 0x8100,   /* 802.1Q */
    ETHERTYPE_QINQ = 0x88a8,   /* 802.1ad service tag */
    ETHERTYPE_QINQ_OLD = 0x9100,
};

/*
 * An EtherType at `type_off` followed by the payload: skip VLAN tags (each is a 2-byte tag
 * control field and the next EtherType), then hand IPv4 and IPv6 to the IP layer.
 */
static void after_ethertype(const struct dissect *d, size_t type_off)
{
    size_t off = type_off;
    for (;;) {
        if (d->caplen < off + 2)
            return; /* the EtherType itself is not captured: nothing to check */
        uint16_t type = be16(d->data + off);
        if (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD) {
            off += 4; /* this type, the tag control field; the next type follows */
            continue;
        }
        if (type == ETHERTYPE_IPV4 || type == ETHERTYPE_IPV6)
            dissect_ip(d, off + 2);
        return;
    }
}

/* BSD loopback: the address family in the byte order of the machine that wrote the file. */
static void after_null_header(const struct dissect *d)
{
    if (d->caplen < 4)
        return;
    uint32_t family = le32(d->data);
    if (family > 0xffff)
        family = be32(d->data);
    /* AF_INET is 2 everywhere; AF_INET6 is 24 (NetBSD, OpenBSD), 28 (FreeBSD) or 30 (macOS). */
    if (family == 2 || family == 24 || family == 28 || family == 30)
        dissect_ip(d, 4);
}

int dissect_packet(const struct capture_packet *pkt, dissect_check_fn fn, void *ctx)
{
    const struct dissect d = {
        .data = pkt->data,
        .caplen = pkt->caplen,
        .wirelen = pkt->wirelen > pkt->caplen ? pkt->wirelen : pkt->caplen,
        .fn = fn,
        .ctx = ctx,
    };
    switch (pkt->linktype) {
    case LINKTYPE_ETHERNET:
        after_ethertype(&d, 12); /* destination and source MAC addresses first */
        return 0;
    case LINKTYPE_LINUX_SLL:
        after_ethertype(&d, 14); /* packet type, ARPHRD, address length, 8-byte address */
        return 0;
    case LINKTYPE_LINUX_SLL2:
        /* The protocol (an EtherType) is the first field of the 20-byte header; the payload
         * follows the whole header. A VLAN tag there is its tag control field and the next
         * EtherType. */
        if (d.caplen >= 20) {
            uint16_t type = be16(d.data);
            if (type == ETHERTYPE_IPV4 || type == ETHERTYPE_IPV6)
                dissect_ip(&d, 20);
            else if (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD)
                after_ethertype(&d, 22);
        }
        return 0;
    case LINKTYPE_RAW:
    case LINKTYPE_RAW_DLT12:
    case LINKTYPE_RAW_DLT14:
    case LINKTYPE_IPV4:
    case LINKTYPE_IPV6:
        dissect_ip(&d, 0);
        return 0;
    case LINKTYPE_NULL:
        after_null_header(&d);
        return 0;
    default:
        return -1;
    }
}
