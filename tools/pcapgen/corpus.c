/*
 * The test corpus: one capture per format / link type / encapsulation / policy case, each
 * with NAME.expect (every checksum's verdict), malformed files with the byte offset the
 * error must name, and MANIFEST:
 *   capture NAME STATUS [OPTION...]  csum pcap verify [OPTION...] NAME must exit STATUS (0 or
 *                                    1) and report exactly NAME.expect
 *   skipped NAME N                   N frames of NAME cannot be looked into (encrypted, or cut
 *                                    before their transport)
 *   tshark NAME REASON...            tshark cannot check NAME (the comparison is skipped)
 *   malformed NAME OFFSET            csum pcap verify NAME must exit 2 naming "byte offset OFFSET"
 *   unsupported NAME OFFSET          csum pcap verify NAME must exit 2, an error of kind
 *                                    unsupported (a version csum does not read) at OFFSET
 *   cut NAME OFFSET KEEP             NAME ends inside a record: verify warns naming "byte offset
 *                                    OFFSET" and exits 0 (1 with --strict), fix writes the
 *                                    first KEEP bytes of NAME (its whole records)
 */
#include "pcapgen.h"

#include <stdlib.h>
#include <string.h>

/* A random, plausible datagram: protocols, options, extension headers, sizes, and about a
 * quarter of the checksums wrong. */
struct ip_spec random_ip(uint64_t *rng, int ipv, int allow_fragments)
{
    struct ip_spec s = { 0 };
    s.ipv = ipv ? ipv : (rnd(rng) & 1) ? 4 : 6;
    static const uint8_t v4[] = { 6, 17, 1 }, v6[] = { 6, 17, 58 };
    s.proto = s.ipv == 4 ? v4[rnd(rng) % 3] : v6[rnd(rng) % 3];
    switch (rnd(rng) % 4) {
    case 0: s.payload = rnd(rng) % 24; break;          /* small: Ethernet padding */
    case 1: s.payload = 24 + rnd(rng) % 200; break;
    default: s.payload = 200 + rnd(rng) % 1200; break;
    }
    if (s.ipv == 4 && rnd(rng) % 5 == 0)
        s.ip_option_words = 1 + (int)(rnd(rng) % 10);
    if (s.ipv == 6 && rnd(rng) % 3 == 0)
        s.ext = (int)(rnd(rng) % 32) & (EXT_HBH | EXT_DSTOPTS | EXT_RT0 | EXT_AH);
    if (s.ipv == 4 && rnd(rng) % 10 == 0)
        s.ext = EXT_AH;
    if (s.proto == 6 && rnd(rng) % 3 == 0)
        s.tcp_option_words = 1 + (int)(rnd(rng) % 10);
    s.corrupt_ip = s.ipv == 4 && rnd(rng) % 5 == 0;
    s.corrupt_l4 = rnd(rng) % 4 == 0;
    if (s.proto == 17 && rnd(rng) % 15 == 0)
        s.udp_zero = 1;
    if (s.payload >= 4 && rnd(rng) % 15 == 0)
        s.l4_sum_zero = 1;
    if (allow_fragments && !(s.ext & EXT_AH) && s.payload > 64 && rnd(rng) % 8 == 0)
        s.fragments = 2 + (int)(rnd(rng) % 2);
    return s;
}

static struct pkt_spec random_spec(uint64_t *rng, enum link link, int ipv, int allow_fragments)
{
    struct pkt_spec s = { .link = link, .pad_ethernet = 1 };
    s.ip = random_ip(rng, ipv, allow_fragments);
    return s;
}

void add_packet(struct capture_file *cf, const struct pkt_spec *s, uint64_t *rng,
                uint32_t interface, enum packet_block kind)
{
    static struct frame frames[8];
    int n = build_packet(s, rng, frames);
    for (int i = 0; i < n; i++)
        cf_frame(cf, &frames[i], interface, kind);
}

static void add_random(struct capture_file *cf, int count, enum link link, int ipv,
                       int fragments, uint64_t *rng)
{
    for (int i = 0; i < count; i++) {
        struct pkt_spec s = random_spec(rng, link, ipv, fragments);
        add_packet(cf, &s, rng, 0, PB_ENHANCED);
    }
}

/* The corner cases every link type gets (of the IP version `ipv` only, if not 0). */
static void add_edges(struct capture_file *cf, enum link link, int ipv, uint64_t *rng,
                      int with_bad)
{
    static const struct ip_spec edges[] = {
        /* UDP whose computed checksum is 0: sent as 0xffff, over IPv4 and IPv6 */
        { .ipv = 4, .proto = 17, .payload = 33, .l4_sum_zero = 1 },
        { .ipv = 6, .proto = 17, .payload = 40, .l4_sum_zero = 1 },
        /* TCP and ICMPv6 whose checksum is 0x0000 */
        { .ipv = 4, .proto = 6, .payload = 20, .l4_sum_zero = 1 },
        { .ipv = 6, .proto = 58, .payload = 16, .l4_sum_zero = 1 },
        /* UDP without checksum over IPv4 (fine) */
        { .ipv = 4, .proto = 17, .payload = 10, .udp_zero = 1 },
        /* ICMP of all zeros: the checksum is 0xffff */
        { .ipv = 4, .proto = 1, .payload = 0, .icmp_all_zero = 1 },
        /* longest IPv4 header, longest TCP header, odd lengths */
        { .ipv = 4, .proto = 6, .payload = 777, .ip_option_words = 10, .tcp_option_words = 10 },
        { .ipv = 4, .proto = 17, .payload = 1 },
        { .ipv = 6, .proto = 6, .payload = 1001, .ext = EXT_HBH | EXT_DSTOPTS | EXT_RT0 },
        { .ipv = 6, .proto = 17, .payload = 99, .ext = EXT_AH | EXT_HBH },
        /* segment routing with a segment left: the pseudo-header uses the final address */
        { .ipv = 6, .proto = 6, .payload = 300, .ext = EXT_SRH },
        { .ipv = 6, .proto = 17, .payload = 30, .ext = EXT_SRH | EXT_DSTOPTS },
        { .ipv = 6, .proto = 6, .payload = 120, .ext = EXT_RT0_LEFT },
        { .ipv = 6, .proto = 58, .payload = 56, .ext = EXT_RT0_LEFT | EXT_HBH },
        { .ipv = 4, .proto = 6, .payload = 500, .ext = EXT_AH },
        /* a UDP length below the IP payload's: the checksum covers the UDP datagram only */
        { .ipv = 4, .proto = 17, .payload = 30, .udp_trailer = 6 },
        { .ipv = 6, .proto = 17, .payload = 51, .udp_trailer = 9 },
        /* tiny frames padded to the Ethernet minimum */
        { .ipv = 4, .proto = 17, .payload = 0 },
        { .ipv = 4, .proto = 1, .payload = 2 },
    };
    static const struct ip_spec bad_edges[] = {
        /* UDP without checksum over IPv6 is invalid */
        { .ipv = 6, .proto = 17, .payload = 10, .udp_zero = 1 },
        { .ipv = 6, .proto = 17, .payload = 41, .l4_sum_zero = 1, .udp_zero = 1 },
        /* wrong checksums whose correct value is 0 / 0xffff */
        { .ipv = 4, .proto = 17, .payload = 33, .l4_sum_zero = 1, .corrupt_l4 = 1 },
        { .ipv = 4, .proto = 6, .payload = 20, .l4_sum_zero = 1, .corrupt_l4 = 1 },
        { .ipv = 4, .proto = 1, .payload = 0, .icmp_all_zero = 1, .corrupt_l4 = 1 },
        { .ipv = 4, .proto = 1, .payload = 64, .corrupt_ip = 1, .corrupt_l4 = 1 },
        { .ipv = 6, .proto = 58, .payload = 64, .corrupt_l4 = 1, .ext = EXT_DSTOPTS },
        { .ipv = 4, .proto = 6, .payload = 10, .ip_option_words = 3, .corrupt_ip = 1 },
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        struct pkt_spec s = { .link = link, .ip = edges[i], .pad_ethernet = 1 };
        if (!ipv || s.ip.ipv == ipv)
            add_packet(cf, &s, rng, 0, PB_ENHANCED);
    }
    for (size_t i = 0; with_bad && i < sizeof bad_edges / sizeof bad_edges[0]; i++) {
        struct pkt_spec s = { .link = link, .ip = bad_edges[i], .pad_ethernet = 1 };
        if (!ipv || s.ip.ipv == ipv)
            add_packet(cf, &s, rng, 0, PB_ENHANCED);
    }
}

/* Note for the test that tshark cannot check a capture. */
static void tshark_gap(FILE *manifest, const char *name, const char *why)
{
    if (why)
        fprintf(manifest, "tshark %s %s\n", name, why);
}

/* A whole pcap file of one link type (ipv: only that IP version; 0: both). */
static void link_file(const char *dir, FILE *manifest, const char *name, int big, int ns,
                      enum link link, int ipv, int count, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, name, FMT_PCAP, big, ns, linktype_of(link, ipv ? ipv : 4), 1);
    add_edges(&cf, link, ipv, &rng, 1);
    add_random(&cf, count, link, ipv, link_info(link)->ethernet, &rng);
    cf_close(&cf, manifest, NULL);
    tshark_gap(manifest, name, link_info(link)->tshark_gap);
}

/* 802.11 with the frames a monitor sees: plain, QoS, four addresses, A-MSDU, protected. */
static void wlan_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    static const enum link kinds[] = { LINK_WLAN, LINK_WLAN_QOS, LINK_WLAN_4ADDR,
                                       LINK_WLAN_AMSDU, LINK_WLAN_PROTECTED };
    cf_open(&cf, dir, "wlan.pcap", FMT_PCAP, 0, 0, 105, 1);
    add_edges(&cf, LINK_WLAN, 0, &rng, 1);
    for (int i = 0; i < 100; i++) {
        struct pkt_spec s = random_spec(&rng, kinds[i % 5], 0, 0);
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* Ethernet with MPLS, PPPoE or MACsec below IP. */
static void l2_file(const char *dir, FILE *manifest, const char *name, enum l2encap l2,
                    uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 80; i++) {
        struct pkt_spec s = random_spec(&rng, LINK_ETHERNET, 0, 0);
        s.l2 = l2 == L2_MACSEC && i % 4 == 3 ? L2_MACSEC_ENCRYPTED : l2;
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* One tunnel, over IPv4 and IPv6, with inner and outer checksums wrong now and then. */
static void tunnel_file(const char *dir, FILE *manifest, enum encap encap, uint64_t seed)
{
    char name[64];
    snprintf(name, sizeof name, "tunnel-%s.pcap", encap_name(encap));
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 80; i++) {
        struct pkt_spec s = random_spec(&rng, i % 3 ? LINK_ETHERNET : LINK_VLAN, 0, 0);
        s.ip.ext &= ~EXT_AH;
        if (encap == ENCAP_ICMP_ERROR) /* quoted whole: keep it short */
            s.ip.payload %= 200;
        s.tunnel.encap = encap;
        s.tunnel.outer_ipv = rnd(&rng) & 1 ? 4 : 6;
        s.tunnel.corrupt_outer_ip = rnd(&rng) % 6 == 0;
        s.tunnel.corrupt_outer_l4 = rnd(&rng) % 6 == 0;
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    for (int i = 0; i < 4 && (encap == ENCAP_ICMP_ERROR || encap == ENCAP_ICMP_ERROR_CUT); i++) {
        /* a quoted UDP datagram without a checksum: "none", over IPv6 too */
        struct pkt_spec s = { .link = LINK_ETHERNET, .pad_ethernet = 1 };
        s.ip = (struct ip_spec){ .ipv = i & 1 ? 6 : 4, .proto = 17, .udp_zero = 1,
                                 .payload = 10 + rnd(&rng) % 100 };
        s.tunnel = (struct tunnel_spec){ .encap = encap, .outer_ipv = s.ip.ipv,
                                         .corrupt_outer_l4 = i >= 2 };
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, encap_csum_option(encap));
}

/* What hosts with checksum and segmentation offload capture of their own packets. */
static void offload_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "offload.pcap", FMT_PCAP, 0, 0, 1, 1);
    static const enum offload kinds[] = { OFFLOAD_PARTIAL, OFFLOAD_PARTIAL_NOLEN, OFFLOAD_TSO,
                                          OFFLOAD_IP_ZERO, OFFLOAD_NONE };
    for (int i = 0; i < 100; i++) {
        struct pkt_spec s = { .link = LINK_ETHERNET, .pad_ethernet = 1 };
        s.ip.offload = kinds[i % 5];
        s.ip.ipv = s.ip.offload == OFFLOAD_IP_ZERO || s.ip.offload == OFFLOAD_TSO ? 4
                 : rnd(&rng) & 1 ? 4 : 6;
        s.ip.proto = rnd(&rng) & 1 ? 6 : 17;
        /* super-packets are large: no Ethernet padding changes their presumed length */
        s.ip.payload = s.ip.offload == OFFLOAD_TSO ? 2000 + rnd(&rng) % 30000 : 50 + rnd(&rng) % 1400;
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* IPv6 jumbograms (RFC 2675) on a loopback link: TCP and UDP, right and wrong. At the edges:
 * a Jumbo Payload length (Hop-by-Hop header and segment) of 65535, malformed (section 3: it
 * must be above 65535, so the checksums are not checkable), and of 65536, the smallest; UDP
 * datagrams of 65535 bytes, whose length field still holds it, and of 65536, whose length
 * field says 0 (section 4). */
static void jumbo_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "jumbo.pcap", FMT_PCAP, 0, 0, 0, 1);
    for (int i = 0; i < 8; i++) {
        struct pkt_spec s = { .link = LINK_NULL };
        s.ip = (struct ip_spec){ .ipv = 6, .jumbo = 1, .proto = i & 1 ? 17 : 6,
                                 .payload = 65536 + rnd(&rng) % 2000, .corrupt_l4 = i % 4 >= 2,
                                 .ext = i % 3 == 0 ? EXT_DSTOPTS : 0 };
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    static const size_t jumbo_lengths[] = { 65535, 65536, 8 + 65535, 8 + 65536 };
    for (int i = 0; i < 4 * 4; i++) {
        const size_t length = jumbo_lengths[i / 4];
        const uint8_t proto = i / 4 >= 2 || i & 1 ? 17 : 6; /* the last two: UDP datagrams */
        const size_t headers = 8 + (proto == 6 ? 20 : 8); /* Hop-by-Hop, TCP or UDP */
        struct pkt_spec s = { .link = LINK_NULL };
        s.ip = (struct ip_spec){ .ipv = 6, .jumbo = 1, .proto = proto,
                                 .payload = length - headers, .corrupt_l4 = i % 4 >= 2 };
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    add_random(&cf, 10, LINK_NULL, 6, 0, &rng);
    cf_close(&cf, manifest, NULL);
}

/* Stored 0xffff where 0x0000 is computed: bad for TCP (Wireshark's rule, unless --rfc1624),
 * good for ICMP and ICMPv6 (which `fix` leaves alone), required for UDP. */
static void ffff_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "ffff.pcap", FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 40; i++) {
        struct pkt_spec s = { .link = LINK_ETHERNET, .pad_ethernet = 1 };
        const int ipv = rnd(&rng) & 1 ? 4 : 6;
        static const uint8_t protos[] = { 17, 6, 6, 1 };
        const uint8_t proto = protos[i % 4] == 1 && ipv == 6 ? 58 : protos[i % 4];
        s.ip = (struct ip_spec){ .ipv = ipv, .proto = proto,
                                 .payload = 20 + rnd(&rng) % 500, .l4_sum_zero = 1,
                                 .tcp_ffff = i % 4 % 2 == 1 };
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* Snap lengths that cut inside the IPv4 header, the transport header and the payload. */
static void truncated_pcap(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "truncated.pcap", FMT_PCAP, 0, 0, 1, 1);
    static const size_t snaps[] = { 15, 20, 33, 34, 40, 50, 53, 54, 60, 64, 68, 96, 128, 200 };
    for (int i = 0; i < 240; i++) {
        struct pkt_spec s = random_spec(&rng, LINK_ETHERNET, 0, 1);
        s.snap = snaps[rnd(&rng) % (sizeof snaps / sizeof snaps[0])];
        if (i % 3 == 0)
            s.ip.corrupt_l4 = s.ip.corrupt_ip = 1; /* wrong, but mostly not checkable */
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

static void fragments_pcap(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "fragments.pcap", FMT_PCAP, 1, 0, 1, 1);
    for (int i = 0; i < 60; i++) {
        struct pkt_spec s = random_spec(&rng, LINK_ETHERNET, 0, 0);
        s.ip.ext &= ~EXT_AH;
        s.ip.payload = 100 + rnd(&rng) % 1300;
        s.ip.fragments = 2 + (int)(rnd(&rng) % 3);
        s.ip.corrupt_l4 = i % 2; /* covers other fragments too: never checkable */
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
        add_random(&cf, 1, LINK_ETHERNET, 0, 0, &rng); /* something checkable in between */
    }
    cf_close(&cf, manifest, NULL);
}

/* Interfaces of several link types in two sections of opposite byte order, the three packet
 * block kinds, blocks to skip. */
static void multi_pcapng(const char *dir, FILE *manifest, const char *name, int with_bad,
                         uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, name, FMT_PCAPNG, 0, 0, 0, 1);
    static const enum link first[] = { LINK_ETHERNET, LINK_SLL2, LINK_RAW, LINK_VLAN, LINK_RADIOTAP };
    static const enum link second[] = { LINK_SLL, LINK_NULL, LINK_ETHERNET, LINK_PPP };
    for (int section = 0; section < 2; section++) {
        const enum link *links = section ? second : first;
        const int n_links = section ? 4 : 5;
        cf_section(&cf, section);
        for (int i = 0; i < n_links; i++)
            cf_interface(&cf, linktype_of(links[i], 4), 262144);
        cf_other_blocks(&cf);
        for (int i = 0; i < 120; i++) {
            const uint32_t ifc = (uint32_t)(rnd(&rng) % (uint64_t)n_links);
            struct pkt_spec s = random_spec(&rng, links[ifc], 0, links[ifc] != LINK_RADIOTAP);
            if (!with_bad)
                s.ip.corrupt_ip = s.ip.corrupt_l4 = s.ip.udp_zero = 0;
            enum packet_block kind = PB_ENHANCED;
            if (i % 7 == 3 && !s.ip.fragments) { /* simple blocks belong to interface 0 */
                s.link = links[0];
                kind = PB_SIMPLE;
            } else if (i % 11 == 5) {
                kind = PB_OBSOLETE;
            }
            add_packet(&cf, &s, &rng, kind == PB_SIMPLE ? 0 : ifc, kind);
        }
    }
    cf_close(&cf, manifest, NULL);
}

/* Truncation in pcapng: simple packet blocks cut by interface 0's snap length, enhanced
 * blocks with captured < original length. */
static void truncated_pcapng(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "truncated.pcapng", FMT_PCAPNG, 1, 0, 0, 1);
    cf_section(&cf, 1);
    cf_interface(&cf, 1, 96);
    cf_interface(&cf, 113, 0);
    for (int i = 0; i < 150; i++) {
        int simple = i % 2;
        struct pkt_spec s = random_spec(&rng, simple ? LINK_ETHERNET : LINK_SLL, 0, 1);
        if (simple) {
            s.snap = 96;
            s.ip.fragments = 0;
        } else {
            s.snap = 17 + rnd(&rng) % 150;
        }
        add_packet(&cf, &s, &rng, simple ? 0 : 1, simple ? PB_SIMPLE : PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* Frames cut by the capture inside their link layer's headers, on every link type that has
 * any and under Ethernet's MPLS, PPPoE and MACsec, up to where the IP packet starts: its
 * version not even captured, each is skipped as truncated, never counted as a packet without
 * a checksum. Whole frames in between (but on SLIP, which tshark 4.0 does not dissect). */
static void truncated_link_pcapng(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    static const struct { enum link link; enum l2encap l2; } kinds[] = {
        { LINK_ETHERNET, L2_NONE }, { LINK_VLAN, L2_NONE }, { LINK_QINQ, L2_NONE },
        { LINK_8023_SNAP, L2_NONE }, { LINK_ETHERNET, L2_MPLS }, { LINK_ETHERNET, L2_PPPOE },
        { LINK_ETHERNET, L2_MACSEC }, { LINK_SLL, L2_NONE }, { LINK_SLL2, L2_NONE },
        { LINK_NULL, L2_NONE }, { LINK_LOOP, L2_NONE }, { LINK_WLAN, L2_NONE },
        { LINK_WLAN_QOS, L2_NONE }, { LINK_WLAN_4ADDR, L2_NONE }, { LINK_WLAN_AMSDU, L2_NONE },
        { LINK_RADIOTAP, L2_NONE }, { LINK_PRISM, L2_NONE }, { LINK_AVS, L2_NONE },
        { LINK_PPI, L2_NONE }, { LINK_PPP, L2_NONE }, { LINK_PPP_HDLC, L2_NONE },
        { LINK_PPPOE, L2_NONE }, { LINK_PPP_DIR, L2_NONE }, { LINK_CHDLC, L2_NONE },
        { LINK_FRELAY, L2_NONE }, { LINK_FRELAY_SNAP, L2_NONE }, { LINK_SLIP, L2_NONE },
        { LINK_PKTAP, L2_NONE }, { LINK_NFLOG, L2_NONE },
    };
    enum { KINDS = sizeof kinds / sizeof kinds[0] };
    cf_open(&cf, dir, "truncated-link.pcapng", FMT_PCAPNG, 0, 0, 0, 1);
    cf_section(&cf, 0);
    for (int k = 0; k < KINDS; k++)
        cf_interface(&cf, linktype_of(kinds[k].link, 4), 0);
    for (int i = 0; i < 5 * KINDS; i++) {
        const int k = i % KINDS, whole = i / KINDS == 2;
        if (whole && kinds[k].link == LINK_SLIP)
            continue;
        const int ipv = kinds[k].link == LINK_SLIP ? 4 : 0;
        struct pkt_spec s = random_spec(&rng, kinds[k].link, ipv, 0);
        s.l2 = kinds[k].l2;
        s.cut_link = !whole;
        add_packet(&cf, &s, &rng, (uint32_t)k, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* Frames cut by the capture inside a tunnel's headers (GRE's, ERSPAN's, VXLAN's, VXLAN-GPE's,
 * Geneve's, the inner Ethernet header) up to where the inner IP packet starts, over IPv4 and
 * IPv6: skipped as truncated, as frames cut inside their link layer's headers are, with the
 * outer checksums reported (the outer UDP and GRE ones not checkable). Whole ones in between.
 * Then VXLAN, VXLAN-GPE and Geneve datagrams whose UDP length ends inside the tunnel header:
 * malformed, also skipped, their outer checksums checked. */
static void truncated_tunnel_file(const char *dir, FILE *manifest, uint64_t seed)
{
    static const enum encap encaps[] = {
        ENCAP_IPIP, ENCAP_GRE, ENCAP_GRE_CSUM, ENCAP_GRE_TEB, ENCAP_GRE_ROUTE, ENCAP_ERSPAN1,
        ENCAP_ERSPAN2, ENCAP_ERSPAN3, ENCAP_VXLAN, ENCAP_VXLAN_GPE, ENCAP_GENEVE,
    };
    enum { ENCAPS = sizeof encaps / sizeof encaps[0] };
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "truncated-tunnel.pcap", FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 5 * ENCAPS; i++) {
        const int round = i / ENCAPS;
        struct pkt_spec s = random_spec(&rng, i % 3 ? LINK_ETHERNET : LINK_VLAN, 0, 0);
        s.ip.ext &= ~EXT_AH;
        s.tunnel.encap = encaps[i % ENCAPS];
        s.tunnel.outer_ipv = round & 1 ? 6 : 4;
        s.tunnel.corrupt_outer_ip = rnd(&rng) % 4 == 0;
        s.tunnel.corrupt_outer_l4 = rnd(&rng) % 4 == 0;
        s.cut_tunnel = round != 2;
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    static const uint16_t ports[] = { 4789, 4790, 6081 };
    for (int i = 0; i < 6; i++) {
        static struct datagram dg[8];
        static struct frame fr;
        unsigned char header[8];
        fill(header, sizeof header, rnd(&rng));
        header[0] = i / 3 ? 0x0c : 0x08; /* VXLAN's I (and P), Geneve version 0 */
        const struct ip_spec ip = { .ipv = i & 1 ? 6 : 4, .proto = 17, .dport = ports[i % 3],
                                    .carry = header, .carry_len = 1 + (size_t)(i % 7) };
        build_ip(&ip, 0, VIA_NONE, &rng, dg);
        build_link(LINK_ETHERNET, L2_NONE, dg, 1, 1, &rng, &fr);
        fr.skipped = 1;
        cf_frame(&cf, &fr, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* An Ethernet packet of `ip`, quoted in an ICMP error of its IP version if `quoted`. */
static void add_one(struct capture_file *cf, const struct ip_spec *ip, int quoted, uint64_t *rng)
{
    struct pkt_spec s = { .link = LINK_ETHERNET, .ip = *ip, .pad_ethernet = 1 };
    if (quoted)
        s.tunnel = (struct tunnel_spec){ .encap = ENCAP_ICMP_ERROR, .outer_ipv = ip->ipv };
    add_packet(cf, &s, rng, 0, PB_ENHANCED);
}

/* Four packets like `base`: TCP and UDP, each right and wrong, of random short payloads. */
static void add_tcp_udp(struct capture_file *cf, struct ip_spec base, int quoted, uint64_t *rng)
{
    for (int i = 0; i < 4; i++) {
        base.proto = i & 1 ? 6 : 17;
        base.payload = rnd(rng) % 100;
        base.corrupt_l4 = i >= 2;
        add_one(cf, &base, quoted, rng);
    }
}

/* Source routes, where the pseudo-header holds the route's last address: IPv4 options (RFC
 * 791) being followed, done, or not to be followed (with the pointer at the option's length
 * and one past it, where a route ends), alone and quoted in ICMP errors, and IPv6 RPL
 * headers (RFC 6554) with and without segments left; TCP, UDP and ICMP, right and wrong. */
static void routes_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "routes.pcap", FMT_PCAP, 0, 0, 1, 1);
    static const enum route v4[] = { ROUTE_LSRR, ROUTE_SSRR, ROUTE_ODD_LENGTH, ROUTE_DONE,
                                     ROUTE_BAD_POINTER, ROUTE_AFTER_EOL, ROUTE_AT_LENGTH,
                                     ROUTE_IN_LAST, ROUTE_DONE_ONE };
    static const int v6[] = { EXT_RPL, EXT_RPL, EXT_RPL, EXT_RPL | EXT_HBH | EXT_DSTOPTS,
                              EXT_RPL_DONE };
    static const uint8_t protos4[] = { 6, 17, 1 }, protos6[] = { 6, 17, 58 };
    for (int i = 0; i < 6 * (int)(sizeof v4 / sizeof v4[0]); i++) {
        const struct ip_spec ip = { .ipv = 4, .proto = protos4[i % 3], .route = v4[i / 6],
                                    .payload = rnd(&rng) % 300, .corrupt_l4 = i % 6 >= 3 };
        add_one(&cf, &ip, 0, &rng);
    }
    for (int i = 0; i < 6 * (int)(sizeof v6 / sizeof v6[0]); i++) {
        const struct ip_spec ip = { .ipv = 6, .proto = protos6[i % 3], .ext = v6[i / 6],
                                    .payload = rnd(&rng) % 300, .corrupt_l4 = i % 6 >= 3 };
        add_one(&cf, &ip, 0, &rng);
    }
    add_tcp_udp(&cf, (struct ip_spec){ .ipv = 4, .route = ROUTE_SSRR }, 1, &rng);
    /* An option too short for its pointer: the final destination is not known, so TCP and
     * UDP are not checkable (Wireshark gives up on the packet: no ICMP here). */
    add_tcp_udp(&cf, (struct ip_spec){ .ipv = 4, .route = ROUTE_NO_POINTER }, 0, &rng);
    cf_close(&cf, manifest, NULL);
}

/* Where tshark 4.0 differs. Source routes too short to tell the final destination: not
 * checkable, where tshark reads an address out of the option's own type and length bytes
 * (IPv4), takes the header's destination (an RPL header with no address) or gives up on the
 * packet (ICMP and a zero UDP checksum behind an option without a pointer). And an RPL
 * header in a packet quoted by an ICMPv6 error: its last address is still the final
 * destination (the quote is the datagram as sent), which tshark does not look for. */
static void routes_unlike_tshark_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    const char *name = "routes-unlike-tshark.pcap";
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    static const uint8_t protos4[] = { 6, 17, 1 }, protos6[] = { 6, 17, 58 };
    for (int i = 0; i < 6; i++) {
        const struct ip_spec v4 = { .ipv = 4, .proto = protos4[i % 3], .route = ROUTE_NO_ADDRESS,
                                    .payload = rnd(&rng) % 100, .corrupt_l4 = i >= 3 };
        add_one(&cf, &v4, 0, &rng);
        const struct ip_spec v6 = { .ipv = 6, .proto = protos6[i % 3], .ext = EXT_RPL_SHORT,
                                    .payload = rnd(&rng) % 100, .corrupt_l4 = i >= 3 };
        add_one(&cf, &v6, 0, &rng);
    }
    const struct ip_spec icmp = { .ipv = 4, .proto = 1, .route = ROUTE_NO_POINTER, .payload = 30 };
    const struct ip_spec none = { .ipv = 4, .proto = 17, .route = ROUTE_NO_POINTER, .payload = 30,
                                  .udp_zero = 1 };
    add_one(&cf, &icmp, 0, &rng);
    add_one(&cf, &none, 0, &rng);
    add_tcp_udp(&cf, (struct ip_spec){ .ipv = 6, .ext = EXT_RPL }, 1, &rng);
    cf_close(&cf, manifest, NULL);
    tshark_gap(manifest, name, "tshark 4.0 reads a final destination out of source routes too "
                               "short for one, and none out of a quoted packet's RPL header");
}

/* A packet of `ip` quoted whole in an ICMP error of `type` with RFC 4884's length field and
 * extension `ext` after an "original datagram" field of `field` bytes (0: the quote padded
 * to whole words and 128 bytes; less than the quote cuts it). */
static void add_multipart(struct capture_file *cf, const struct ip_spec *ip, uint8_t type,
                          enum icmp_ext ext, size_t field, uint64_t *rng)
{
    struct pkt_spec s = { .link = LINK_ETHERNET, .ip = *ip, .pad_ethernet = 1 };
    s.tunnel = (struct tunnel_spec){ .encap = ENCAP_ICMP_ERROR, .outer_ipv = ip->ipv,
                                     .corrupt_outer_l4 = rnd(rng) % 6 == 0, .icmp_type = type,
                                     .icmp_ext = ext, .icmp_field = field };
    add_packet(cf, &s, rng, 0, PB_ENHANCED);
}

/* ICMP and ICMPv6 errors with RFC 4884's length field, of every type that has it (ICMP 3,
 * 11, 12; ICMPv6 1, 3): the quote padded to 128 bytes or more, then an extension structure
 * whose checksum is right, wrong or 0 (none sent), or computes to 0 (stored as 0xffff, right
 * or wrong), or nothing. The quoted TCP, UDP and ICMP
 * packets are whole, right and wrong; over IPv4 at most 128 bytes of them, after which
 * tshark 4.0 would look for no extension. */
static void icmp_ext_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "icmp-ext.pcap", FMT_PCAP, 0, 0, 1, 1);
    static const uint8_t types4[] = { 3, 11, 12 }, types6[] = { 1, 3 };
    static const uint8_t protos4[] = { 6, 17, 1 }, protos6[] = { 6, 17, 58 };
    static const enum icmp_ext kinds[] = { ICMP_EXT_GOOD, ICMP_EXT_BAD, ICMP_EXT_ZERO,
                                           ICMP_EXT_LENGTH_ONLY, ICMP_EXT_NEGATIVE_ZERO,
                                           ICMP_EXT_NEGATIVE_ZERO_BAD };
    for (int i = 0; i < 64; i++) {
        const int v4 = i % 2 == 0;
        const struct ip_spec ip = { .ipv = v4 ? 4 : 6, .proto = (v4 ? protos4 : protos6)[i % 3],
                                    .payload = rnd(&rng) % (v4 ? 80 : 160),
                                    .corrupt_ip = v4 && rnd(&rng) % 5 == 0,
                                    .corrupt_l4 = rnd(&rng) % 4 == 0 };
        /* every kind with every type; now and then a field longer than the quote needs */
        const uint8_t type = v4 ? types4[i / 2 % 3] : types6[i / 8 % 2];
        const size_t field = i % 10 == 9 ? (v4 ? 160 : 240) : 0;
        add_multipart(&cf, &ip, type, kinds[(i / 2 + i / 12) % 6], field, &rng);
    }
    cf_close(&cf, manifest, NULL);
}

/* Where tshark 4.0 differs on RFC 4884. A quote cut by its field of 128 bytes, the datagram 1
 * to 12 bytes longer: its transport is not checkable, where tshark reads the extension
 * structure as part of the datagram (it ignores ICMPv6's length field, and reads an IPv4
 * header's length past ICMP's) and finds its checksum bad. An ICMP quote longer than 128
 * bytes: tshark looks for no extension after it. A field shorter than 128 bytes (124 for
 * ICMP, 120 for ICMPv6) and a structure of version 1: no RFC 4884 extension for us, whose
 * checksum tshark checks. */
static void icmp_ext_unlike_tshark_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    const char *name = "icmp-ext-unlike-tshark.pcap";
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 16; i++) {
        const int v4 = i % 2 == 0;
        const uint8_t proto = i / 2 % 2 ? 17 : 6;
        const size_t headers = (v4 ? 20 : 40) + (proto == 6 ? 20 : 8);
        const struct ip_spec cut = { .ipv = v4 ? 4 : 6, .proto = proto,
                                     .payload = 128 + 1 + rnd(&rng) % 12 - headers,
                                     .corrupt_l4 = i / 4 % 2 };
        add_multipart(&cf, &cut, v4 ? 11 : 3, i / 8 ? ICMP_EXT_BAD : ICMP_EXT_GOOD, 128, &rng);
    }
    for (int i = 0; i < 4; i++) {
        const struct ip_spec longer = { .ipv = 4, .proto = i % 2 ? 17 : 6,
                                        .payload = 100 + rnd(&rng) % 100, .corrupt_l4 = i / 2 };
        add_multipart(&cf, &longer, 3, i % 2 ? ICMP_EXT_BAD : ICMP_EXT_GOOD, 0, &rng);
    }
    for (int i = 0; i < 8; i++) {
        const int v4 = i % 2 == 0;
        const struct ip_spec ip = { .ipv = v4 ? 4 : 6, .proto = 17, .payload = rnd(&rng) % 60 };
        if (i < 4)
            add_multipart(&cf, &ip, v4 ? 12 : 1, ICMP_EXT_BAD, v4 ? 124 : 120, &rng);
        else
            add_multipart(&cf, &ip, v4 ? 3 : 1, ICMP_EXT_VERSION_1, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
    tshark_gap(manifest, name, "tshark 4.0 ignores RFC 4884's length where it cuts the quote, "
                               "looks for no extension after an ICMP quote of more than 128 "
                               "bytes, and checks extensions RFC 4884 does not define");
}

/* TCP data offsets the segment does not have: past its end the checksum is still checked
 * (it covers the whole segment, however the header is cut), below 5 words it is not. */
static void tcp_offset_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "tcp-offset.pcap", FMT_PCAP, 0, 0, 1, 1);
    static const int offsets[] = { 15, 6, 9, 4, 1 };
    for (int i = 0; i < 20; i++) {
        const int offset = offsets[i % 5];
        struct ip_spec ip = { .ipv = i & 1 ? 6 : 4, .proto = 6, .tcp_offset = offset,
                              .corrupt_l4 = (i / 5) & 1 };
        /* a header longer than the segment: fewer payload bytes than the options it claims */
        ip.payload = rnd(&rng) % (offset > 5 ? 4 * (size_t)offset - 20 : 100);
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
}

static void clean_files(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "clean.pcap", FMT_PCAP, 0, 1, 1, 1);
    add_edges(&cf, LINK_ETHERNET, 0, &rng, 0);
    for (int i = 0; i < 100; i++) {
        struct pkt_spec s = random_spec(&rng, LINK_ETHERNET, 0, 1);
        s.ip.corrupt_ip = s.ip.corrupt_l4 = 0;
        if (s.ip.ipv == 6)
            s.ip.udp_zero = 0;
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
    multi_pcapng(dir, manifest, "clean.pcapng", 0, seed + 1);
}

/* IGMP (version 2 reports and leaves, version 3 queries) over IPv4, PIM (Hello, Join/Prune,
 * and Register, whose checksum covers its first 8 bytes only) and VRRP (version 2 over IPv4,
 * version 3, whose checksum covers the pseudo-header, over both) over IPv4 and IPv6, right
 * and wrong. */
static void multicast_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "multicast.pcap", FMT_PCAP, 0, 0, 1, 1);
    static const struct { uint8_t proto, type; size_t payload; } kinds[] = {
        { 2, 0x16, 0 }, { 2, 0x17, 0 }, { 2, 0x11, 4 },
        { 103, 0, 24 }, { 103, 3, 40 }, { 103, 1, 60 }, { 112, 2, 12 }, { 112, 3, 4 },
    };
    enum { KINDS = sizeof kinds / sizeof kinds[0] };
    for (int i = 0; i < 8 * KINDS; i++) {
        const int k = i % KINDS;
        const int v4_only = kinds[k].proto == 2 || (kinds[k].proto == 112 && kinds[k].type == 2);
        const int ipv = v4_only || (i / KINDS) % 2 == 0 ? 4 : 6;
        const int vrrp6 = kinds[k].proto == 112 && ipv == 6; /* one 16-byte address */
        struct ip_spec ip = { .ipv = ipv, .proto = kinds[k].proto, .icmp_type = kinds[k].type,
                              .payload = vrrp6 ? 16 : kinds[k].payload,
                              .corrupt_l4 = (i / (2 * KINDS)) % 2, .corrupt_ip = i % 7 == 3 };
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
}

/* OSPF (RFC 2328, RFC 5340): version 2 over IPv4, with no authentication or a simple password
 * (neither summed), and version 3 over IPv6, every packet type, right and wrong. Version 2
 * with cryptographic authentication and version 3 with an authentication trailer (flagged by
 * a Hello's or Database Description's AT-bit, or not), their checksums 0: none computed, as
 * tshark says too. */
static void ospf_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "ospf.pcap", FMT_PCAP, 0, 0, 1, 1);
    /* bodies: a Hello with neighbors, a Database Description with LSA headers, Link State
     * Requests, an Update, Acknowledgments */
    static const size_t bodies[] = { 0, 24, 48, 24, 36, 40 };
    for (int i = 0; i < 40; i++) {
        const int ipv = i % 2 ? 6 : 4;
        const uint8_t type = (uint8_t)(1 + i / 2 % 5);
        struct ip_spec ip = { .ipv = ipv, .proto = 89, .icmp_type = type,
                              .auth = ipv == 4 ? (uint8_t)(i / 10 % 2) : 0,
                              .payload = bodies[type] + 4 * (i / 20), .corrupt_l4 = i / 20,
                              .corrupt_ip = i % 7 == 3 };
        add_one(&cf, &ip, 0, &rng);
    }
    for (int i = 0; i < 8; i++) { /* no checksum: cryptographic authentication, a trailer */
        const int ipv = i % 2 ? 6 : 4;
        const uint8_t type = (uint8_t)(i % 4 < 2 ? 1 : 4);
        const size_t trailer = ipv == 4 ? 16 : 48; /* a keyed MD5 digest; an HMAC-SHA-256 AT */
        struct ip_spec ip = { .ipv = ipv, .proto = 89, .icmp_type = type, .auth = ipv == 4 ? 2 : 1,
                              .payload = bodies[type] + trailer, .udp_trailer = trailer,
                              .udp_zero = 1 };
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
}

/* Where tshark 4.0 differs on OSPF: it sums the bytes after the packet too (a link-local
 * signaling block, RFC 5613, here, a digest or an authentication trailer), over the IP
 * payload where the packet's length says where the packet ends (its own comment doubts it);
 * it computes a checksum whatever the authentication, where none is computed (cryptographic
 * authentication, RFC 2328 section D.4.3; an authentication trailer flagged by the AT-bit, RFC
 * 7166 section 4.2) and a reserved AuType leaves it unknown; it takes a stored 0 for none,
 * where RFC 2328 and RFC 5340 have no such rule. */
static void ospf_unlike_tshark_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    const char *name = "ospf-unlike-tshark.pcap";
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 4; i++) { /* no checksum, whatever the field holds: right, wrong */
        struct ip_spec v2 = { .ipv = 4, .proto = 89, .icmp_type = (uint8_t)(1 + i / 2 * 3),
                              .auth = 2, .payload = 40 + 16, .udp_trailer = 16,
                              .corrupt_l4 = i % 2 };
        add_one(&cf, &v2, 0, &rng);
        struct ip_spec v3 = { .ipv = 6, .proto = 89, .icmp_type = (uint8_t)(1 + i / 2),
                              .auth = 1, .payload = 40 + 48, .udp_trailer = 48,
                              .corrupt_l4 = i % 2 };
        add_one(&cf, &v3, 0, &rng);
    }
    /* Version 3 decided by what the packet says (RFC 7166 sections 2.1 and 4.1), where tshark
     * takes a 0 for none and checks the others: an authentication trailer after a Link State
     * Request, Update, Acknowledgment, right and wrong, none; a stored 0 before bytes that
     * are no trailer (random after an Update; a signaling block after a Hello or Database
     * Description without the AT-bit): bad. */
    for (int i = 0; i < 6; i++) {
        struct ip_spec at = { .ipv = 6, .proto = 89, .icmp_type = (uint8_t)(3 + i / 2),
                              .auth = 1, .payload = 40 + 32, .udp_trailer = 32,
                              .corrupt_l4 = i % 2 };
        add_one(&cf, &at, 0, &rng);
    }
    for (int i = 0; i < 3; i++) {
        struct ip_spec zero = { .ipv = 6, .proto = 89, .icmp_type = (uint8_t)(i == 2 ? 4 : 1 + i),
                                .payload = 40 + 12, .udp_trailer = 12, .udp_zero = 1 };
        add_one(&cf, &zero, 0, &rng);
    }
    for (int i = 0; i < 4; i++) { /* 0 stored, no trailer: bad; a reserved AuType */
        struct ip_spec zero = { .ipv = i % 2 ? 6 : 4, .proto = 89, .icmp_type = 1,
                                .auth = (uint8_t)(i % 2 ? 0 : i / 2), .payload = 24,
                                .udp_zero = 1 };
        add_one(&cf, &zero, 0, &rng);
    }
    struct ip_spec reserved = { .ipv = 4, .proto = 89, .icmp_type = 5, .auth = 3, .payload = 20 };
    add_one(&cf, &reserved, 0, &rng);
    for (int i = 0; i < 8; i++) { /* Hellos and Database Descriptions with a signaling block */
        struct ip_spec lls = { .ipv = i % 2 ? 6 : 4, .proto = 89,
                               .icmp_type = (uint8_t)(1 + i / 2 % 2),
                               .auth = (uint8_t)(i % 2 ? 0 : i / 4), .payload = 28 + 12,
                               .udp_trailer = 12, .corrupt_l4 = i / 4 };
        add_one(&cf, &lls, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
    tshark_gap(manifest, name, "tshark 4.0 sums the bytes after an OSPF packet too, checks OSPF "
                               "checksums cryptographic authentication and authentication "
                               "trailers leave uncomputed, or a reserved AuType leaves unknown, "
                               "and takes a stored 0 for none");
}

/* RSVP (RFC 2205): every message type over IPv4 and IPv6, right and wrong, whose checksum
 * computes to 0, stored as 0xffff (a stored 0 is none), and with bytes after the message
 * (not covered). */
static void rsvp_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "rsvp.pcap", FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 36; i++) {
        const int ipv = i % 2 ? 6 : 4;
        struct ip_spec ip = { .ipv = ipv, .proto = 46, .icmp_type = (uint8_t)(1 + i / 2 % 7),
                              .payload = (ipv == 4 ? 12 : 24) + 4 * (1 + rnd(&rng) % 16),
                              .corrupt_l4 = i / 14 == 1, .l4_sum_zero = i >= 28,
                              .corrupt_ip = i % 7 == 3 };
        add_one(&cf, &ip, 0, &rng);
    }
    for (int i = 0; i < 4; i++) {
        const int ipv = i % 2 ? 6 : 4;
        struct ip_spec ip = { .ipv = ipv, .proto = 46, .payload = (ipv == 4 ? 12 : 24) + 16,
                              .udp_trailer = 8, .corrupt_l4 = i >= 2 };
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
}

/* Where tshark 4.0 differs on RSVP: it calls a stored 0 incorrect, where RFC 2205 section 3.1.1
 * says none was transmitted. */
static void rsvp_unlike_tshark_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    const char *name = "rsvp-unlike-tshark.pcap";
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 4; i++) {
        const int ipv = i % 2 ? 6 : 4;
        struct ip_spec ip = { .ipv = ipv, .proto = 46, .icmp_type = (uint8_t)(1 + i),
                              .payload = (ipv == 4 ? 12 : 24) + 8, .udp_zero = 1 };
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
    tshark_gap(manifest, name, "tshark 4.0 calls an RSVP checksum of 0 incorrect (none sent)");
}

/* DCCP (RFC 4340) over IPv4 and IPv6: Requests, Data, Acks and DataAcks (Data, Ack and DataAck
 * with 24-bit sequence numbers too), their checksum over the whole packet (Checksum Coverage 0)
 * or the header and the data CsCov says (1: none of it, up to all of it), right and wrong. */
static void dccp_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "dccp.pcap", FMT_PCAP, 0, 0, 1, 1);
    static const uint8_t types[] = { 0, 2, 3, 4 };
    for (int i = 0; i < 64; i++) {
        const uint8_t type = types[i / 2 % 4];
        const size_t payload = 4 * (rnd(&rng) % 15) + rnd(&rng) % 4;
        /* coverage 0, 1, or more words of data, up to all there are (CsCov - 1 <= payload / 4) */
        const int kind = i / 8 % 4;
        const uint8_t cscov = (uint8_t)(kind == 0 ? 0 : kind == 1 || payload < 4
                                        ? 1 : 2 + rnd(&rng) % (payload / 4));
        struct ip_spec ip = { .ipv = i % 2 ? 6 : 4, .proto = 33, .icmp_type = type,
                              .payload = payload, .cscov = cscov,
                              .short_seq = type != 0 && i / 8 % 2,
                              .corrupt_l4 = i >= 32, .corrupt_ip = i % 7 == 3 };
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
}

/* UDP-Lite (RFC 3828) over IPv4 and IPv6: a checksum over the whole datagram (Checksum
 * Coverage 0, or its length), the header alone (8) or part of the payload, right and wrong,
 * one that computes to 0 (sent as all ones), a stored 0, never valid (section 3.1: tshark 4.0
 * calls it illegal), and datagrams to be discarded (section 3.1: a coverage of 1 to 7, or past
 * the end), not checkable (unverified for tshark). */
static void udplite_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "udplite.pcap", FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 48; i++) {
        const size_t payload = rnd(&rng) % 300;
        const int kind = i / 2 % 4;
        const uint16_t coverage = (uint16_t)(kind == 0 ? 0 : kind == 1 ? 8
                                             : kind == 2 ? 8 + payload : 8 + rnd(&rng) % (payload + 1));
        struct ip_spec ip = { .ipv = i % 2 ? 6 : 4, .proto = 136, .payload = payload,
                              .coverage = coverage, .corrupt_l4 = i >= 24 && i < 40,
                              .udp_zero = i >= 40 && i < 44, .corrupt_ip = i % 7 == 3,
                              .l4_sum_zero = i >= 44 && payload >= 2, .ip_option_words = i % 5 == 1 };
        if (ip.l4_sum_zero)
            ip.coverage = 0;
        add_one(&cf, &ip, 0, &rng);
    }
    for (int i = 0; i < 8; i++) { /* to be discarded: coverage 1..7 or past the end */
        const size_t payload = 4 + rnd(&rng) % 40;
        const uint16_t coverage = (uint16_t)(i < 4 ? 1 + 2 * (size_t)i : 8 + payload + 1 + (size_t)i);
        struct ip_spec ip = { .ipv = i % 2 ? 6 : 4, .proto = 136, .payload = payload,
                              .coverage = coverage, .corrupt_l4 = i % 4 >= 2 };
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
}

/* UDP-Lite inside tunnels (IP in IP, GRE with and without its checksum, Ethernet in GRE,
 * ERSPAN, VXLAN, VXLAN-GPE, Geneve), quoted in ICMP errors and under MPLS, over IPv4 and IPv6
 * inside and out: checked there as it is outside (the same transport dispatch), right and
 * wrong, over part of the datagram or all of it, a stored 0 (bad, but "none" in a quote, as
 * UDP's and as tshark says), and one to be discarded (not checkable); a fix corrects it
 * before the tunnel's own UDP or GRE checksum, which covers it. */
static void udplite_tunnels_file(const char *dir, FILE *manifest, uint64_t seed)
{
    static const enum encap encaps[] = {
        ENCAP_IPIP, ENCAP_GRE, ENCAP_GRE_CSUM, ENCAP_GRE_TEB, ENCAP_ERSPAN2, ENCAP_VXLAN,
        ENCAP_VXLAN_GPE, ENCAP_GENEVE, ENCAP_ICMP_ERROR, ENCAP_NONE, /* NONE: under MPLS */
    };
    enum { ENCAPS = sizeof encaps / sizeof encaps[0] };
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "udplite-tunnels.pcap", FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 6 * ENCAPS; i++) {
        const int round = i / ENCAPS;
        const size_t payload = rnd(&rng) % 200;
        const uint16_t coverage = (uint16_t)(round % 3 == 0 ? 0 : round % 3 == 1 ? 8
                                             : 8 + rnd(&rng) % (payload + 1));
        struct pkt_spec s = { .link = i % 3 ? LINK_ETHERNET : LINK_VLAN, .pad_ethernet = 1 };
        s.ip = (struct ip_spec){ .ipv = (i + round) % 2 ? 6 : 4, .proto = 136,
                                 .payload = payload, .coverage = coverage,
                                 .corrupt_l4 = round == 1 || round == 2 || round == 4,
                                 .udp_zero = round == 3 && i % 2 == 0,
                                 .corrupt_ip = i % 7 == 3 };
        if (round == 5 && i % 3 == 0) /* a coverage below the header: to be discarded */
            s.ip.coverage = (uint16_t)(1 + i % 7);
        s.tunnel.encap = encaps[i % ENCAPS];
        if (s.tunnel.encap == ENCAP_NONE)
            s.l2 = L2_MPLS;
        s.tunnel.outer_ipv = round % 2 ? 6 : 4;
        s.tunnel.corrupt_outer_ip = rnd(&rng) % 6 == 0;
        s.tunnel.corrupt_outer_l4 = rnd(&rng) % 6 == 0;
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    for (int i = 0; i < 4; i++) { /* a stored 0 in a quote, whole and cut: none */
        struct pkt_spec s = { .link = LINK_ETHERNET, .pad_ethernet = 1 };
        s.ip = (struct ip_spec){ .ipv = i % 2 ? 6 : 4, .proto = 136, .udp_zero = 1,
                                 .payload = 10 + rnd(&rng) % 100 };
        s.tunnel = (struct tunnel_spec){ .encap = i < 2 ? ENCAP_ICMP_ERROR : ENCAP_ICMP_ERROR_CUT,
                                         .outer_ipv = s.ip.ipv };
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest, NULL);
}

/* The IPv6 Mobility Header (RFC 6275 section 6.1.1): messages of 8 to 72 bytes (Binding
 * Refresh Request, Home Test Init, Binding Update, Binding Acknowledgement...), right and
 * wrong, and a Header Len past the IPv6 payload (not checkable). tshark 4.0 shows the checksum
 * without checking it. */
static void mh_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    const char *name = "mh.pcap";
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 36; i++) {
        struct ip_spec ip = { .ipv = 6, .proto = 135, .icmp_type = (uint8_t)(i % 8),
                              .payload = 2 + 8 * (size_t)(rnd(&rng) % 9),
                              .corrupt_l4 = i % 3 == 2 };
        if (i >= 32)
            ip.mh_header_len = (uint8_t)(ip.payload / 8 + 1 + (size_t)i % 3);
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
    tshark_gap(manifest, name, "tshark 4.0 does not verify Mobility Header checksums");
}

/* Where tshark 4.0 differs on DCCP: a Checksum Coverage past the packet's end makes a packet
 * to be ignored (RFC 4340 section 9.2), not checkable, where tshark checks the whole packet;
 * so does a Data Offset shorter than the generic header (section 5.1), which tshark checks. */
static void dccp_unlike_tshark_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    const char *name = "dccp-unlike-tshark.pcap";
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 1);
    for (int i = 0; i < 8; i++) {
        const size_t payload = 4 * (size_t)(i % 4);
        struct ip_spec ip = { .ipv = i % 2 ? 6 : 4, .proto = 33, .icmp_type = (uint8_t)(i % 3 + 2),
                              .payload = payload, .cscov = (uint8_t)(payload / 4 + 2 + i % 5),
                              .corrupt_l4 = i >= 4 };
        add_one(&cf, &ip, 0, &rng);
    }
    for (int i = 0; i < 4; i++) { /* 12 bytes with 48-bit sequence numbers; 8 */
        struct ip_spec ip = { .ipv = i % 2 ? 6 : 4, .proto = 33, .icmp_type = 2, .payload = 8,
                              .short_seq = i >= 2, .tcp_offset = i >= 2 ? 2 : 3 };
        add_one(&cf, &ip, 0, &rng);
    }
    cf_close(&cf, manifest, NULL);
    tshark_gap(manifest, name, "tshark 4.0 checks a DCCP packet whose Checksum Coverage goes "
                               "past its end over the whole packet, and one whose Data Offset "
                               "is shorter than the generic header");
}

/* An Ethernet frame of a datagram carrying `carry` as protocol `proto` (nothing else in front
 * of it), which the checker gives up on as malformed: counted as skipped. */
static void add_given_up(struct capture_file *cf, int ipv, uint8_t proto, const unsigned char *carry,
                         size_t len, uint64_t *rng)
{
    static struct datagram dg[8];
    static struct frame fr;
    const struct ip_spec ip = { .ipv = ipv, .proto = proto, .carry = carry, .carry_len = len };
    build_ip(&ip, 0, VIA_NONE, rng, dg);
    build_link(LINK_ETHERNET, L2_NONE, dg, 1, 1, rng, &fr);
    fr.skipped = 1;
    cf_frame(cf, &fr, 0, PB_ENHANCED);
}

/* Headers in front of the transport that make no sense, so that its checksum cannot be found:
 * an undefined GRE version (RFC 2784 section 2.3.1), IP in IP whose inner version is neither 4
 * nor 6, an IPv6 Hop-by-Hop header and an IPv4 AH longer than the packet. Each is counted as
 * skipped (malformed), never as a packet without checksum; the IPv4 headers are checked. */
static void malformed_headers_file(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "malformed-headers.pcap", FMT_PCAP, 0, 0, 1, 1);
    unsigned char b[64];
    for (int ipv = 4; ipv <= 6; ipv += 2) {
        fill(b, sizeof b, rnd(&rng));
        b[0] = 0; /* GRE flags 0, version 2, IPv4 inside */
        b[1] = 2;
        b[2] = 0x08;
        b[3] = 0;
        add_given_up(&cf, ipv, 47, b, 48, &rng);
        b[0] = 0x50; /* version 5: not IP */
        add_given_up(&cf, ipv, ipv == 4 ? 4 : 41, b, 40, &rng);
        b[0] = 6; /* Hop-by-Hop (IPv6) or AH (IPv4) of 88 bytes in 24, TCP after it */
        b[1] = ipv == 6 ? 10 : 20;
        add_given_up(&cf, ipv, ipv == 6 ? 0 : 51, b, 24, &rng);
        add_random(&cf, 2, LINK_ETHERNET, ipv, 0, &rng); /* checkable ones in between */
    }
    cf_close(&cf, manifest, NULL);
}

int write_corpus(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    FILE *manifest = fopen(path, "w");
    if (!manifest) {
        perror(path);
        return 2;
    }
    static const struct { const char *name; enum link link; int big, ns, ipv, count; } files[] = {
        { "ethernet-le-usec.pcap", LINK_ETHERNET, 0, 0, 0, 200 },
        { "ethernet-be-nsec.pcap", LINK_ETHERNET, 1, 1, 0, 150 },
        { "ethernet-snap.pcap", LINK_8023_SNAP, 0, 0, 0, 60 },
        { "vlan.pcap", LINK_VLAN, 0, 1, 0, 100 },
        { "qinq.pcap", LINK_QINQ, 1, 0, 0, 100 },
        { "linux-sll.pcap", LINK_SLL, 1, 0, 0, 100 },
        { "linux-sll2.pcap", LINK_SLL2, 0, 0, 0, 100 },
        { "raw.pcap", LINK_RAW, 0, 0, 0, 100 },
        { "raw-ipv4.pcap", LINK_RAW_VERSIONED, 0, 1, 4, 60 },
        { "raw-ipv6.pcap", LINK_RAW_VERSIONED, 1, 1, 6, 60 },
        { "loopback.pcap", LINK_NULL, 0, 0, 0, 60 },
        { "loop.pcap", LINK_LOOP, 1, 0, 0, 60 },
        { "radiotap.pcap", LINK_RADIOTAP, 0, 0, 0, 60 },
        { "prism.pcap", LINK_PRISM, 0, 0, 0, 40 },
        { "avs.pcap", LINK_AVS, 1, 0, 0, 40 },
        { "ppi.pcap", LINK_PPI, 0, 0, 0, 40 },
        { "ppp.pcap", LINK_PPP, 0, 0, 0, 60 },
        { "ppp-hdlc.pcap", LINK_PPP_HDLC, 1, 0, 0, 40 },
        { "pppoe.pcap", LINK_PPPOE, 0, 0, 0, 40 },
        { "ppp-dir.pcap", LINK_PPP_DIR, 0, 0, 0, 40 },
        { "chdlc.pcap", LINK_CHDLC, 0, 0, 0, 40 },
        { "frelay.pcap", LINK_FRELAY, 0, 0, 0, 40 },
        { "frelay-snap.pcap", LINK_FRELAY_SNAP, 1, 0, 0, 40 },
        { "slip.pcap", LINK_SLIP, 0, 0, 4, 40 },
        { "pktap.pcap", LINK_PKTAP, 0, 0, 0, 40 },
        { "nflog.pcap", LINK_NFLOG, 0, 0, 0, 40 },
    };
    uint64_t seed = 1;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        link_file(dir, manifest, files[i].name, files[i].big, files[i].ns, files[i].link,
                  files[i].ipv, files[i].count, seed++);
    wlan_file(dir, manifest, seed++);
    l2_file(dir, manifest, "mpls.pcap", L2_MPLS, seed++);
    l2_file(dir, manifest, "pppoe-ethernet.pcap", L2_PPPOE, seed++);
    l2_file(dir, manifest, "macsec.pcap", L2_MACSEC, seed++);
    for (int e = ENCAP_NONE + 1; e < ENCAP_COUNT; e++)
        tunnel_file(dir, manifest, (enum encap)e, seed++);
    offload_file(dir, manifest, seed++);
    jumbo_file(dir, manifest, seed++);
    ffff_file(dir, manifest, seed++);
    truncated_pcap(dir, manifest, seed++);
    fragments_pcap(dir, manifest, seed++);
    multi_pcapng(dir, manifest, "multi.pcapng", 1, seed++);
    truncated_pcapng(dir, manifest, seed++);
    clean_files(dir, manifest, seed++);
    routes_file(dir, manifest, seed++);
    routes_unlike_tshark_file(dir, manifest, seed++);
    tcp_offset_file(dir, manifest, seed++);
    icmp_ext_file(dir, manifest, seed++);
    icmp_ext_unlike_tshark_file(dir, manifest, seed++);
    malformed_headers_file(dir, manifest, seed++);
    multicast_file(dir, manifest, seed++);
    truncated_link_pcapng(dir, manifest, seed++);
    ospf_file(dir, manifest, seed++);
    ospf_unlike_tshark_file(dir, manifest, seed++);
    rsvp_file(dir, manifest, seed++);
    rsvp_unlike_tshark_file(dir, manifest, seed++);
    dccp_file(dir, manifest, seed++);
    dccp_unlike_tshark_file(dir, manifest, seed++);
    truncated_tunnel_file(dir, manifest, seed++);
    udplite_file(dir, manifest, seed++);
    mh_file(dir, manifest, seed++);
    udplite_tunnels_file(dir, manifest, seed++);
    malformed_files(dir, manifest);
    return fclose(manifest) == 0 ? 0 : 2;
}
