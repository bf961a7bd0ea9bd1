/*
 * Building packets byte by byte, with every checksum from the oracle.
 *
 * The order is: choose the bytes of the IP datagram (transport header and payload, then IP
 * header and extension headers), compute the transport checksum over pseudo-header +
 * segment with the oracle, split into fragments if asked, compute each IPv4 header checksum
 * with the oracle, put the link header in front, then spoil the checksums that should be
 * wrong and note what a verifier must say.
 */
#include "pcapgen.h"

#include "csum_oracle.h"

#include <string.h>

static void be16put(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

static uint16_t be16get(const unsigned char *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint64_t rnd(uint64_t *rng)
{
    return testdata_next(rng);
}

/* Pseudo-random bytes, the same on every host (testdata_fill's depend on byte order). */
static void fill(void *dst, size_t n, uint64_t seed)
{
    unsigned char *p = dst;
    uint64_t state = seed, v = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            v = testdata_next(&state);
        p[i] = (unsigned char)(v >> (8 * (i % 8)));
    }
}

/* A wrong value for a checksum whose correct value is `good`: different, and not the other
 * ones'-complement zero when good is 0x0000 or 0xffff (that would still verify). Never 0,
 * which means "no checksum" for UDP. */
static uint16_t wrong_value(uint16_t good, uint64_t *rng)
{
    for (;;) {
        uint16_t w = (uint16_t)(good ^ (1 + rnd(rng) % 0xfffe));
        if (w != 0 && w != 0xffff && w != good)
            return w;
    }
}

/* The checksum over pseudo-header + segment (field zeroed), per the oracle. */
static uint16_t transport_checksum(int ipv, const unsigned char *src, const unsigned char *dst,
                                   uint8_t proto, const unsigned char *seg, size_t len)
{
    static unsigned char buf[40 + MAX_FRAME];
    size_t n = 0;
    if (proto != 1) { /* ICMP has no pseudo-header */
        size_t alen = ipv == 4 ? 4 : 16;
        memcpy(buf, src, alen);
        memcpy(buf + alen, dst, alen);
        n = 2 * alen;
        if (ipv == 4) {
            buf[n++] = 0;
            buf[n++] = proto;
            be16put(buf + n, (uint16_t)len);
            n += 2;
        } else {
            be16put(buf + n, (uint16_t)(len >> 16));
            be16put(buf + n + 2, (uint16_t)len);
            buf[n + 4] = buf[n + 5] = buf[n + 6] = 0;
            buf[n + 7] = proto;
            n += 8;
        }
    }
    memcpy(buf + n, seg, len);
    return oracle_checksum(buf, n + len, 0);
}

static const char *layer_of(uint8_t proto)
{
    switch (proto) {
    case 6: return "tcp";
    case 17: return "udp";
    case 1: return "icmp";
    default: return "icmpv6";
    }
}

static size_t checksum_field(uint8_t proto)
{
    return proto == 6 ? 16 : proto == 17 ? 6 : 2;
}

/* The transport segment: header, options, payload; checksum field zero. Returns its length. */
static size_t build_segment(const struct pkt_spec *s, uint64_t *rng, unsigned char *seg)
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
        seg[13] = 0x18; /* PSH, ACK */
        be16put(seg + 14, 0xfaf0);
        memset(seg + 20, 1, hlen - 20); /* NOP options */
        break;
    case 17:
        hlen = 8;
        be16put(seg, (uint16_t)(40000 + rnd(rng) % 1000));
        be16put(seg + 2, (uint16_t)(50000 + rnd(rng) % 1000));
        be16put(seg + 4, (uint16_t)(8 + s->payload));
        be16put(seg + 6, 0);
        break;
    default: /* ICMP echo request (8) / ICMPv6 echo request (128) */
        hlen = 8;
        memset(seg, 0, 8);
        seg[0] = s->proto == 1 ? 8 : 128;
        fill(seg + 4, 4, rnd(rng)); /* identifier, sequence */
        break;
    }
    fill(seg + hlen, s->payload, rnd(rng));
    if (s->icmp_all_zero && s->proto == 1)
        memset(seg, 0, hlen + s->payload); /* echo reply, id 0, seq 0, payload zeros */
    return hlen + s->payload;
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

/* IPv6 extension headers in front of the transport; returns their length. `dst` may be
 * changed to the current destination of a segment-routed packet (the pseudo-header keeps
 * using `final_dst`). */
static size_t build_v6_ext(const struct pkt_spec *s, uint64_t *rng, unsigned char *p,
                           uint8_t *first_next, unsigned char *dst_in_header,
                           const unsigned char *final_dst, int with_fragment)
{
    uint8_t kinds[8];
    int n = 0;
    if (s->ext & EXT_HBH) kinds[n++] = 0;
    if (s->ext & EXT_DSTOPTS) kinds[n++] = 60;
    if (s->ext & EXT_RT0) kinds[n++] = 43;
    if (s->ext & EXT_SRH) kinds[n++] = 143; /* markers: routing headers (43) of other kinds */
    if (s->ext & EXT_RT0_LEFT) kinds[n++] = 243;
    if (with_fragment) kinds[n++] = 44;
    if (s->ext & EXT_AH) kinds[n++] = 51;

    size_t len = 0;
    unsigned char *prev_next = first_next;
    for (int i = 0; i < n; i++) {
        unsigned char *h = p + len;
        size_t hl;
        uint8_t type = kinds[i] == 143 || kinds[i] == 243 ? 43 : kinds[i];
        *prev_next = type;
        switch (kinds[i]) {
        case 0: case 60: /* PadN option filling 6 bytes */
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

/* Link header for `link` carrying IP version ipv; returns its length. */
static size_t build_link(enum link link, int ipv, uint64_t *rng, unsigned char *p)
{
    const uint16_t ethertype = ipv == 4 ? 0x0800 : 0x86dd;
    size_t n = 0;
    switch (link) {
    case LINK_ETHERNET: case LINK_VLAN: case LINK_QINQ:
        fill(p, 12, rnd(rng));
        p[0] &= 0xfe; /* unicast destination */
        n = 12;
        if (link == LINK_QINQ) {
            be16put(p + n, 0x88a8);
            be16put(p + n + 2, (uint16_t)(rnd(rng) & 0x0fff));
            n += 4;
        }
        if (link != LINK_ETHERNET) {
            be16put(p + n, 0x8100);
            be16put(p + n + 2, (uint16_t)(rnd(rng) & 0x0fff));
            n += 4;
        }
        be16put(p + n, ethertype);
        return n + 2;
    case LINK_SLL:
        be16put(p, 0);      /* sent to us */
        be16put(p + 2, 1);  /* ARPHRD_ETHER */
        be16put(p + 4, 6);
        fill(p + 6, 6, rnd(rng));
        memset(p + 12, 0, 2);
        be16put(p + 14, ethertype);
        return 16;
    case LINK_SLL2:
        be16put(p, ethertype);
        be16put(p + 2, 0);
        fill(p + 4, 4, rnd(rng)); /* interface index */
        be16put(p + 8, 1);
        p[10] = 0;
        p[11] = 6;
        fill(p + 12, 6, rnd(rng));
        memset(p + 18, 0, 2);
        return 20;
    case LINK_NULL:
        p[0] = ipv == 4 ? 2 : 30;
        p[1] = p[2] = p[3] = 0;
        return 4;
    default:
        return 0;
    }
}

uint32_t linktype_of(enum link link, int ipv, int raw_style)
{
    switch (link) {
    case LINK_SLL: return 113;
    case LINK_SLL2: return 276;
    case LINK_NULL: return 0;
    case LINK_RAW: return raw_style == 0 ? 101 : ipv == 4 ? 228 : 229;
    default: return 1;
    }
}

static void expect(struct frame *f, const char *layer, enum expect_verdict v, uint16_t stored,
                   uint16_t computed)
{
    if (f->n_expect < MAX_EXPECT)
        f->expect[f->n_expect++] = (struct expectation){ layer, v, stored, computed };
}

int build_packet(const struct pkt_spec *s, uint64_t *rng, struct frame *frames)
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

    /* The segment and its correct checksum (over the final destination). */
    size_t seglen = build_segment(s, rng, seg);
    const size_t field = checksum_field(s->proto);
    uint16_t l4 = transport_checksum(s->ipv, src, final_dst, s->proto, seg, seglen);
    if (s->l4_sum_zero && s->payload >= 2) {
        /* Adjust the last two payload bytes, at an even offset of the segment, so that the
         * checksum comes out 0x0000: add the current checksum value there. */
        size_t at = seglen - 2 - (seglen & 1);
        uint32_t w = (uint32_t)be16get(seg + at) + l4;
        w = (w & 0xffff) + (w >> 16);
        be16put(seg + at, (uint16_t)w);
        l4 = transport_checksum(s->ipv, src, final_dst, s->proto, seg, seglen);
    }
    uint16_t l4_stored = l4, l4_expected = l4;
    if (s->proto == 17 && l4 == 0)
        l4_stored = l4_expected = 0xffff; /* UDP sends a computed 0 as all ones */
    enum expect_verdict l4_verdict = EXPECT_GOOD;
    if (s->udp_zero && s->proto == 17) {
        l4_stored = 0;
        l4_verdict = s->ipv == 4 ? EXPECT_NO_CHECKSUM : EXPECT_BAD;
    } else if (s->corrupt_l4) {
        l4_stored = wrong_value(l4_expected, rng);
        l4_verdict = EXPECT_BAD;
    }
    be16put(seg + field, l4_stored);

    /* IP fragments carry pieces of the segment; every fragment repeats the IP header and
     * (IPv6) the extension headers, so specs with fragments use no AH. */
    const int nfrag = s->fragments > 1 ? s->fragments : 1;
    const size_t piece = nfrag > 1 ? ((seglen / nfrag) + 7) / 8 * 8 : seglen;
    int ipv4_ah = s->ipv == 4 && (s->ext & EXT_AH);
    int count = 0;
    for (size_t next_done = 0; next_done < seglen || count == 0; count++) {
        struct frame *fr = &frames[count];
        memset(fr, 0, sizeof *fr);
        const size_t done = next_done;
        const size_t this_len = seglen - done < piece ? seglen - done : piece;
        const int more = done + this_len < seglen;
        next_done = done + this_len;
        unsigned char *p = fr->data;
        size_t n = build_link(s->link, s->ipv, rng, p);
        const size_t ip_off = n;
        unsigned char *ip = p + n;
        size_t iphl, ext_len = 0;
        if (s->ipv == 4) {
            iphl = 20 + 4 * (size_t)s->ip_option_words;
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
            if (s->ip_option_words) { /* router alert, then NOPs */
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
            be16put(ip + 2, (uint16_t)(iphl + ext_len + this_len));
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
            be16put(ip + 4, (uint16_t)(ext_len + this_len));
        }
        memcpy(ip + iphl + ext_len, seg + done, this_len);
        n += iphl + ext_len + this_len;

        /* IPv4 header checksum by the oracle, then spoiled if asked. */
        if (s->ipv == 4) {
            uint16_t hc = oracle_checksum(ip, iphl, 0);
            uint16_t stored = s->corrupt_ip ? wrong_value(hc, rng) : hc;
            be16put(ip + 10, stored);
            fr->expect[fr->n_expect++] = (struct expectation){
                "ipv4", s->corrupt_ip ? EXPECT_BAD : EXPECT_GOOD, stored, hc };
        }
        if (s->link <= LINK_QINQ && s->pad_ethernet && n < 60) {
            memset(p + n, 0, 60 - n);
            n = 60;
        }
        fr->wirelen = n;
        fr->caplen = s->snap && s->snap < n ? s->snap : n;

        /* What a verifier can see of this frame. */
        const size_t ip_end = ip_off + iphl + ext_len + this_len;
        if (s->ipv == 4 && fr->caplen < ip_off + iphl) {
            fr->n_expect = 0;
            expect(fr, "ipv4", EXPECT_NOT_CHECKABLE, 0, 0);
            continue; /* nothing past a truncated IPv4 header is looked at */
        }
        if (fr->caplen < ip_off + iphl + ext_len)
            continue; /* extension headers cut: the transport is never reached */
        if (nfrag > 1 || fr->caplen < ip_end)
            expect(fr, layer_of(s->proto), EXPECT_NOT_CHECKABLE, 0, 0);
        else
            expect(fr, layer_of(s->proto), l4_verdict, l4_stored, l4_expected);
    }
    return count;
}
