/*
 * The checksummed transports and what they carry: TCP (RFC 9293), UDP (RFC 768) and the
 * tunnels found by UDP port, ICMP (RFC 792) with the packet quoted in its errors and their
 * extension structure (RFC 4884), ICMPv6 (RFC 4443), IGMP, PIM, VRRP, OSPF, RSVP, DCCP and
 * UDP-Lite (RFC 3828), the IPv6 Mobility Header (RFC 6275), and the IP-level encapsulations (IP in IP, GRE).
 *
 * A checksum is checkable when every byte it covers was captured and the lengths that
 * delimit it are consistent; otherwise it is reported as not checkable with the reason,
 * never as bad. What a checksum covers is dissected (and, when fixing, corrected) before the
 * checksum itself is computed.
 *
 * Policy, as Wireshark's checksum validation decides (checked against tshark 4.0):
 *  - TCP: a stored 0xffff where 0x0000 is computed is bad, although the two are the same
 *    ones'-complement number (RFC 1624 section 3); CSUM_PCAP_ACCEPT_NEGATIVE_ZERO accepts it.
 *    ICMP, ICMPv6 and the IPv4 header accept it, as Wireshark does. A TCP data offset past
 *    the segment's end is still checked (the checksum covers the whole segment, whatever
 *    the header says); one below 20 bytes is not checkable.
 *  - UDP: a computed 0 is sent as 0xffff; a stored 0 means "none" over IPv4 and is bad over
 *    IPv6 (RFC 8200 section 8.1), but in a packet quoted in an ICMP error, where it is "none"
 *    over either.
 *  - The pseudo-header holds the final destination (ipv4.c, ipv6.c: source routes); when a
 *    malformed route hides it, TCP, UDP and ICMPv6 are not checkable.
 *  - Offload: a sending host whose NIC computes checksums leaves a placeholder in the field,
 *    which a capture on that host records: Linux stores the folded pseudo-header sum
 *    (CHECKSUM_PARTIAL), Windows' large send offload the same sum without the length. A bad
 *    TCP/UDP checksum equal to either is OFFLOAD, as is any bad checksum in a packet whose IP
 *    length is 0 (a segmentation-offload super-packet, its length presumed from the frame).
 *
 * All arithmetic is the public csum.h API.
 */
#include "dissect.h"
#include "bytes.h"
#include "protocols.h"
#include "csum.h"

#include <string.h>

/* A checksum as stored, as the number a protocol analyzer prints. */
static uint16_t network_value(csum_sum16 c)
{
    unsigned char b[2];
    memcpy(&b, &c, 2);
    return be16(b);
}

struct kind {
    enum csum_pcap_layer layer;
    size_t field;   /* checksum offset in its header */
    size_t min_len; /* bytes needed to reach the fields read */
    int pseudo;     /* the checksum covers the IP pseudo-header too */
};

/* Folded pseudo-header sum for `len` (what a sending host leaves for its NIC), network order. */
static uint16_t partial_sum(const struct ip_info *ip, uint8_t proto, uint32_t len)
{
    csum_sum16 m;
    if (ip->version == 4) {
        uint32_t saddr, daddr;
        memcpy(&saddr, ip->src, 4);
        memcpy(&daddr, ip->dst, 4);
        m = csum_tcpudp_magic(saddr, daddr, len, proto, 0);
    } else {
        m = csum_ipv6_magic(ip->src, ip->dst, len, proto, 0);
    }
    return (uint16_t)~network_value(m);
}

/* The checksum over pseudo-header (if any) and a segment summing to `sum`: 0 over a
 * segment as stored when intact, the value to store over one whose field is left out. */
static csum_sum16 finish(const struct ip_info *ip, const struct kind *k, uint8_t proto,
                         size_t len, csum_wsum sum)
{
    if (!k->pseudo)
        return csum_fold(sum);
    if (ip->version == 6)
        return csum_ipv6_magic(ip->src, ip->dst, (uint32_t)len, proto, sum);
    uint32_t saddr, daddr;
    memcpy(&saddr, ip->src, 4);
    memcpy(&daddr, ip->dst, 4);
    return csum_tcpudp_magic(saddr, daddr, (uint32_t)len, proto, sum);
}

/*
 * Whether a UDP checksum of 0 means none was computed: over IPv4 (RFC 768). Over IPv6 it is
 * invalid (RFC 8200 section 8.1; the tunnels RFC 6936 lets skip it are not told apart by a
 * capture, and Wireshark calls it illegal too) unless the caller says that zeros are
 * expected (CSUM_PCAP_IPV6_UDP_ZERO), and but in the packet an ICMP error quotes: a copy for
 * the sender to read (RFC 4443 section 2.4), never delivered, in which Wireshark ignores a
 * zero.
 */
static int udp_zero_is_none(const struct dissect *d, const struct ip_info *ip)
{
    return ip->version == 4 || ip->quoted || (d->opt->flags & CSUM_PCAP_IPV6_UDP_ZERO);
}

/* What a checksum covers, from the start of its header: `len` bytes but the `hole_len` at
 * `hole` (OSPFv2's authentication field), behind a pseudo-header whose length is
 * `pseudo_len` (DCCP's covers the whole packet's, the checksum maybe less). */
struct cover {
    size_t len, pseudo_len;
    size_t hole, hole_len; /* hole: even, past the checksum field; len when there is none */
};

/* The sum of seg[0, len) but for the a_len bytes at a and the b_len at b (a + a_len <= b):
 * pieces continuing one sum, each but the last starting and ending at even offsets. */
static csum_wsum sum_without(const unsigned char *seg, size_t len, size_t a, size_t a_len,
                             size_t b, size_t b_len)
{
    csum_wsum s = csum_partial(seg, a, 0);
    s = csum_partial(seg + a + a_len, b - a - a_len, s);
    return csum_partial(seg + b + b_len, len - b - b_len, s);
}

/* Check what `c` says the checksum at k->field of the header at off covers, all captured. */
static void check_cover(struct dissect *d, const struct ip_info *ip, uint8_t proto,
                        const struct kind *k, size_t off, const struct cover *c)
{
    const unsigned char *seg = d->data + off;
    const size_t len = c->pseudo_len;
    const uint16_t stored = be16(seg + k->field);
    const csum_sum16 verify = finish(ip, k, proto, len,
                                     sum_without(seg, c->len, c->hole, 0, c->hole, c->hole_len));
    /* The value to store is the stored one when it verifies, but for the two zeros: a stored
     * 0xffff may stand for 0x0000. Otherwise (and then) sum everything but the field (at an
     * even offset) and the hole. */
    uint16_t value = stored;
    if (verify != 0 || stored == 0xffff) {
        const csum_wsum s = sum_without(seg, c->len, k->field, 2, c->hole, c->hole_len);
        value = network_value(finish(ip, k, proto, len, s));
    }
    enum csum_pcap_verdict v = verify == 0 ? CSUM_PCAP_GOOD : CSUM_PCAP_BAD;
    const char *note = NULL;
    if (k->layer == CSUM_PCAP_TCP && v == CSUM_PCAP_GOOD && stored == 0xffff && value == 0 &&
        !(d->opt->flags & CSUM_PCAP_ACCEPT_NEGATIVE_ZERO)) {
        v = CSUM_PCAP_BAD;
        note = "0xffff for 0x0000: the same ones'-complement zero (RFC 1624), bad by "
               "Wireshark's rule";
    }
    /* Where a stored 0 means "none" (UDP, RFC 768; an ICMP extension, RFC 4884 section 7;
     * RSVP, RFC 2205 section 3.1.1), a computed 0 is sent as all ones, the other
     * ones'-complement zero: storing 0 would turn the checksum off. */
    if ((k->layer == CSUM_PCAP_UDP || k->layer == CSUM_PCAP_ICMP_EXT ||
         k->layer == CSUM_PCAP_RSVP || k->layer == CSUM_PCAP_UDPLITE) && value == 0)
        value = 0xffff;
    /* UDP-Lite sends a computed 0 as all ones too, but a stored 0 is never valid there (RFC 3828
     * section 3.1: "not permitted"), even where it verifies: bad (tshark 4.0: illegal). */
    if (k->layer == CSUM_PCAP_UDPLITE && stored == 0) {
        v = CSUM_PCAP_BAD;
        note = "0 is not permitted in UDP-Lite (RFC 3828 section 3.1)";
    }
    if (k->layer == CSUM_PCAP_UDP && stored == 0)
        v = udp_zero_is_none(d, ip) ? CSUM_PCAP_NO_CHECKSUM : CSUM_PCAP_BAD;
    if (v == CSUM_PCAP_BAD && stored != 0 &&
        (k->layer == CSUM_PCAP_TCP || k->layer == CSUM_PCAP_UDP) &&
        (stored == partial_sum(ip, proto, (uint32_t)len) || stored == partial_sum(ip, proto, 0))) {
        v = CSUM_PCAP_OFFLOAD;
        note = "the pseudo-header sum: a placeholder for checksum offload";
    } else if (v == CSUM_PCAP_BAD && ip->offload) {
        v = CSUM_PCAP_OFFLOAD;
        note = ip->offload;
    }
    dissect_report(d, ip->level, ip->via, k->layer, v, stored, value, off + k->field, note);
}

/* Check the segment [off, off + len), all captured, whose checksum sits at k->field. */
static void check(struct dissect *d, const struct ip_info *ip, uint8_t proto,
                  const struct kind *k, size_t off, size_t len)
{
    const struct cover c = { len, len, len, 0 };
    check_cover(d, ip, proto, k, off, &c);
}

/* Common checks before `check`: the header is there and the lengths hold together. Returns
 * the length the checksum covers, or 0 after reporting why it cannot be checked. */
static size_t checkable_length(struct dissect *d, const struct ip_info *ip,
                               const struct kind *k, size_t off, size_t len)
{
    const char *why = NULL;
    if (ip->problem)
        why = ip->problem;
    else if (ip->dst_unknown && k->pseudo)
        why = ip->dst_unknown;
    else if (len < k->min_len)
        why = "shorter than its header";
    else if (!have(d, off, k->min_len))
        why = ip->quoted ? "quoted in an ICMP error: header not all quoted" : "truncated";
    /* A data offset past the segment's end spoils the header, not the checksum, which covers
     * the whole segment however it is cut (RFC 9293 section 3.1): checked, as by Wireshark,
     * which gives up on one below the 20-byte minimum. */
    if (!why && k->layer == CSUM_PCAP_TCP && d->data[off + 12] >> 4 < 5)
        why = "bad TCP header length";
    if (!why && !have(d, off, len))
        why = ip->quoted ? "quoted in an ICMP error: not all quoted" : "truncated";
    if (why) {
        dissect_not_checkable(d, ip->level, ip->via, k->layer, why);
        return 0;
    }
    return len;
}

static int udp_port_in(uint16_t port, const uint16_t *ports, uint16_t standard)
{
    if (port == standard)
        return 1;
    for (int i = 0; i < CSUM_PCAP_MAX_PORTS && ports[i]; i++)
        if (ports[i] == port)
            return 1;
    return 0;
}

static void udp(struct dissect *d, const struct ip_info *ip, struct span s)
{
    static const struct kind k = { CSUM_PCAP_UDP, 6, 8, 1 };
    const size_t len = s.end - s.off;
    const int header = len >= 8 && have(d, s.off, 8);
    /* A stored 0 that says "no checksum" says it whatever else is missing, as long as the
     * field itself is there (as Wireshark says too). */
    const int none = udp_zero_is_none(d, ip) && !ip->later_fragment && header &&
                     be16(d->data + s.off + 6) == 0;
    size_t ulen = len;
    if (!ip->problem && header) {
        const unsigned char *h = d->data + s.off;
        ulen = be16(h + 4);
        if (ulen == 0 && len > 0xffff)
            ulen = len; /* a UDP jumbogram: the length is the IPv6 payload's (RFC 2675) */
        if (ulen < 8 || ulen > len) {
            if (none)
                dissect_report(d, ip->level, ip->via, CSUM_PCAP_UDP, CSUM_PCAP_NO_CHECKSUM, 0, 0,
                               s.off + 6, NULL);
            else
                dissect_not_checkable(d, ip->level, ip->via, CSUM_PCAP_UDP, "bad UDP length");
            return;
        }
        /* The tunnel inside first: the UDP checksum covers it. */
        const uint16_t dport = be16(h + 2);
        struct span inner;
        if (span_enter(d, &s, 8, &inner)) {
            inner.end = s.off + ulen;
            inner.level = ip->level + 1;
            if (udp_port_in(dport, d->opt->vxlan_ports, UDP_PORT_VXLAN)) {
                inner.via = CSUM_PCAP_VIA_VXLAN;
                dissect_vxlan(d, inner);
            } else if (dport == UDP_PORT_VXLAN_GPE) {
                inner.via = CSUM_PCAP_VIA_VXLAN_GPE;
                dissect_vxlan_gpe(d, inner);
            } else if (udp_port_in(dport, d->opt->geneve_ports, UDP_PORT_GENEVE)) {
                inner.via = CSUM_PCAP_VIA_GENEVE;
                dissect_geneve(d, inner);
            }
        }
    }
    if (none && (ip->problem || ip->dst_unknown || !have(d, s.off, ulen)))
        dissect_report(d, ip->level, ip->via, CSUM_PCAP_UDP, CSUM_PCAP_NO_CHECKSUM, 0, 0,
                       s.off + 6, NULL);
    else if (checkable_length(d, ip, &k, s.off, ulen))
        check(d, ip, IPPROTO_UDP_, &k, s.off, ulen);
}

/* ICMP errors that quote the offending packet after the 8-byte header. */
static int icmp_is_error(int version, uint8_t type)
{
    if (version == 4) /* unreachable, source quench, redirect, time exceeded, parameter problem */
        return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
    return type >= 1 && type <= 4; /* unreachable, too big, time exceeded, parameter problem */
}

/*
 * The extension structure [off, end) after an ICMP error's quote (RFC 4884 section 7): its
 * checksum, in its 4-byte header, covers it whole and no pseudo-header; a stored 0 means none
 * was sent (as Wireshark says too), so a computed 0 is stored as 0xffff, as UDP's is. Checked
 * before the ICMP checksum, which covers it.
 */
static void icmp_extension(struct dissect *d, const struct ip_info *ip, uint8_t proto,
                           size_t off, size_t end)
{
    static const struct kind k = { CSUM_PCAP_ICMP_EXT, 2, 4, 0 };
    if (be16(d->data + off + 2) == 0)
        return;
    if (checkable_length(d, ip, &k, off, end - off))
        check(d, ip, proto, &k, off, end - off);
}

static void icmp(struct dissect *d, const struct ip_info *ip, uint8_t proto, struct span s)
{
    const int v6 = proto == IPPROTO_ICMPV6_;
    const struct kind k = { v6 ? CSUM_PCAP_ICMPV6 : CSUM_PCAP_ICMP, 2, 4, v6 }; /* ICMP: none */
    const size_t len = s.end - s.off;
    size_t ext = 0;
    struct span inner;
    if (!ip->problem && len >= 8 && have(d, s.off, 8) &&
        icmp_is_error(v6 ? 6 : 4, d->data[s.off]) && span_enter(d, &s, 0, &inner)) {
        inner.level = ip->level + 1;
        inner.via = v6 ? CSUM_PCAP_VIA_ICMPV6 : CSUM_PCAP_VIA_ICMP;
        ext = dissect_icmp_quote(d, v6 ? 6 : 4, inner);
    }
    if (ext && !ip->quoted) /* in a quoted ICMP message, never checked, nor is its extension */
        icmp_extension(d, ip, proto, ext, s.end);
    if (ip->quoted && !ip->problem) /* complete, but still not checked by Wireshark */
        dissect_not_checkable(d, ip->level, ip->via, k.layer,
                              "an ICMP message quoted in an ICMP error is not checked");
    else if (checkable_length(d, ip, &k, s.off, len))
        check(d, ip, proto, &k, s.off, len);
}

/*
 * The routing protocols' messages, each checksum over the whole message:
 *  - IGMP (RFC 2236 section 2.3, RFC 3376 section 4.1.2), no pseudo-header;
 *  - PIM (RFC 7761 section 4.9), with IPv6's pseudo-header over IPv6 (none over IPv4), but a
 *    Register's covers its first 8 bytes only (the PIM header and the Register flags), not the
 *    packet it carries;
 *  - VRRP: version 2 (RFC 3768 section 5.3.8) without a pseudo-header, version 3 (RFC 5798
 *    section 5.2.8) with one, over IPv4 too.
 */
static void routing_message(struct dissect *d, const struct ip_info *ip, uint8_t proto,
                            struct span s)
{
    enum { PIM_REGISTER = 1, VRRP_V3 = 3 };
    size_t len = s.end - s.off;
    const unsigned first = have(d, s.off, 1) && len ? d->data[s.off] : 0;
    struct kind k = { CSUM_PCAP_IGMP, 2, 4, 0 };
    if (proto == IPPROTO_PIM_) {
        k = (struct kind){ CSUM_PCAP_PIM, 2, 4, ip->version == 6 };
        if (len > 8 && (first & 0x0f) == PIM_REGISTER)
            len = 8;
    } else if (proto == IPPROTO_VRRP_) {
        k = (struct kind){ CSUM_PCAP_VRRP, 6, 8, first >> 4 == VRRP_V3 };
    }
    if (checkable_length(d, ip, &k, s.off, len))
        check(d, ip, proto, &k, s.off, len);
}

/* A checksum the sender did not compute, for `why`. */
static void no_checksum(struct dissect *d, const struct ip_info *ip, enum csum_pcap_layer layer,
                        size_t field, const char *why)
{
    dissect_report(d, ip->level, ip->via, layer, CSUM_PCAP_NO_CHECKSUM, be16(d->data + field), 0,
                   field, why);
}

/* Whether the bytes [at, end) after an OSPFv3 packet are one authentication trailer (RFC 7166
 * section 4.1: Authentication Type, then the trailer's length, its 16-byte header and the
 * digest included), as its header says. *unknown: that header was not captured. */
static int ospf3_trailer(const struct dissect *d, size_t at, size_t end, int *unknown)
{
    enum { HMAC_CRYPTOGRAPHIC = 1, HEADER = 16 };
    *unknown = 0;
    if (at >= end || end - at < HEADER)
        return 0;
    if (!have(d, at, 4)) {
        *unknown = 1;
        return 0;
    }
    const unsigned char *t = d->data + at;
    return be16(t) == HMAC_CRYPTOGRAPHIC && be16(t + 2) >= HEADER && be16(t + 2) == end - at;
}

/*
 * OSPF, over the packet its header's length gives: what may follow (OSPFv2's cryptographic
 * digest, RFC 2328 section D.4.3; a link-local signaling block, RFC 5613; OSPFv3's
 * authentication trailer, RFC 7166) is not covered.
 *  - Version 2, over IPv4 (RFC 2328 section D.4.3): no pseudo-header, and not the 64-bit
 *    authentication field (bytes 16-23), which a simple password fills in after the checksum
 *    is computed. Cryptographic authentication (AuType 2) computes none, the field "should be
 *    set to 0": the digest protects the packet, so whatever the field holds is no checksum.
 *    Other AuTypes are reserved: what their checksum covers is not known.
 *  - Version 3, over IPv6 (RFC 5340 section A.3.1): with IPv6's pseudo-header, whose length is
 *    the packet's. With an authentication trailer it is neither computed nor verified (RFC
 *    7166 section 4.2), whatever the field holds. Whether there is one, the packet says:
 *    a Hello or a Database Description by the AT-bit of its options (RFC 7166 section 2.1:
 *    set in every Hello and Database Description that carries a trailer, and no trailer
 *    without it), so that bytes after one without the bit (a link-local signaling block)
 *    leave its checksum to check, a stored 0 included; the other types carry no options (the
 *    receiver remembers its neighbor's bit), and bytes after them can be nothing but a trailer
 *    (RFC 5613 section 2 attaches signaling blocks to Hellos and Database Descriptions
 *    only), which is one when its header (section 4.1: type, then its own length, 16 bytes
 *    and the digest) says HMAC Cryptographic Authentication and covers exactly the bytes after
 *    the packet. Other bytes there are no trailer: the checksum is checked; a trailer header
 *    not captured leaves it not checkable (whether it was computed is not known).
 * A version that is not its IP layer's (OSPFv3 over IPv4, RFC 7949) is not looked into.
 */
static void ospf(struct dissect *d, const struct ip_info *ip, struct span s)
{
    enum { AUTH_NONE = 0, AUTH_SIMPLE = 1, AUTH_CRYPTOGRAPHIC = 2, HELLO = 1,
           DATABASE_DESCRIPTION = 2, OPTION_AT = 0x04 /* 0x000400 in the 24-bit options */ };
    const int v3 = ip->version == 6;
    const struct kind k = { CSUM_PCAP_OSPF, 12, v3 ? 16 : 24, v3 };
    const size_t len = s.end - s.off;
    struct cover c = { len, len, len, 0 };
    const int header = !ip->later_fragment && len >= k.min_len && have(d, s.off, k.min_len);
    if (!ip->later_fragment && len && have(d, s.off, 1) && d->data[s.off] != (v3 ? 3 : 2))
        return;
    if (header) {
        const unsigned char *h = d->data + s.off;
        const size_t plen = be16(h + 2);
        if (!v3) {
            const unsigned auth = be16(h + 14);
            if (auth == AUTH_CRYPTOGRAPHIC) {
                no_checksum(d, ip, k.layer, s.off + k.field,
                            "cryptographic authentication: no checksum (RFC 2328 D.4.3)");
                return;
            }
            if (!ip->problem && auth != AUTH_NONE && auth != AUTH_SIMPLE) {
                dissect_not_checkable(d, ip->level, ip->via, k.layer,
                                      "unknown OSPF authentication type");
                return;
            }
            c.hole = 16;
            c.hole_len = 8;
        } else {
            /* The options: a Hello's after its interface ID and priority, a Database
             * Description's after a reserved byte. */
            const size_t options = h[1] == HELLO ? 21 : h[1] == DATABASE_DESCRIPTION ? 17 : 0;
            int trailer = 0, unknown = 0;
            if (options)
                trailer = plen >= options + 3 && len >= options + 3 &&
                          have(d, s.off, options + 3) && (h[options + 1] & OPTION_AT);
            else if (!ip->problem && plen >= k.min_len && plen < len)
                trailer = ospf3_trailer(d, s.off + plen, s.end, &unknown);
            if (trailer) {
                no_checksum(d, ip, k.layer, s.off + k.field,
                            "an authentication trailer: no checksum (RFC 7166 section 4.2)");
                return;
            }
            if (unknown) {
                dissect_not_checkable(d, ip->level, ip->via, k.layer,
                                      "bytes after the packet not captured: an authentication "
                                      "trailer or not");
                return;
            }
        }
        if (!ip->problem) {
            if (plen < k.min_len || plen > len) {
                dissect_not_checkable(d, ip->level, ip->via, k.layer, "bad OSPF length");
                return;
            }
            c.len = c.pseudo_len = plen;
            if (v3)
                c.hole = plen; /* none */
        }
    }
    if (checkable_length(d, ip, &k, s.off, c.len))
        check_cover(d, ip, IPPROTO_OSPF_, &k, s.off, &c);
}

/*
 * RSVP (RFC 2205 section 3.1.1): over the message its common header's length gives, without a
 * pseudo-header, over IPv4 and IPv6 alike. A stored 0 means none was transmitted, whatever
 * else is missing (as UDP's, and so a computed 0 is sent as all ones).
 */
static void rsvp(struct dissect *d, const struct ip_info *ip, struct span s)
{
    static const struct kind k = { CSUM_PCAP_RSVP, 2, 8, 0 };
    const size_t len = s.end - s.off;
    const int header = !ip->later_fragment && len >= k.min_len && have(d, s.off, k.min_len);
    size_t message = len;
    if (header && be16(d->data + s.off + k.field) == 0) {
        no_checksum(d, ip, k.layer, s.off + k.field, NULL);
        return;
    }
    if (header && !ip->problem) {
        message = be16(d->data + s.off + 6);
        if (message < k.min_len || message > len) {
            dissect_not_checkable(d, ip->level, ip->via, k.layer, "bad RSVP length");
            return;
        }
    }
    if (checkable_length(d, ip, &k, s.off, message))
        check(d, ip, IPPROTO_RSVP_, &k, s.off, message);
}

/*
 * DCCP (RFC 4340 section 9): over the pseudo-header, IPv4's or IPv6's as TCP's, whose length is
 * the whole packet's, and over as much of the packet as Checksum Coverage says (section 9.2):
 * CsCov 0 all of it, else the header (Data Offset words) and (CsCov - 1) * 4 bytes of data.
 * A coverage past the packet's end, or a header shorter than the generic header (section
 * 5.1), makes a packet the receiver MUST ignore whatever its checksum: not checkable, as no
 * checksum is defined for it, rather than bad, which fix would "correct". With CsCov 0 a
 * Data Offset past the end spoils the header, not the checksum, as TCP's does.
 */
static void dccp(struct dissect *d, const struct ip_info *ip, struct span s)
{
    enum { X = 0x01 }; /* extended (48-bit) sequence numbers: a 16-byte generic header */
    static const struct kind k = { CSUM_PCAP_DCCP, 6, 12, 1 };
    const size_t len = s.end - s.off;
    struct cover c = { len, len, len, 0 };
    if (!ip->problem && len >= k.min_len && have(d, s.off, k.min_len)) {
        const unsigned char *h = d->data + s.off;
        const size_t header = (size_t)h[4] * 4, cscov = h[5] & 15u;
        const char *why = NULL;
        if (header < (h[8] & X ? 16u : 12u))
            why = "bad DCCP header length";
        else if (cscov && header + (cscov - 1) * 4 > len)
            why = "DCCP checksum coverage beyond the packet";
        if (why) {
            dissect_not_checkable(d, ip->level, ip->via, k.layer, why);
            return;
        }
        if (cscov)
            c.len = c.hole = header + (cscov - 1) * 4;
    }
    if (checkable_length(d, ip, &k, s.off, c.len))
        check_cover(d, ip, IPPROTO_DCCP_, &k, s.off, &c);
}

/*
 * UDP-Lite (RFC 3828 section 3.1): the UDP header with Checksum Coverage in place of the length;
 * the checksum covers the pseudo-header, IPv4's or IPv6's, whose length is the IP payload's
 * (section 3.2: there is no UDP length), and the datagram's first Checksum Coverage bytes (0:
 * all of it). A coverage of 1 to 7 (less than the header) or past the datagram's end makes a
 * datagram to be discarded: not checkable (no checksum is defined for it), as tshark 4.0 leaves
 * it unverified. No offload placeholder is looked for: the Linux stack computes UDP-Lite's
 * checksum itself. Nothing is looked into beyond it (no tunnel is defined over UDP-Lite).
 * A stored 0, never valid, is bad (check_cover) but in the packet an ICMP error quotes, a copy
 * for the sender never delivered, where it is "none" as UDP's is, whatever else is missing
 * (tshark 4.0 ignores a zero there too, for both).
 */
static void udplite(struct dissect *d, const struct ip_info *ip, struct span s)
{
    static const struct kind k = { CSUM_PCAP_UDPLITE, 6, 8, 1 };
    const size_t len = s.end - s.off;
    struct cover c = { len, len, len, 0 };
    const int header = !ip->later_fragment && len >= k.min_len && have(d, s.off, k.min_len);
    if (ip->quoted && header && be16(d->data + s.off + k.field) == 0) {
        no_checksum(d, ip, k.layer, s.off + k.field,
                    "a stored 0 in a packet quoted in an ICMP error, as UDP's");
        return;
    }
    if (!ip->problem && header) {
        const size_t coverage = be16(d->data + s.off + 4);
        if ((coverage && coverage < k.min_len) || coverage > len) {
            dissect_not_checkable(d, ip->level, ip->via, k.layer,
                                  "UDP-Lite checksum coverage below its header or past its end");
            return;
        }
        if (coverage)
            c.len = c.hole = coverage;
    }
    if (checkable_length(d, ip, &k, s.off, c.len))
        check_cover(d, ip, IPPROTO_UDPLITE_, &k, s.off, &c);
}

/*
 * The IPv6 Mobility Header (RFC 6275 section 6.1.1): its checksum covers the IPv6 pseudo-header,
 * whose length is the message's, and the whole message from its Payload Proto field, whose
 * length is (Header Len + 1) * 8 octets. A Header Len past the IPv6 payload leaves it not
 * checkable.
 */
static void mobility_header(struct dissect *d, const struct ip_info *ip, struct span s)
{
    static const struct kind k = { CSUM_PCAP_MH, 4, 8, 1 };
    const size_t len = s.end - s.off;
    size_t message = len;
    if (!ip->problem && len >= 2 && have(d, s.off, 2)) {
        message = ((size_t)d->data[s.off + 1] + 1) * 8;
        if (message > len) {
            dissect_not_checkable(d, ip->level, ip->via, k.layer,
                                  "Mobility Header length past the IPv6 payload");
            return;
        }
    }
    if (checkable_length(d, ip, &k, s.off, message))
        check(d, ip, IPPROTO_MH_, &k, s.off, message);
}

void dissect_transport(struct dissect *d, const struct ip_info *ip, uint8_t proto, struct span s)
{
    static const struct kind tcp = { CSUM_PCAP_TCP, 16, 20, 1 };
    struct span inner;
    switch (proto) {
    case IPPROTO_TCP_:
        if (checkable_length(d, ip, &tcp, s.off, s.end - s.off))
            check(d, ip, proto, &tcp, s.off, s.end - s.off);
        break;
    case IPPROTO_UDP_:
        udp(d, ip, s);
        break;
    case IPPROTO_ICMP_:
        icmp(d, ip, proto, s);
        break;
    case IPPROTO_ICMPV6_: /* its pseudo-header is IPv6's: meaningless over IPv4 */
        if (ip->version == 6)
            icmp(d, ip, proto, s);
        break;
    case IPPROTO_IGMP_: /* IPv4's (IPv6 has MLD, in ICMPv6) */
        if (ip->version == 4)
            routing_message(d, ip, proto, s);
        break;
    case IPPROTO_PIM_:
    case IPPROTO_VRRP_:
        routing_message(d, ip, proto, s);
        break;
    case IPPROTO_OSPF_:
        ospf(d, ip, s);
        break;
    case IPPROTO_RSVP_:
        rsvp(d, ip, s);
        break;
    case IPPROTO_DCCP_:
        dccp(d, ip, s);
        break;
    case IPPROTO_UDPLITE_:
        udplite(d, ip, s);
        break;
    case IPPROTO_MH_: /* IPv6's (RFC 6275) */
        if (ip->version == 6)
            mobility_header(d, ip, s);
        break;
    case IPPROTO_IPIP_:
    case IPPROTO_IPV6_:
        if (!ip->problem && span_enter(d, &s, 0, &inner)) {
            inner.level = ip->level + 1;
            inner.via = CSUM_PCAP_VIA_IP;
            dissect_ip(d, inner);
        }
        break;
    case IPPROTO_GRE_:
        if (!ip->problem)
            dissect_gre(d, ip, s);
        break;
    default:
        break;
    }
}
