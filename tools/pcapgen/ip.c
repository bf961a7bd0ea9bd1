/*
 * IP datagrams byte by byte, with every checksum from the oracle.
 *
 * The order is: choose the bytes of the segment (transport header and payload, or the bytes
 * a tunnel carries), compute the transport checksum over pseudo-header + segment with the
 * oracle, split into fragments if asked, compute each IPv4 header checksum with the oracle,
 * then spoil the checksums that should be wrong (or leave the placeholders an offloading
 * sender leaves) and note what a verifier must say.
 */
#include "pcapgen.h"

#include "csum_oracle.h"

#include <string.h>

uint64_t rnd(uint64_t *rng)
{
    return testdata_next(rng);
}

void fill(void *dst, size_t n, uint64_t seed)
{
    unsigned char *p = dst;
    uint64_t state = seed, v = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            v = testdata_next(&state);
        p[i] = (unsigned char)(v >> (8 * (i % 8)));
    }
}

uint16_t wrong_value(uint16_t good, uint64_t *rng)
{
    for (;;) {
        uint16_t w = (uint16_t)(good ^ (1 + rnd(rng) % 0xfffe));
        if (w != 0 && w != 0xffff && w != good)
            return w;
    }
}

void expect_add(struct expectation *list, int *n, const struct expectation *e)
{
    if (*n < MAX_EXPECT)
        list[(*n)++] = *e;
}

/* Whether the checksum of `s`'s transport covers the pseudo-header: not ICMP's, IGMP's, RSVP's
 * (RFC 2205 section 3.1.1), PIM's and OSPF's over IPv4 (RFC 7761 section 4.9, RFC 2328 section
 * D.4.3; over IPv6 they do) nor VRRP version 2's (version 3's does, RFC 5798). */
static int covers_pseudo_header(const struct ip_spec *s)
{
    switch (s->proto) {
    case 1: case 2: case 46: return 0;
    case 103: case 89: return s->ipv == 6;
    case 112: return s->icmp_type == 3;
    default: return 1;
    }
}

/* The pseudo-header (if `pseudo`), its length pseudo_len, followed by the segment's len bytes. */
static size_t with_pseudo(unsigned char *buf, int ipv, const unsigned char *src,
                          const unsigned char *dst, uint8_t proto, int pseudo, size_t pseudo_len,
                          const unsigned char *seg, size_t len)
{
    size_t n = 0;
    if (pseudo) {
        const size_t alen = ipv == 4 ? 4 : 16;
        memcpy(buf, src, alen);
        memcpy(buf + alen, dst, alen);
        n = 2 * alen;
        if (ipv == 4) {
            buf[n++] = 0;
            buf[n++] = proto;
            be16put(buf + n, (uint16_t)pseudo_len);
            n += 2;
        } else {
            be32put(buf + n, (uint32_t)pseudo_len); /* 32 bits: jumbograms too */
            buf[n + 4] = buf[n + 5] = buf[n + 6] = 0;
            buf[n + 7] = proto;
            n += 8;
        }
    }
    if (seg)
        memcpy(buf + n, seg, len);
    return n + (seg ? len : 0);
}

/* The checksum over pseudo-header + the segment's first len bytes (field zeroed), per the
 * oracle; the pseudo-header's length is pseudo_len (DCCP's: the whole segment's, RFC 4340
 * section 9.1). OSPFv2's leaves out the authentication field (RFC 2328 section D.4.3): summed
 * as zeros here. */
static uint16_t transport_checksum(const struct ip_spec *s, const unsigned char *src,
                                   const unsigned char *dst, const unsigned char *seg, size_t len,
                                   size_t pseudo_len)
{
    static unsigned char buf[40 + MAX_FRAME];
    const size_t n = with_pseudo(buf, s->ipv, src, dst, s->proto, covers_pseudo_header(s),
                                 pseudo_len, seg, len);
    if (s->proto == 89 && s->ipv == 4)
        memset(buf + n - len + 16, 0, 8);
    return oracle_checksum(buf, n, 0);
}

/* The folded pseudo-header sum (not complemented) for `len`: what an offloading sender
 * leaves in the field for its NIC. */
static uint16_t partial_checksum(int ipv, const unsigned char *src, const unsigned char *dst,
                                 uint8_t proto, size_t len)
{
    unsigned char buf[40];
    size_t n = with_pseudo(buf, ipv, src, dst, proto, 1, len, NULL, 0);
    return (uint16_t)~oracle_checksum(buf, n, 0);
}

static const char *layer_of(uint8_t proto)
{
    switch (proto) {
    case 6: return "tcp";
    case 17: return "udp";
    case 1: return "icmp";
    case 2: return "igmp";
    case 103: return "pim";
    case 112: return "vrrp";
    case 89: return "ospf";
    case 46: return "rsvp";
    case 33: return "dccp";
    case 136: return "udplite";
    case 135: return "mh";
    default: return "icmpv6";
    }
}

static int checksummed(uint8_t proto)
{
    return proto == 6 || proto == 17 || proto == 1 || proto == 58 || proto == 2 || proto == 103 ||
           proto == 112 || proto == 89 || proto == 46 || proto == 33 || proto == 136 ||
           proto == 135;
}

static size_t checksum_field(uint8_t proto)
{
    return proto == 6 ? 16 : proto == 17 || proto == 112 || proto == 33 || proto == 136 ? 6
           : proto == 89 ? 12 : proto == 135 ? 4 : 2;
}

/* RSVP objects (RFC 2205 section 3.1.2) filling the n bytes at p (random, a multiple of 4): a
 * SESSION of the IP version (class 1, C-Type 1 or 2: destination, protocol, flags, port), then
 * a NULL object (class 0, to be ignored) over the rest, so that they parse. */
static void rsvp_objects(unsigned char *p, size_t n, int ipv)
{
    const size_t session = ipv == 4 ? 12 : 24;
    if (n < session)
        return;
    be16put(p, (uint16_t)session);
    p[2] = 1;
    p[3] = ipv == 4 ? 1 : 2;
    if (n >= session + 4) {
        be16put(p + session, (uint16_t)(n - session));
        p[session + 2] = 0;
    }
}

/* OSPF's header (RFC 2328 section A.3.1, RFC 5340 section A.3.1: version 2 over IPv4, 3 over
 * IPv6) at seg, of type `type`: router and area IDs; version 2's AuType and authentication
 * field (a simple password, or cryptographic authentication's key ID, digest length and
 * sequence number, its digest in the trailer). Returns its length. */
static size_t ospf_header(unsigned char *seg, const struct ip_spec *s, uint64_t *rng)
{
    const int v3 = s->ipv == 6;
    seg[0] = v3 ? 3 : 2;
    seg[1] = s->icmp_type ? s->icmp_type : 1;
    fill(seg + 4, 8, rnd(rng));
    be16put(seg + 12, 0);
    if (v3) {
        seg[14] = seg[15] = 0; /* instance 0 */
        return 16;
    }
    be16put(seg + 14, s->auth);
    memset(seg + 16, 0, 8);
    if (s->auth == 1) {
        memcpy(seg + 16, "p4ssw0rd", 8);
    } else if (s->auth == 2) {
        seg[18] = (unsigned char)(1 + rnd(rng) % 255); /* key ID */
        seg[19] = 16;                                   /* a keyed MD5 digest */
        be32put(seg + 20, (uint32_t)rnd(rng));          /* sequence number */
    }
    return 24;
}

/* After the payload: the options of an OSPF Hello or Database Description (RFC 5340 section
 * A.2: version 3's AT-bit, RFC 7166, with `auth`; either version's L-bit, RFC 5613, with a
 * link-local signaling block in the trailer, which gets its header and one TLV of Extended
 * Options); version 3's authentication trailer, with `auth`, its header (RFC 7166 section
 * 4.1: HMAC Cryptographic Authentication, its length, SA ID 1, a sequence number), the
 * digest random. The rest of the body stays random. */
static void ospf_body(unsigned char *seg, size_t hlen, size_t len, const struct ip_spec *s)
{
    const int v3 = s->ipv == 6, lls = s->udp_trailer && (v3 ? !s->auth : s->auth != 2);
    size_t options = 0;
    if (seg[1] == 1 && len >= hlen + 20)
        options = hlen + (v3 ? 5 : 6); /* after interface ID and priority; after mask, interval */
    else if (seg[1] == 2 && len >= hlen + 8)
        options = hlen + (v3 ? 1 : 2); /* after a reserved byte; after the interface MTU */
    if (options && v3) {
        seg[options] = 0;
        seg[options + 1] = (unsigned char)((s->auth ? 0x04 : 0) | (lls ? 0x02 : 0)); /* AT, L */
        seg[options + 2] = 0x13; /* V6, E, R */
    } else if (options) {
        seg[options] = (unsigned char)(0x02 | (lls ? 0x10 : 0)); /* E, L */
    }
    if (lls && s->udp_trailer >= 12) {
        unsigned char *b = seg + len - s->udp_trailer;
        be16put(b, 0);                                  /* checksum: none */
        be16put(b + 2, (uint16_t)(s->udp_trailer / 4)); /* length in 32-bit words */
        be16put(b + 4, 1);                              /* Extended Options and Flags */
        be16put(b + 6, 4);
        be32put(b + 8, 1);                              /* LR */
        memset(b + 12, 0, s->udp_trailer - 12);
    }
    if (v3 && s->auth && s->udp_trailer >= 16) {
        unsigned char *t = seg + len - s->udp_trailer;
        be16put(t, 1);
        be16put(t + 2, (uint16_t)s->udp_trailer);
        be16put(t + 4, 0);
        be16put(t + 6, 1);
        be32put(t + 8, 0);
        be32put(t + 12, 0x5eed0001);
    }
}

/* The transport segment: header, options, payload (or the carried bytes); checksum field
 * zero. Returns its length. */
static size_t build_segment(const struct ip_spec *s, uint64_t *rng, unsigned char *seg)
{
    size_t hlen;
    switch (s->proto) {
    case 6:
        hlen = 20 + 4 * (size_t)s->tcp_option_words;
        memset(seg, 0, hlen);
        be16put(seg, (uint16_t)(40000 + rnd(rng) % 1000));
        be16put(seg + 2, (uint16_t)(50000 + rnd(rng) % 1000));
        fill(seg + 4, 8, rnd(rng)); /* sequence and acknowledgement numbers */
        seg[12] = (unsigned char)((hlen / 4) << 4);
        if (s->tcp_offset) /* a header length the segment may not have */
            seg[12] = (unsigned char)(s->tcp_offset << 4);
        seg[13] = 0x18; /* PSH, ACK */
        be16put(seg + 14, 0xfaf0);
        memset(seg + 20, 1, hlen - 20); /* NOP options */
        break;
    case 17:
    case 136: /* UDP-Lite (RFC 3828 section 3.1): the length field is the Checksum Coverage */
        hlen = 8;
        be16put(seg, (uint16_t)(40000 + rnd(rng) % 1000));
        be16put(seg + 2, s->dport ? s->dport : (uint16_t)(50000 + rnd(rng) % 1000));
        be16put(seg + 4, s->coverage);
        be16put(seg + 6, 0);
        break;
    case 1:
    case 58:
        hlen = 8;
        memset(seg, 0, 8);
        if (s->icmp_type || s->icmp_code) {
            seg[0] = s->icmp_type;
            seg[1] = s->icmp_code;
            be32put(seg + 4, s->icmp_rest);
        } else { /* echo request, random identifier and sequence number */
            seg[0] = s->proto == 1 ? 8 : 128;
            fill(seg + 4, 4, rnd(rng));
        }
        break;
    case 2: /* IGMP: type (icmp_type; a version 2 report by default), max response time,
             * checksum, group; a version 3 query (0x11 and 4 more bytes) goes on in the payload */
        hlen = 8;
        seg[0] = s->icmp_type ? s->icmp_type : 0x16;
        seg[1] = seg[0] == 0x11 ? 100 : 0;
        be16put(seg + 2, 0);
        seg[4] = 239;
        fill(seg + 5, 3, rnd(rng));
        break;
    case 103: /* PIM version 2: type (icmp_type), reserved, checksum; a Register's flags next */
        hlen = s->icmp_type == 1 ? 8 : 4;
        memset(seg, 0, hlen);
        seg[0] = (unsigned char)(0x20 | (s->icmp_type & 15));
        break;
    case 112: /* VRRP advertisement of version icmp_type (2 or 3): VRID, priority, one address,
               * (v2) authentication type and interval or (v3) interval, checksum; the address
               * (and v2's 8 bytes of authentication data) go in the payload */
        hlen = 8;
        seg[0] = (unsigned char)(s->icmp_type << 4 | 1);
        seg[1] = (unsigned char)(1 + rnd(rng) % 255);
        seg[2] = 100;
        seg[3] = 1;
        be16put(seg + 4, s->icmp_type == 3 ? 100 : 0x0001);
        be16put(seg + 6, 0);
        break;
    case 89:
        hlen = ospf_header(seg, s, rng);
        break;
    case 33: { /* DCCP's generic header (RFC 4340 section 5.1): ports, Data Offset, CCVal and
               * CsCov, checksum, type and X, a 48-bit sequence number (24-bit without X);
               * then an acknowledgement number (but for a Request and Data, section 5.3), and a
               * Request's service code */
        const int x = !s->short_seq, type = s->icmp_type;
        be16put(seg, (uint16_t)(40000 + rnd(rng) % 1000));
        be16put(seg + 2, (uint16_t)(5000 + rnd(rng) % 1000));
        seg[5] = s->cscov & 15;
        be16put(seg + 6, 0);
        seg[8] = (unsigned char)((type & 15) << 1 | x);
        hlen = x ? 16 : 12;
        memset(seg + 9, 0, hlen - 9);
        fill(seg + (x ? 10 : 9), x ? 6 : 3, rnd(rng));
        if (type != 0 && type != 2) { /* reserved, acknowledgement number */
            memset(seg + hlen, 0, x ? 8 : 4);
            fill(seg + hlen + (x ? 2 : 1), x ? 6 : 3, rnd(rng));
            hlen += x ? 8 : 4;
        }
        if (type == 0) {
            be32put(seg + hlen, (uint32_t)rnd(rng));
            hlen += 4;
        }
        seg[4] = (unsigned char)(s->tcp_offset ? s->tcp_offset : (int)(hlen / 4));
        break;
    }
    case 135: /* the Mobility Header (RFC 6275 section 6.1.1): Payload Proto 59 (none), Header
               * Len (set below), MH Type (icmp_type), reserved, checksum; the message data is the
               * payload */
        hlen = 6;
        seg[0] = 59;
        seg[2] = s->icmp_type;
        seg[3] = 0;
        be16put(seg + 4, 0);
        break;
    case 46: /* RSVP's common header (RFC 2205 section 3.1.1): version 1, no flags, the message
              * type (icmp_type; a Path by default), checksum, send TTL, reserved, length (set
              * below); the objects are the payload */
        hlen = 8;
        seg[0] = 0x10;
        seg[1] = s->icmp_type ? s->icmp_type : 1;
        be16put(seg + 2, 0);
        seg[4] = 64;
        seg[5] = 0;
        break;
    default: /* carried as is: IP in IP, GRE */
        hlen = 0;
        break;
    }
    size_t body = s->carry ? s->carry_len : s->payload;
    if (s->carry)
        memcpy(seg + hlen, s->carry, body);
    else
        fill(seg + hlen, body, rnd(rng));
    if (s->icmp_all_zero && s->proto == 1)
        memset(seg, 0, hlen + body); /* echo reply, id 0, seq 0, payload zeros */
    const size_t len = hlen + body;
    if (s->proto == 17) /* a UDP jumbogram says 0 (RFC 2675 section 4) */
        be16put(seg + 4, len > 0xffff ? 0 : (uint16_t)(len - s->udp_trailer));
    if (s->proto == 135) /* in 8-octet units, not counting the first 8 */
        seg[1] = s->mh_header_len ? s->mh_header_len : (unsigned char)((len + 7) / 8 - 1);
    if (s->proto == 89) {
        be16put(seg + 2, (uint16_t)(len - s->udp_trailer));
        ospf_body(seg, hlen, len, s);
    }
    if (s->proto == 46) {
        const size_t message = len - s->udp_trailer;
        be16put(seg + 6, (uint16_t)message);
        rsvp_objects(seg + hlen, message - hlen, s->ipv);
    }
    return len;
}

/* A routing header of `type` with one address (`a0` NULL: left for the caller to fill) or
 * two, and `left` segments left; returns its length. */
static size_t routing_header(unsigned char *h, uint8_t type, uint8_t left, const unsigned char *a0,
                             const unsigned char *a1)
{
    const int addresses = a1 ? 2 : 1;
    h[1] = (unsigned char)(2 * addresses); /* in 8-byte units after the first 8 bytes */
    h[2] = type;
    h[3] = left;
    memset(h + 4, 0, 4);
    if (a0)
        memcpy(h + 8, a0, 16);
    if (a1)
        memcpy(h + 24, a1, 16);
    return 8 + 16 * (size_t)addresses;
}

/* Octets every address of an RPL domain shares with the destination in this generator (a
 * 6LoWPAN-style /112), so any CmprI and CmprE up to it are valid. */
enum { RPL_SHARED = 14 };

/* An RPL Source Route Header (RFC 6554 section 3) whose last address is `last`, with
 * `left` segments left (0: none; otherwise one up to its number of addresses): 1 to 3
 * addresses, CmprI and CmprE random up to RPL_SHARED, Pad up to a multiple of 8 bytes;
 * returns its length. */
static size_t rpl_header(unsigned char *h, int left, const unsigned char *last, uint64_t *rng)
{
    const size_t n = 1 + rnd(rng) % 3;
    const size_t cmpr_i = rnd(rng) % (RPL_SHARED + 1), cmpr_e = rnd(rng) % (RPL_SHARED + 1);
    const size_t others = (n - 1) * (16 - cmpr_i), len = 8 + others + (16 - cmpr_e);
    const size_t pad = (8 - len % 8) % 8;
    h[1] = (unsigned char)((len + pad) / 8 - 1);
    h[2] = 3;
    h[3] = (unsigned char)(left ? 1 + rnd(rng) % n : 0);
    h[4] = (unsigned char)(cmpr_i << 4 | cmpr_e);
    h[5] = (unsigned char)(pad << 4);
    h[6] = h[7] = 0;
    fill(h + 8, others, rnd(rng)); /* the other hops, their shared prefix elided */
    memcpy(h + 8 + others, last + cmpr_e, 16 - cmpr_e);
    memset(h + len, 0, pad);
    return len + pad;
}

/* IPv6 extension headers in front of the transport; returns their length. With `jumbo`, the
 * Hop-by-Hop header holds a Jumbo Payload option whose value the caller fills in (at p + 4). */
static size_t build_v6_ext(const struct ip_spec *s, uint64_t *rng, unsigned char *p,
                           uint8_t *first_next, unsigned char *dst_in_header,
                           const unsigned char *final_dst, int with_fragment)
{
    int kinds[8];
    int n = 0;
    if ((s->ext & EXT_HBH) || s->jumbo) kinds[n++] = 0;
    if (s->ext & EXT_DSTOPTS) kinds[n++] = 60;
    if (s->ext & EXT_RT0) kinds[n++] = 43;
    if (s->ext & EXT_SRH) kinds[n++] = 143; /* markers: routing headers (43) of other kinds */
    if (s->ext & EXT_RT0_LEFT) kinds[n++] = 243;
    if (s->ext & EXT_RPL) kinds[n++] = 343;
    if (s->ext & EXT_RPL_DONE) kinds[n++] = 443;
    if (s->ext & EXT_RPL_SHORT) kinds[n++] = 543;
    if (with_fragment) kinds[n++] = 44;
    if (s->ext & EXT_AH) kinds[n++] = 51;

    size_t len = 0;
    unsigned char *prev_next = first_next;
    for (int i = 0; i < n; i++) {
        unsigned char *h = p + len;
        size_t hl;
        uint8_t type = (uint8_t)(kinds[i] % 100 == 43 ? 43 : kinds[i]);
        *prev_next = type;
        switch (kinds[i]) {
        case 0:
            hl = 8;
            h[1] = 0;
            if (s->jumbo) { /* Jumbo Payload option: type 0xc2, 4 bytes of length */
                h[2] = 0xc2;
                h[3] = 4;
            } else { /* PadN option filling 6 bytes */
                h[2] = 1;
                h[3] = 4;
                memset(h + 4, 0, 4);
            }
            break;
        case 60: /* PadN option filling 6 bytes */
            hl = 8;
            h[1] = 0;
            h[2] = 1;
            h[3] = 4;
            memset(h + 4, 0, 4);
            break;
        case 43: /* type 0, no segments left: one address, the destination stays final */
            hl = routing_header(h, 0, 0, NULL, NULL);
            fill(h + 8, 16, rnd(rng));
            break;
        case 143: /* type 4 (SRH), one segment left: list[0] is the final destination, the
                   * header's destination is list[1], the segment being visited */
            hl = routing_header(h, 4, 1, final_dst, dst_in_header);
            h[4] = 1; /* last entry */
            break;
        case 243: { /* type 0, one segment left of two: the last address is the final one */
            unsigned char visited[16];
            fill(visited, 16, rnd(rng));
            hl = routing_header(h, 0, 1, visited, final_dst);
            break;
        }
        case 343: /* RPL, segments left: the header's destination is the hop being visited */
            hl = rpl_header(h, 1, final_dst, rng);
            break;
        case 443: { /* RPL, none left: the destination is final, the last address another */
            unsigned char other[16];
            fill(other, 16, rnd(rng));
            hl = rpl_header(h, 0, other, rng);
            break;
        }
        case 543: /* RPL, a segment left and no address at all (n = 0) */
            hl = 8;
            memcpy(h + 1, "\x00\x03\x01\x00\x00\x00\x00", 7);
            break;
        case 44: /* filled in per fragment */
            hl = 8;
            memset(h + 1, 0, 7);
            break;
        default: /* 51: AH with a 12-byte ICV */
            hl = 24;
            h[1] = 4;
            h[2] = h[3] = 0;
            fill(h + 4, 20, rnd(rng));
            break;
        }
        prev_next = h;
        len += hl;
    }
    *prev_next = s->proto;
    return len;
}

/* Whether the datagram is on its way along a source route: the header's destination is the
 * next hop, the final destination the route's last address. */
static int route_followed(enum route r)
{
    return r == ROUTE_LSRR || r == ROUTE_SSRR || r == ROUTE_ODD_LENGTH || r == ROUTE_AT_LENGTH;
}

/* IPv4 options holding the source route `r` (RFC 791 section 3.1: type, length, pointer
 * counted from 1, addresses), padded to whole words; `final_dst` is the route's last address
 * while it is followed. Returns their length (at most 16 bytes). */
static size_t source_route(unsigned char *p, enum route r, const unsigned char *final_dst,
                           uint64_t *rng)
{
    static const unsigned char head[][4] = { /* bytes before the addresses, from type */
        [ROUTE_LSRR] = { 131, 15, 8 },   [ROUTE_SSRR] = { 137, 11, 4 },
        [ROUTE_ODD_LENGTH] = { 131, 10, 4 }, [ROUTE_DONE] = { 131, 11, 12 },
        [ROUTE_BAD_POINTER] = { 131, 11, 6 }, [ROUTE_AFTER_EOL] = { 131, 11, 4 },
        [ROUTE_NO_POINTER] = { 131, 2 }, [ROUTE_NO_ADDRESS] = { 131, 6, 4 },
        [ROUTE_AT_LENGTH] = { 131, 12, 12 }, [ROUTE_IN_LAST] = { 137, 11, 11 },
        [ROUTE_DONE_ONE] = { 137, 7, 8 },
    };
    size_t at = 0; /* where the option starts */
    if (r == ROUTE_SSRR) { /* behind a router alert: the option walk must step over it */
        memcpy(p, "\x94\x04\x00\x00", 4);
        at = 4;
    } else if (r == ROUTE_AFTER_EOL || r == ROUTE_ODD_LENGTH) {
        p[at++] = r == ROUTE_AFTER_EOL ? 0 : 1; /* End of Option List, or a NOP */
    }
    unsigned char *o = p + at;
    const size_t len = head[r][1];
    memcpy(o, head[r], len < 3 ? len : 3);
    if (len > 3)
        fill(o + 3, len - 3, rnd(rng)); /* the addresses, and what there is of a last one */
    for (size_t i = 3; i + 4 <= len; i += 4)
        o[i] = 172; /* not the final destination, which starts with 192 */
    if (route_followed(r))
        memcpy(o + len - 4, final_dst, 4);
    size_t end = at + len;
    if (r == ROUTE_NO_POINTER) /* NOPs, which must not be read as its pointer */
        while (end % 4)
            p[end++] = 1;
    while (end % 4)
        p[end++] = 0; /* End of Option List, then padding */
    return end;
}

int build_ip(const struct ip_spec *s, unsigned level, enum via via, uint64_t *rng,
             struct datagram *out)
{
    static unsigned char seg[MAX_FRAME];
    unsigned char src[16], dst[16], final_dst[16];
    fill(src, 16, rnd(rng));
    fill(final_dst, 16, rnd(rng));
    memcpy(dst, final_dst, 16);
    if (s->ipv == 6) {
        src[0] = 0x20; /* global unicast looking addresses */
        dst[0] = final_dst[0] = 0x20;
    } else {
        src[0] = 10;
        dst[0] = final_dst[0] = 192;
    }
    if (s->ipv == 6 && (s->ext & (EXT_SRH | EXT_RT0_LEFT)))
        fill(dst + 1, 15, rnd(rng)); /* the segment being visited */
    if (s->ipv == 6 && (s->ext & EXT_RPL)) /* the node being visited, in the same /112 */
        fill(dst + RPL_SHARED, 16 - RPL_SHARED, rnd(rng));
    const int ipv4_route = s->ipv == 4 && s->route != ROUTE_NONE;
    if (ipv4_route && route_followed(s->route))
        fill(dst + 1, 3, rnd(rng)); /* the next hop */
    if (!memcmp(dst, final_dst, 16) && ((ipv4_route && route_followed(s->route)) ||
                                        (s->ipv == 6 && (s->ext & EXT_RPL))))
        dst[s->ipv == 4 ? 3 : 15] ^= 1; /* a random next hop that is the final destination */
    /* The pseudo-header needs the final destination, which a malformed route hides. */
    const int dst_unknown = (ipv4_route && (s->route == ROUTE_NO_POINTER ||
                                            s->route == ROUTE_NO_ADDRESS)) ||
                            (s->ipv == 6 && (s->ext & EXT_RPL_SHORT));
    unsigned char route_opts[16];
    const size_t route_len = ipv4_route ? source_route(route_opts, s->route, final_dst, rng) : 0;

    /* The segment and its correct checksum (over the final destination). */
    const size_t seglen = build_segment(s, rng, seg);
    /* What the checksum covers: UDP's length; a PIM Register's first 8 bytes (RFC 7761 section
     * 4.9: not the packet it carries); the whole segment otherwise. */
    size_t covered = s->proto == 17 || s->proto == 89 || s->proto == 46
                     ? seglen - s->udp_trailer
                     : s->proto == 103 && s->icmp_type == 1 ? 8 : seglen;
    /* DCCP's: the header and (CsCov - 1) words of data, the pseudo-header still giving the
     * whole length (RFC 4340 sections 9.1, 9.2); one past the end is what tshark takes, the
     * whole packet, the packet being not checkable. */
    const size_t dccp_cover = s->proto == 33 && s->cscov
                              ? (size_t)seg[4] * 4 + ((size_t)s->cscov - 1) * 4 : seglen;
    if (s->proto == 33 && dccp_cover < seglen)
        covered = dccp_cover;
    /* UDP-Lite's: the Checksum Coverage's first bytes (0: all), the pseudo-header giving the IP
     * payload's length (RFC 3828 section 3.1); 1..7 or past the end: to be discarded. */
    const int udplite_bad_cover = s->proto == 136 && s->coverage &&
                                  (s->coverage < 8 || s->coverage > seglen);
    if (s->proto == 136 && s->coverage && !udplite_bad_cover)
        covered = s->coverage;
    const size_t pseudo_len = s->proto == 33 || s->proto == 136 ? seglen : covered;
    /* ICMPv6 is checked over IPv6 only, IGMP over IPv4 only (IPv6 has MLD, in ICMPv6); OSPF's
     * version follows the IP version's. */
    const int has_l4 = checksummed(s->proto) && !(s->proto == 58 && s->ipv == 4) &&
                       !(s->proto == 2 && s->ipv == 6);
    const size_t field = checksum_field(s->proto);
    struct expectation l4e = { layer_of(s->proto), EXPECT_GOOD, level, via, 0, 0 };
    if (has_l4) {
        uint16_t l4 = transport_checksum(s, src, final_dst, seg, covered, pseudo_len);
        if (s->l4_sum_zero && !s->carry && s->payload >= 2 && !s->udp_trailer) {
            /* Adjust the last two payload bytes, at an even offset of the segment, so that
             * the checksum comes out 0x0000: add the current checksum value there. */
            size_t at = seglen - 2 - (seglen & 1);
            uint32_t w = (uint32_t)be16get(seg + at) + l4;
            w = (w & 0xffff) + (w >> 16);
            be16put(seg + at, (uint16_t)w);
            l4 = transport_checksum(s, src, final_dst, seg, covered, pseudo_len);
        }
        if ((s->proto == 17 || s->proto == 46 || s->proto == 136) && l4 == 0)
            l4 = 0xffff; /* UDP, RSVP and UDP-Lite send a computed 0 as all ones */
        uint16_t stored = l4;
        enum expect_verdict v = EXPECT_GOOD;
        const int offloadable = s->proto == 6 || s->proto == 17;
        if (s->udp_zero && (s->proto == 17 || s->proto == 89 || s->proto == 46 ||
                            s->proto == 136)) {
            stored = 0;
            v = EXPECT_BAD;
        } else if (s->corrupt_l4) {
            stored = wrong_value(l4, rng);
            v = EXPECT_BAD;
        } else if (s->tcp_ffff && s->proto != 17 && l4 == 0) {
            stored = 0xffff; /* the other zero: bad for TCP by Wireshark's rule, good for ICMP */
            v = s->proto == 6 ? EXPECT_BAD : EXPECT_GOOD;
        } else if (offloadable && (s->offload == OFFLOAD_PARTIAL || s->offload == OFFLOAD_TSO)) {
            stored = partial_checksum(s->ipv, src, final_dst, s->proto, seglen);
            v = EXPECT_OFFLOAD;
        } else if (offloadable && s->offload == OFFLOAD_PARTIAL_NOLEN) {
            stored = partial_checksum(s->ipv, src, final_dst, s->proto, 0);
            v = EXPECT_OFFLOAD;
        }
        if (stored == l4)
            v = EXPECT_GOOD;
        if (s->proto == 17 && stored == 0)
            v = s->ipv == 4 ? EXPECT_NONE : EXPECT_BAD;
        if (s->proto == 46 && stored == 0) /* RFC 2205 section 3.1.1: none transmitted */
            v = EXPECT_NONE;
        /* OSPF with cryptographic authentication computes none (RFC 2328 section D.4.3), nor
         * with an authentication trailer (RFC 7166 section 4.2): flagged in a Hello or a
         * Database Description by the AT-bit, after the other types the trailer's own header
         * says so (ospf_body). Bytes after the packet that are no trailer, a stored 0 with
         * them, leave the checksum to check. */
        if (s->proto == 89 && (s->ipv == 4 ? s->auth == 2 : s->auth != 0))
            v = EXPECT_NONE;
        if (s->proto == 89 && s->ipv == 4 && s->auth > 2) /* reserved: not known */
            v = EXPECT_NOT_CHECKABLE;
        if (s->proto == 136 && stored == 0) /* never valid (RFC 3828 section 3.1) */
            v = EXPECT_BAD;
        if (s->proto == 135 && ((size_t)seg[1] + 1) * 8 > seglen) /* past the payload */
            v = EXPECT_NOT_CHECKABLE;
        if (udplite_bad_cover) /* to be discarded (RFC 3828 section 3.1) */
            v = EXPECT_NOT_CHECKABLE;
        /* to be ignored (RFC 4340 sections 9.2, 5.1) */
        if (s->proto == 33 && (dccp_cover > seglen || seg[4] < (s->short_seq ? 3 : 4)))
            v = EXPECT_NOT_CHECKABLE;
        /* Not checkable: without the final destination there is no pseudo-header (ICMP has
         * none), and below 5 words the TCP header is no header. */
        if ((dst_unknown && covers_pseudo_header(s) && v != EXPECT_NONE) ||
            (s->proto == 6 && s->tcp_offset && s->tcp_offset < 5))
            v = EXPECT_NOT_CHECKABLE;
        be16put(seg + field, stored);
        l4e.verdict = v;
        l4e.stored = stored;
        l4e.computed = l4;
    }

    /* IP fragments carry pieces of the segment; every fragment repeats the IP header and
     * (IPv6) the extension headers, so specs with fragments use no AH. */
    const int nfrag = s->fragments > 1 ? s->fragments : 1;
    const size_t piece = nfrag > 1 ? ((seglen / nfrag) + 7) / 8 * 8 : seglen;
    const int ipv4_ah = s->ipv == 4 && (s->ext & EXT_AH);
    const int tso = s->offload == OFFLOAD_TSO;
    int jumbo_malformed = 0; /* a Jumbo Payload length below 65536 (RFC 2675 section 3) */
    int count = 0;
    for (size_t next_done = 0; next_done < seglen || count == 0; count++) {
        struct datagram *dg = &out[count];
        dg->n_expect = 0;
        dg->ipv = s->ipv;
        const size_t done = next_done;
        const size_t this_len = seglen - done < piece ? seglen - done : piece;
        const int more = done + this_len < seglen;
        next_done = done + this_len;
        unsigned char *ip = dg->data;
        memset(ip, 0, 60); /* the datagrams are reused: the checksum field must start at 0 */
        size_t iphl, ext_len = 0;
        if (s->ipv == 4) {
            iphl = 20 + (route_len ? route_len : 4 * (size_t)s->ip_option_words);
            ip[0] = (unsigned char)(0x40 | (iphl / 4));
            ip[1] = 0;
            fill(ip + 4, 2, rnd(rng)); /* identification */
            if (nfrag > 1) {
                memcpy(ip + 4, "\x12\x34", 2); /* one datagram: one identification */
                be16put(ip + 6, (uint16_t)((more ? 0x2000 : 0) | (done / 8)));
            } else {
                be16put(ip + 6, 0x4000); /* don't fragment */
            }
            ip[8] = 64;
            ip[9] = ipv4_ah ? 51 : s->proto;
            memcpy(ip + 12, src, 4);
            memcpy(ip + 16, dst, 4);
            if (route_len) {
                memcpy(ip + 20, route_opts, route_len);
            } else if (s->ip_option_words) { /* router alert, then NOPs */
                memcpy(ip + 20, "\x94\x04\x00\x00", 4);
                memset(ip + 24, 1, iphl - 24);
            }
            if (ipv4_ah) {
                unsigned char *ah = ip + iphl;
                ah[0] = s->proto;
                ah[1] = 4;
                ah[2] = ah[3] = 0;
                fill(ah + 4, 20, rnd(rng));
                ext_len = 24;
            }
            be16put(ip + 2, tso ? 0 : (uint16_t)(iphl + ext_len + this_len));
        } else {
            iphl = 40;
            ip[0] = 0x60;
            ip[1] = ip[2] = ip[3] = 0;
            ip[7] = 64;
            memcpy(ip + 8, src, 16);
            memcpy(ip + 24, dst, 16);
            ext_len = build_v6_ext(s, rng, ip + 40, &ip[6], ip + 24, final_dst, nfrag > 1);
            if (nfrag > 1) { /* find the fragment header and fill it in */
                unsigned char *h = ip + 40;
                uint8_t next = ip[6];
                while (next != 44) {
                    size_t hl = next == 51 ? ((size_t)h[1] + 2) * 4 : ((size_t)h[1] + 1) * 8;
                    next = h[0];
                    h += hl;
                }
                be16put(h + 2, (uint16_t)(done | (more ? 1 : 0)));
                memcpy(h + 4, "\xfe\xdc\xba\x98", 4);
            }
            const size_t plen = ext_len + this_len;
            if (s->jumbo)
                be32put(ip + 44, (uint32_t)plen); /* the Jumbo Payload option's value */
            jumbo_malformed = s->jumbo && plen <= 0xffff;
            be16put(ip + 4, s->jumbo || tso ? 0 : (uint16_t)plen);
        }
        memcpy(ip + iphl + ext_len, seg + done, this_len);
        dg->len = iphl + ext_len + this_len;
        dg->l3_len = iphl;
        dg->l4_off = iphl + ext_len;

        /* IPv4 header checksum by the oracle, then spoiled (or left 0) if asked. */
        if (s->ipv == 4) {
            uint16_t hc = oracle_checksum(ip, iphl, 0);
            uint16_t stored = hc;
            enum expect_verdict v = EXPECT_GOOD;
            if (s->corrupt_ip) {
                stored = wrong_value(hc, rng);
                v = tso ? EXPECT_OFFLOAD : EXPECT_BAD;
            } else if (s->offload == OFFLOAD_IP_ZERO && hc != 0) {
                stored = 0;
                v = EXPECT_OFFLOAD;
            }
            be16put(ip + 10, stored);
            const struct expectation e = { "ipv4", v, level, via, stored, hc };
            expect_add(dg->expect, &dg->n_expect, &e);
        }
        if (has_l4) {
            struct expectation e = l4e;
            /* A fragmented datagram's checksum is not checkable; a zero UDP checksum over
             * IPv4 still says "none" where the UDP header is (the first fragment). */
            if (nfrag > 1 && !(count == 0 && e.verdict == EXPECT_NONE))
                e.verdict = EXPECT_NOT_CHECKABLE;
            /* A jumbogram of 65535 bytes or less is malformed: its length is not known. */
            if (jumbo_malformed && e.verdict != EXPECT_NONE)
                e.verdict = EXPECT_NOT_CHECKABLE;
            expect_add(dg->expect, &dg->n_expect, &e);
        }
    }
    return count;
}
