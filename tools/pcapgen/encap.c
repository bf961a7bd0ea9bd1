/*
 * Tunnels: an inner datagram wrapped in an outer one, every outer checksum from the oracle
 * over the bytes it covers (inner packet included). GRE (RFC 2784, RFC 2890, RFC 1701's source
 * route), ERSPAN types I, II and III (draft-foschiano-erspan), VXLAN (RFC 7348), VXLAN-GPE,
 * Geneve (RFC 8926), IP in IP, and ICMP / ICMPv6 errors quoting the inner packet (RFC 792,
 * RFC 4443).
 */
#include "pcapgen.h"

#include "csum_oracle.h"

#include <string.h>

static const struct {
    const char *name;
    const char *csum_option, *tshark_option;
} encaps[ENCAP_COUNT] = {
    [ENCAP_NONE] = { "none", NULL, NULL },
    [ENCAP_IPIP] = { "ipip", NULL, NULL },
    [ENCAP_GRE] = { "gre", NULL, NULL },
    [ENCAP_GRE_CSUM] = { "gre-csum", NULL, NULL },
    [ENCAP_GRE_TEB] = { "gre-eth", NULL, NULL },
    [ENCAP_ERSPAN1] = { "erspan1", NULL, NULL },
    [ENCAP_ERSPAN2] = { "erspan2", NULL, NULL },
    [ENCAP_ERSPAN3] = { "erspan3", NULL, NULL },
    [ENCAP_VXLAN] = { "vxlan", NULL, NULL },
    [ENCAP_VXLAN_PORT] = { "vxlan-8472", "--vxlan-port=8472", "udp.port==8472,vxlan" },
    [ENCAP_VXLAN_GPE] = { "vxlan-gpe", NULL, NULL },
    [ENCAP_GENEVE] = { "geneve", NULL, NULL },
    [ENCAP_GENEVE_PORT] = { "geneve-6082", "--geneve-port=6082", "udp.port==6082,geneve" },
    [ENCAP_ICMP_ERROR] = { "icmp-error", NULL, NULL },
    [ENCAP_ICMP_ERROR_CUT] = { "icmp-error-cut", NULL, NULL },
    [ENCAP_GRE_ROUTE] = { "gre-route", NULL, NULL },
};

const char *encap_name(enum encap e) { return encaps[e].name; }
const char *encap_csum_option(enum encap e) { return encaps[e].csum_option; }
const char *encap_tshark_option(enum encap e) { return encaps[e].tshark_option; }

int encap_find(const char *name)
{
    for (int i = 0; i < ENCAP_COUNT; i++)
        if (!strcmp(name, encaps[i].name))
            return i;
    return -1;
}

/* The inner datagram's expectations, one level down, in `out`. */
static void nest(struct datagram *out, const struct datagram *inner, enum via via)
{
    for (int i = 0; i < inner->n_expect; i++) {
        struct expectation e = inner->expect[i];
        if (e.level == 0)
            e.via = via;
        e.level++;
        expect_add(out->expect, &out->n_expect, &e);
    }
}

/*
 * RFC 4884 after the quote carry[0..*quoted) of an ICMP error of IP version `ipv`: the
 * "original datagram" field (t->icmp_field bytes, or the quote padded to whole words and
 * 128 bytes; a longer quote is cut), its length in words in the header's second word *rest
 * (ICMP byte 5, ICMPv6 byte 4), then the extension structure t->icmp_ext asks for: header
 * (version, reserved, checksum over the structure) and an MPLS label stack object of 1 to 3
 * entries (RFC 4950: class 1, C-Type 1). Returns the bytes carried; the structure's checksum
 * expectation (level 0) in *e, and whether there is one.
 */
static size_t icmp_multipart(const struct tunnel_spec *t, int ipv, unsigned char *carry,
                             size_t *quoted, uint32_t *rest, uint64_t *rng, struct expectation *e)
{
    const size_t unit = ipv == 4 ? 4 : 8;
    size_t field = t->icmp_field;
    if (!field) {
        field = (*quoted + unit - 1) / unit * unit;
        if (field < 128)
            field = 128;
    }
    if (*quoted > field)
        *quoted = field;
    memset(carry + *quoted, 0, field - *quoted);
    *rest |= (uint32_t)(field / unit) << (ipv == 4 ? 16 : 24);
    if (t->icmp_ext == ICMP_EXT_LENGTH_ONLY)
        return field;
    unsigned char *x = carry + field;
    const size_t entries = 1 + rnd(rng) % 3, len = 8 + 4 * entries;
    x[0] = t->icmp_ext == ICMP_EXT_VERSION_1 ? 0x10 : 0x20;
    x[1] = 0;
    be16put(x + 4, (uint16_t)(len - 4)); /* the object: length, class, C-Type, entries */
    x[6] = x[7] = 1;
    const int negative_zero = t->icmp_ext == ICMP_EXT_NEGATIVE_ZERO ||
                              t->icmp_ext == ICMP_EXT_NEGATIVE_ZERO_BAD;
    uint16_t want;
    do { /* labels whose checksum is not 0, which would say "none" */
        fill(x + 8, 4 * entries, rnd(rng));
        be16put(x + 2, 0);
        want = oracle_checksum(x, len, 0);
    } while (want == 0);
    if (negative_zero) {
        /* The last label's low word takes the checksum in: the structure then sums to all
         * ones, its checksum computes to 0, and the one value that says so is 0xffff. */
        const size_t last = len - 2;
        const uint32_t folded = (uint32_t)be16get(x + last) + want;
        be16put(x + last, (uint16_t)(folded + (folded >> 16)));
        want = 0xffff;
    }
    const uint16_t stored = t->icmp_ext == ICMP_EXT_ZERO ? 0
                          : t->icmp_ext == ICMP_EXT_GOOD || t->icmp_ext == ICMP_EXT_NEGATIVE_ZERO
                              ? want
                              : wrong_value(want, rng);
    be16put(x + 2, stored);
    const struct expectation ext = { "icmp-ext", stored == want ? EXPECT_GOOD : EXPECT_BAD, 0,
                                     VIA_NONE, stored, want };
    if (field >= 128 && stored != 0 && t->icmp_ext != ICMP_EXT_VERSION_1)
        *e = ext;
    return field + len;
}

/* A GRE header with `flags` for `proto`; the checksum (if any) is filled in later. */
static size_t gre_header(unsigned char *p, uint16_t flags, uint16_t proto, uint64_t *rng)
{
    size_t n = 4;
    be16put(p, flags);
    be16put(p + 2, proto);
    if (flags & 0xc000) { /* checksum and reserved (RFC 1701: offset), with C or R */
        memset(p + n, 0, 4);
        n += 4;
    }
    if (flags & 0x2000) {
        fill(p + n, 4, rnd(rng)); /* key */
        n += 4;
    }
    if (flags & 0x1000) {
        be32put(p + n, (uint32_t)(rnd(rng) % 100000)); /* sequence number */
        n += 4;
    }
    if (flags & 0x4000) { /* RFC 1701's route: an IPv4 entry of two addresses, the null entry */
        be16put(p + n, 0x0800);
        p[n + 2] = 0;
        p[n + 3] = 8;
        fill(p + n + 4, 8, rnd(rng));
        memset(p + n + 12, 0, 4);
        n += 16;
    }
    return n;
}

void build_tunnel(const struct tunnel_spec *t, const struct datagram *inner, uint64_t *rng,
                  struct datagram *out)
{
    static unsigned char carry[MAX_FRAME];
    size_t n = 0, gre_len = 0;
    enum via via = VIA_NONE;
    struct ip_spec outer = { .ipv = t->outer_ipv, .corrupt_ip = t->corrupt_outer_ip };
    int gre_csum = 0;
    size_t quoted = inner->len;
    struct expectation ext = { NULL, EXPECT_GOOD, 0, VIA_NONE, 0, 0 }; /* RFC 4884's checksum */

    switch (t->encap) {
    case ENCAP_IPIP:
        outer.proto = inner->ipv == 4 ? 4 : 41;
        memcpy(carry, inner->data, inner->len);
        n = inner->len;
        via = VIA_IP;
        break;
    case ENCAP_GRE:
    case ENCAP_GRE_CSUM:
    case ENCAP_GRE_ROUTE:
        gre_csum = t->encap != ENCAP_GRE;
        n = gre_header(carry, t->encap == ENCAP_GRE_ROUTE ? 0xf000 : gre_csum ? 0xa000 : 0x3000,
                       inner->ipv == 4 ? 0x0800 : 0x86dd, rng);
        gre_len = n;
        memcpy(carry + n, inner->data, inner->len);
        n += inner->len;
        via = VIA_GRE;
        break;
    case ENCAP_GRE_TEB:
        gre_csum = 1;
        n = gre_header(carry, 0x8000, 0x6558, rng);
        gre_len = n;
        n += ethernet_header(carry + n, inner->ipv == 4 ? 0x0800 : 0x86dd, 0, rng);
        memcpy(carry + n, inner->data, inner->len);
        n += inner->len;
        via = VIA_GRE;
        break;
    case ENCAP_ERSPAN1:
    case ENCAP_ERSPAN2:
    case ENCAP_ERSPAN3: {
        const int type = t->encap - ENCAP_ERSPAN1 + 1;
        n = gre_header(carry, type == 1 ? 0 : 0x1000, type == 3 ? 0x22eb : 0x88be, rng);
        gre_len = n;
        if (type == 2) { /* version 1, VLAN, COS/En/T, session id; reserved, index */
            be16put(carry + n, (uint16_t)(0x1000 | (rnd(rng) & 0xfff)));
            be16put(carry + n + 2, (uint16_t)(rnd(rng) & 0x3ff));
            be32put(carry + n + 4, (uint32_t)(rnd(rng) & 0xfffff));
            n += 8;
        } else if (type == 3) { /* version 2, ..., timestamp, SGT, flags; O: subheader */
            const int sub = rnd(rng) & 1;
            be16put(carry + n, (uint16_t)(0x2000 | (rnd(rng) & 0xfff)));
            be16put(carry + n + 2, (uint16_t)(rnd(rng) & 0x3ff));
            be32put(carry + n + 4, (uint32_t)rnd(rng));
            be16put(carry + n + 8, 0);
            be16put(carry + n + 10, (uint16_t)(sub ? 1 : 0));
            n += 12;
            if (sub) { /* platform-specific subheader, platform id 3 */
                memset(carry + n, 0, 8);
                carry[n] = 3 << 2;
                n += 8;
            }
        }
        n += ethernet_header(carry + n, inner->ipv == 4 ? 0x0800 : 0x86dd, rnd(rng) & 1, rng);
        memcpy(carry + n, inner->data, inner->len);
        n += inner->len;
        via = VIA_ERSPAN;
        break;
    }
    case ENCAP_VXLAN:
    case ENCAP_VXLAN_PORT:
        outer.proto = 17;
        outer.dport = t->encap == ENCAP_VXLAN ? 4789 : 8472;
        carry[0] = 0x08; /* I: the VNI is valid */
        memset(carry + 1, 0, 3);
        be32put(carry + 4, (uint32_t)((rnd(rng) & 0xffffff) << 8));
        n = 8 + ethernet_header(carry + 8, inner->ipv == 4 ? 0x0800 : 0x86dd, rnd(rng) & 1, rng);
        memcpy(carry + n, inner->data, inner->len);
        n += inner->len;
        via = VIA_VXLAN;
        break;
    case ENCAP_VXLAN_GPE:
        outer.proto = 17;
        outer.dport = 4790;
        carry[0] = 0x0c; /* I and P: a next-protocol field */
        carry[1] = carry[2] = 0;
        carry[3] = inner->ipv == 4 ? 1 : 2;
        be32put(carry + 4, (uint32_t)((rnd(rng) & 0xffffff) << 8));
        memcpy(carry + 8, inner->data, inner->len);
        n = 8 + inner->len;
        via = VIA_VXLAN_GPE;
        break;
    case ENCAP_GENEVE:
    case ENCAP_GENEVE_PORT:
        outer.proto = 17;
        outer.dport = t->encap == ENCAP_GENEVE ? 6081 : 6082;
        carry[0] = 2;    /* version 0, options: 2 words */
        carry[1] = 0;
        be16put(carry + 2, 0x6558);
        be32put(carry + 4, (uint32_t)((rnd(rng) & 0xffffff) << 8));
        be16put(carry + 8, 0x0102); /* option class */
        carry[10] = 0x01;           /* type */
        carry[11] = 1;              /* length: 1 word */
        fill(carry + 12, 4, rnd(rng));
        n = 16 + ethernet_header(carry + 16, inner->ipv == 4 ? 0x0800 : 0x86dd, 0, rng);
        memcpy(carry + n, inner->data, inner->len);
        n += inner->len;
        via = VIA_GENEVE;
        break;
    case ENCAP_ICMP_ERROR:
    case ENCAP_ICMP_ERROR_CUT:
        /* An error about the inner packet, in the same IP version: destination unreachable
         * (port), time exceeded, parameter problem (pointing at the TTL / hop limit) or, for
         * IPv6, packet too big. The cut quote ends 8 bytes into the transport header. */
        outer.ipv = inner->ipv;
        outer.proto = inner->ipv == 4 ? 1 : 58;
        if (inner->ipv == 4) {
            static const uint8_t types[] = { 3, 11, 12 };
            outer.icmp_type = t->icmp_type ? t->icmp_type : types[rnd(rng) % 3];
            outer.icmp_code = outer.icmp_type == 3 ? 3 : 0;
            if (outer.icmp_type == 12)
                outer.icmp_rest = 8u << 24;
        } else {
            static const uint8_t types[] = { 1, 2, 3, 4 };
            outer.icmp_type = t->icmp_type ? t->icmp_type : types[rnd(rng) % 4];
            outer.icmp_code = outer.icmp_type == 1 ? 4 : 0;
            if (outer.icmp_type == 2 || outer.icmp_type == 4)
                outer.icmp_rest = outer.icmp_type == 2 ? 1280 : 7; /* MTU, pointer */
        }
        if (t->encap == ENCAP_ICMP_ERROR_CUT && inner->l4_off + 8 < inner->len)
            quoted = inner->l4_off + 8;
        memcpy(carry, inner->data, quoted);
        n = quoted;
        if (t->icmp_ext != ICMP_EXT_NONE)
            n = icmp_multipart(t, inner->ipv, carry, &quoted, &outer.icmp_rest, rng, &ext);
        via = inner->ipv == 4 ? VIA_ICMP : VIA_ICMPV6;
        break;
    default:
        break;
    }

    if (gre_csum) { /* over the GRE header and payload, field zero */
        const uint16_t c = oracle_checksum(carry, n, 0);
        const uint16_t stored = t->corrupt_outer_l4 ? wrong_value(c, rng) : c;
        be16put(carry + 4, stored);
    }
    if (outer.proto == 0)
        outer.proto = 47;
    outer.carry = carry;
    outer.carry_len = n;
    /* Tunnels over IPv4 often send no UDP checksum (RFC 7348 allows it): now and then. */
    if (outer.proto == 17 && outer.ipv == 4 && !t->corrupt_outer_l4 && rnd(rng) % 3 == 0)
        outer.udp_zero = 1;
    else
        outer.corrupt_l4 = t->corrupt_outer_l4;

    build_ip(&outer, 0, VIA_NONE, rng, out); /* outer expectations: IPv4 header, UDP/ICMP */
    out->tunnel_off = out->tunnel_l4_end = out->inner_off = 0;
    if (via != VIA_ICMP && via != VIA_ICMPV6) {
        out->tunnel_off = out->l4_off + (outer.proto == 17 ? 8 : 0);
        out->tunnel_l4_end = out->tunnel_off + gre_len;
        out->inner_off = out->len - inner->len;
    }

    /* Quoted in an ICMP error: a zero UDP checksum says "none", over IPv6 too (a quote is not
     * a datagram to deliver: RFC 8200 section 8.1's rule is for receivers, and Wireshark
     * ignores the zero), and so does UDP-Lite's (never valid in a datagram, RFC 3828 section
     * 3.1; ignored by Wireshark in a quote too), even in a transport cut short, which is
     * otherwise not checkable; a quoted ICMP message is never checked, as in Wireshark. */
    static struct datagram quoted_inner;
    const struct datagram *in = inner;
    if (via == VIA_ICMP || via == VIA_ICMPV6) {
        quoted_inner.n_expect = 0;
        for (int i = 0; i < inner->n_expect; i++) {
            struct expectation e = inner->expect[i];
            const int icmp = !strcmp(e.layer, "icmp") || !strcmp(e.layer, "icmpv6");
            const int cut = quoted < inner->len && strcmp(e.layer, "ipv4") != 0;
            if ((!strcmp(e.layer, "udp") || !strcmp(e.layer, "udplite")) && e.stored == 0)
                e.verdict = EXPECT_NONE;
            if (icmp || (cut && e.verdict != EXPECT_NONE))
                e.verdict = EXPECT_NOT_CHECKABLE;
            expect_add(quoted_inner.expect, &quoted_inner.n_expect, &e);
        }
        in = &quoted_inner;
    }
    nest(out, in, via);
    if (ext.layer)
        expect_add(out->expect, &out->n_expect, &ext);
    if (gre_csum) { /* the value to store: over the GRE header with the field zeroed */
        unsigned char *gre = out->data + out->l4_off;
        const uint16_t stored = be16get(gre + 4);
        be16put(gre + 4, 0);
        const uint16_t want = oracle_checksum(gre, out->len - out->l4_off, 0);
        be16put(gre + 4, stored);
        const struct expectation e = { "gre", stored == want ? EXPECT_GOOD : EXPECT_BAD, 0,
                                       VIA_NONE, stored, want };
        expect_add(out->expect, &out->n_expect, &e);
    }
}
