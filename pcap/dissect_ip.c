/*
 * The IP layer and the checksums: the IPv4 header checksum (RFC 791), TCP and UDP over IPv4
 * and IPv6 with their pseudo-headers (RFC 793, RFC 768, RFC 8200 section 8.1), ICMP
 * (RFC 792, no pseudo-header) and ICMPv6 (RFC 4443, IPv6 pseudo-header).
 *
 * A checksum is checkable when every byte it covers was captured and the lengths that
 * delimit it are consistent; otherwise it is reported as not checkable with the reason,
 * never as bad. IP fragments: the IPv4 header is checked, the transport checksum of a
 * fragmented datagram is not checkable (it covers bytes of other packets).
 *
 * All arithmetic is the public csum.h API: csum_ipv4_header, csum_partial, csum_tcpudp_magic,
 * csum_ipv6_magic, csum_udp_fixup.
 */
#include "dissect.h"
#include "bytes.h"
#include "csum.h"

#include <string.h>

enum {
    IPPROTO_HOPOPTS_ = 0,
    IPPROTO_ICMP_ = 1,
    IPPROTO_TCP_ = 6,
    IPPROTO_UDP_ = 17,
    IPPROTO_ROUTING_ = 43,
    IPPROTO_FRAGMENT_ = 44,
    IPPROTO_AH_ = 51,
    IPPROTO_ICMPV6_ = 58,
    IPPROTO_DSTOPTS_ = 60,
    IPPROTO_SHIM6_ = 140,
};

/* What the transport checksums need from the IP header. */
struct ip_info {
    int version;
    const unsigned char *src, *dst; /* as stored; dst is the final destination */
};

static void report(const struct dissect *d, enum csum_pcap_layer layer,
                   enum csum_pcap_verdict verdict, uint16_t stored, uint16_t computed,
                   size_t field, const char *reason)
{
    const struct dissect_check c = { layer, verdict, stored, computed, field, reason };
    d->fn(d->ctx, &c);
}

void dissect_not_checkable(const struct dissect *d, enum csum_pcap_layer layer, const char *reason)
{
    report(d, layer, CSUM_PCAP_NOT_CHECKABLE, 0, 0, 0, reason);
}

/* A checksum as stored, as the number a protocol analyzer prints. */
static uint16_t network_value(csum_sum16 c)
{
    unsigned char b[2];
    memcpy(b, &c, 2);
    return be16(b);
}

/* ---- IPv4 header -------------------------------------------------------------------------- */

static void check_ipv4_header(const struct dissect *d, size_t off, unsigned ihl)
{
    const unsigned char *h = d->data + off;
    unsigned char zeroed[60]; /* the value to store is the sum with the field zeroed */
    memcpy(zeroed, h, ihl * 4);
    zeroed[10] = zeroed[11] = 0;
    const uint16_t computed = network_value(csum_ipv4_header(zeroed, ihl));
    const enum csum_pcap_verdict v = csum_ipv4_header(h, ihl) == 0 ? CSUM_PCAP_GOOD : CSUM_PCAP_BAD;
    report(d, CSUM_PCAP_IPV4, v, be16(h + 10), computed, off + 10, NULL);
}

/* ---- transport ---------------------------------------------------------------------------- */

struct transport_kind {
    enum csum_pcap_layer layer;
    size_t field;   /* checksum offset in its header */
    size_t min_len; /* bytes needed to reach the fields we read */
};

/* The checksummed transport carried as `proto`, or 0 when it is none we check. */
static int transport_kind(uint8_t proto, int version, struct transport_kind *k)
{
    switch (proto) {
    case IPPROTO_TCP_:
        *k = (struct transport_kind){ CSUM_PCAP_TCP, 16, 20 };
        return 1;
    case IPPROTO_UDP_:
        *k = (struct transport_kind){ CSUM_PCAP_UDP, 6, 8 };
        return 1;
    case IPPROTO_ICMP_:
        *k = (struct transport_kind){ CSUM_PCAP_ICMP, 2, 4 };
        return 1;
    case IPPROTO_ICMPV6_: /* its pseudo-header is IPv6's: meaningless over IPv4 */
        *k = (struct transport_kind){ CSUM_PCAP_ICMPV6, 2, 4 };
        return version == 6;
    default:
        return 0;
    }
}

/* The segment of `len` bytes at `off` (the IP payload after any extension headers). */
static void check_transport(const struct dissect *d, const struct ip_info *ip, uint8_t proto,
                            const struct transport_kind *k, size_t off, size_t len)
{
    const unsigned char *seg = d->data + off;
    if (len < k->min_len) {
        dissect_not_checkable(d, k->layer, "shorter than its header");
        return;
    }
    if (d->caplen < off + k->min_len) {
        dissect_not_checkable(d, k->layer, "truncated");
        return;
    }
    if (k->layer == CSUM_PCAP_UDP) {
        /* The UDP length delimits what its checksum covers; the IP payload may be longer. */
        const size_t ulen = be16(seg + 4);
        if (ulen < 8 || ulen > len) {
            dissect_not_checkable(d, k->layer, "bad UDP length");
            return;
        }
        len = ulen;
    } else if (k->layer == CSUM_PCAP_TCP) {
        const size_t doff = (size_t)(seg[12] >> 4) * 4;
        if (doff < 20 || doff > len) {
            dissect_not_checkable(d, k->layer, "bad TCP header length");
            return;
        }
    }
    if (d->caplen < off + len) {
        dissect_not_checkable(d, k->layer, "truncated");
        return;
    }

    /* Sum everything but the field (it sits at an even offset, so the two pieces continue
     * one sum); then the verdict adds the stored field back, the value to store does not. */
    csum_wsum s = csum_partial(seg, k->field, 0);
    s = csum_partial(seg + k->field + 2, len - k->field - 2, s);
    uint16_t stored_word;
    memcpy(&stored_word, seg + k->field, 2);
    const csum_wsum with_field = csum_add(s, stored_word);

    csum_sum16 verify, computed;
    if (k->layer == CSUM_PCAP_ICMP) {
        verify = csum_fold(with_field);
        computed = csum_fold(s);
    } else if (ip->version == 4) {
        uint32_t saddr, daddr;
        memcpy(&saddr, ip->src, 4);
        memcpy(&daddr, ip->dst, 4);
        verify = csum_tcpudp_magic(saddr, daddr, (uint32_t)len, proto, with_field);
        computed = csum_tcpudp_magic(saddr, daddr, (uint32_t)len, proto, s);
    } else {
        verify = csum_ipv6_magic(ip->src, ip->dst, (uint32_t)len, proto, with_field);
        computed = csum_ipv6_magic(ip->src, ip->dst, (uint32_t)len, proto, s);
    }

    enum csum_pcap_verdict v = verify == 0 ? CSUM_PCAP_GOOD : CSUM_PCAP_BAD;
    const uint16_t stored = be16(seg + k->field);
    if (k->layer == CSUM_PCAP_UDP) {
        computed = csum_udp_fixup(computed); /* a computed 0 is sent as 0xffff */
        if (stored == 0) /* "no checksum": allowed over IPv4 only (RFC 8200 section 8.1) */
            v = ip->version == 4 ? CSUM_PCAP_NO_CHECKSUM : CSUM_PCAP_BAD;
    }
    report(d, k->layer, v, stored, network_value(computed), off + k->field, NULL);
}

/*
 * The IP payload of `len` bytes at `off`, carrying `proto`. `problem` says why its transport
 * checksum cannot be checked (fragment, inconsistent lengths), or is NULL. Authentication
 * Headers (RFC 4302) in front of the transport are skipped.
 */
static void transport(const struct dissect *d, const struct ip_info *ip, uint8_t proto,
                      size_t off, size_t len, const char *problem)
{
    while (!problem && proto == IPPROTO_AH_) {
        if (len < 2 || d->caplen < off + 2)
            return; /* what follows is unknown: nothing to report */
        const size_t ah_len = ((size_t)d->data[off + 1] + 2) * 4;
        if (ah_len > len || d->caplen < off + ah_len)
            return;
        proto = d->data[off];
        off += ah_len;
        len -= ah_len;
    }
    struct transport_kind k;
    if (!transport_kind(proto, ip->version, &k))
        return;
    if (problem)
        dissect_not_checkable(d, k.layer, problem);
    else
        check_transport(d, ip, proto, &k, off, len);
}

/* ---- IPv4 --------------------------------------------------------------------------------- */

static void dissect_ipv4(const struct dissect *d, size_t off)
{
    if (d->caplen < off + 20) {
        dissect_not_checkable(d, CSUM_PCAP_IPV4, "truncated");
        return;
    }
    const unsigned char *h = d->data + off;
    const unsigned ihl = h[0] & 15u;
    const size_t total = be16(h + 2);
    if (ihl < 5) {
        dissect_not_checkable(d, CSUM_PCAP_IPV4, "bad header length");
        return;
    }
    /* A total length of 0 is what captures of segmentation-offloaded packets show. */
    if (total != 0 && total < ihl * 4) {
        dissect_not_checkable(d, CSUM_PCAP_IPV4, "bad total length");
        return;
    }
    if (d->caplen < off + ihl * 4) {
        dissect_not_checkable(d, CSUM_PCAP_IPV4, "truncated");
        return;
    }
    check_ipv4_header(d, off, ihl);

    const uint16_t frag = be16(h + 6);
    const char *problem = NULL;
    if (total == 0)
        problem = "IP total length 0 (segmentation offload?)";
    else if (off + total > d->wirelen)
        problem = "IP length beyond the frame";
    else if (frag & 0x3fff) /* more fragments, or a fragment offset */
        problem = "fragment";
    const struct ip_info ip = { 4, h + 12, h + 16 };
    transport(d, &ip, h[9], off + ihl * 4, total > ihl * 4 ? total - ihl * 4 : 0, problem);
}

/* ---- IPv6 --------------------------------------------------------------------------------- */

/*
 * With a Routing header that still has segments to visit, the pseudo-header holds the final
 * destination (RFC 8200 section 8.1): the last address of a type 0 header, the home address
 * of type 2 (RFC 6275), the first entry of a segment list (type 4, RFC 8754).
 */
static const unsigned char *final_destination(const unsigned char *rh, size_t rh_len,
                                              const unsigned char *dst)
{
    const unsigned type = rh[2], segments_left = rh[3];
    if (segments_left == 0 || rh_len < 8 + 16)
        return dst;
    switch (type) {
    case 0:
        return rh + 8 + 16 * ((rh_len - 8) / 16 - 1);
    case 2:
    case 4:
        return rh + 8;
    default:
        return dst;
    }
}

static void dissect_ipv6(const struct dissect *d, size_t off)
{
    if (d->caplen < off + 40)
        return; /* no header checksum, and the transport is not known */
    const unsigned char *h = d->data + off;
    const size_t plen = be16(h + 4);
    struct ip_info ip = { 6, h + 8, h + 24 };
    uint8_t next = h[6];
    size_t p = off + 40;
    const size_t end = p + plen;

    const char *problem = NULL;
    if (plen == 0)
        problem = "IPv6 payload length 0 (jumbogram or segmentation offload)";
    else if (end > d->wirelen)
        problem = "IP length beyond the frame";

    /* Walk the extension headers (RFC 8200 section 4). */
    while (!problem) {
        size_t ext_len;
        if (next == IPPROTO_HOPOPTS_ || next == IPPROTO_ROUTING_ || next == IPPROTO_DSTOPTS_ ||
            next == IPPROTO_SHIM6_ || next == IPPROTO_AH_) {
            if (end < p + 2 || d->caplen < p + 2)
                return; /* malformed or truncated: the transport is not known */
            ext_len = next == IPPROTO_AH_ ? ((size_t)d->data[p + 1] + 2) * 4
                                          : ((size_t)d->data[p + 1] + 1) * 8;
            if (end < p + ext_len || d->caplen < p + ext_len)
                return;
            if (next == IPPROTO_ROUTING_)
                ip.dst = final_destination(d->data + p, ext_len, ip.dst);
        } else if (next == IPPROTO_FRAGMENT_) {
            ext_len = 8;
            if (end < p + ext_len || d->caplen < p + ext_len)
                return;
            const uint16_t frag = be16(d->data + p + 2);
            if (frag & 0xfff9) /* a fragment offset, or more fragments */
                problem = "fragment";
        } else {
            break; /* the transport, or something we do not look into */
        }
        next = d->data[p];
        p += ext_len;
    }
    transport(d, &ip, next, p, end > p ? end - p : 0, problem);
}

void dissect_ip(const struct dissect *d, size_t off)
{
    if (d->caplen <= off)
        return;
    switch (d->data[off] >> 4) {
    case 4:
        dissect_ipv4(d, off);
        break;
    case 6:
        dissect_ipv6(d, off);
        break;
    default:
        break; /* not IP after all */
    }
}
