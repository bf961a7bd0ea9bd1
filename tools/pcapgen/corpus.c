/*
 * The test corpus: one capture per format / link type / situation, each with its expected
 * verdicts, malformed files with the byte offset the error must name, and MANIFEST:
 *   capture NAME STATUS      csum pcap verify NAME must exit STATUS (0 or 1), print exactly
 *                            NAME.bad's lines and (with --verbose) NAME.nc's checksums
 *   malformed NAME OFFSET    csum pcap verify NAME must exit 2 naming "byte offset OFFSET"
 */
#include "pcapgen.h"

#include "csum_oracle.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rnd(uint64_t *rng)
{
    return testdata_next(rng);
}

/* A random, plausible packet for `link`: protocols, options, extension headers, sizes, and
 * about a quarter of the checksums wrong. */
static struct pkt_spec random_spec(uint64_t *rng, enum link link, int ipv, int allow_fragments)
{
    struct pkt_spec s = { .link = link };
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
    s.pad_ethernet = 1;
    return s;
}

/* Write the frames of one packet on `interface` as `kind`. */
static void add(struct capture_file *cf, const struct pkt_spec *s, uint64_t *rng,
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
        add(cf, &s, rng, 0, PB_ENHANCED);
    }
}

/* The corner cases every link type gets. */
static void add_edges(struct capture_file *cf, enum link link, uint64_t *rng, int with_bad)
{
    static const struct pkt_spec edges[] = {
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
        /* tiny frames padded to the Ethernet minimum */
        { .ipv = 4, .proto = 17, .payload = 0, .pad_ethernet = 1 },
        { .ipv = 4, .proto = 1, .payload = 2, .pad_ethernet = 1 },
    };
    static const struct pkt_spec bad_edges[] = {
        /* UDP without checksum over IPv6 is invalid */
        { .ipv = 6, .proto = 17, .payload = 10, .udp_zero = 1 },
        { .ipv = 6, .proto = 17, .payload = 41, .l4_sum_zero = 1, .udp_zero = 1 },
        /* wrong checksums whose correct value is 0 / 0xffff */
        { .ipv = 4, .proto = 17, .payload = 33, .l4_sum_zero = 1, .corrupt_l4 = 1 },
        { .ipv = 4, .proto = 6, .payload = 20, .l4_sum_zero = 1, .corrupt_l4 = 1 },
        { .ipv = 4, .proto = 1, .payload = 0, .icmp_all_zero = 1, .corrupt_l4 = 1 },
        { .ipv = 4, .proto = 1, .payload = 64, .corrupt_ip = 1, .corrupt_l4 = 1 },
        { .ipv = 6, .proto = 58, .payload = 64, .corrupt_l4 = 1, .ext = EXT_DSTOPTS },
        { .ipv = 4, .proto = 6, .payload = 10, .ip_option_words = 3, .corrupt_ip = 1, .pad_ethernet = 1 },
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        struct pkt_spec s = edges[i];
        s.link = link;
        add(cf, &s, rng, 0, PB_ENHANCED);
    }
    for (size_t i = 0; with_bad && i < sizeof bad_edges / sizeof bad_edges[0]; i++) {
        struct pkt_spec s = bad_edges[i];
        s.link = link;
        add(cf, &s, rng, 0, PB_ENHANCED);
    }
}

/* A whole pcap file of one link type. */
static void pcap_file(const char *dir, FILE *manifest, const char *name, int big, int ns,
                      enum link link, int raw_style, int ipv, int count, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, name, FMT_PCAP, big, ns, linktype_of(link, ipv ? ipv : 4, raw_style), 1);
    if (ipv == 0)
        add_edges(&cf, link, &rng, 1);
    add_random(&cf, count, link, ipv, 0, &rng);
    cf_close(&cf, manifest);
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
            s.corrupt_l4 = s.corrupt_ip = 1; /* wrong, but mostly not checkable */
        add(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest);
}

static void fragments_pcap(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "fragments.pcap", FMT_PCAP, 1, 0, 1, 1);
    for (int i = 0; i < 60; i++) {
        struct pkt_spec s = random_spec(&rng, LINK_ETHERNET, 0, 0);
        s.ext &= ~EXT_AH;
        s.payload = 100 + rnd(&rng) % 1300;
        s.fragments = 2 + (int)(rnd(&rng) % 3);
        s.corrupt_l4 = i % 2; /* covers other fragments too: never checkable */
        add(&cf, &s, &rng, 0, PB_ENHANCED);
        add_random(&cf, 1, LINK_ETHERNET, 0, 0, &rng); /* something checkable in between */
    }
    cf_close(&cf, manifest);
}

/* Interfaces of several link types in two sections of opposite byte order, the three packet
 * block kinds, blocks to skip. */
static void multi_pcapng(const char *dir, FILE *manifest, const char *name, int with_bad,
                         uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, name, FMT_PCAPNG, 0, 0, 0, 1);
    static const enum link first[] = { LINK_ETHERNET, LINK_SLL2, LINK_RAW, LINK_VLAN };
    static const enum link second[] = { LINK_SLL, LINK_NULL, LINK_ETHERNET };
    for (int section = 0; section < 2; section++) {
        const enum link *links = section ? second : first;
        const int n_links = section ? 3 : 4;
        cf_section(&cf, section);
        for (int i = 0; i < n_links; i++)
            cf_interface(&cf, linktype_of(links[i], 4, 0), 262144);
        cf_other_blocks(&cf);
        for (int i = 0; i < 120; i++) {
            const uint32_t ifc = (uint32_t)(rnd(&rng) % (uint64_t)n_links);
            struct pkt_spec s = random_spec(&rng, links[ifc], 0, 1);
            if (!with_bad)
                s.corrupt_ip = s.corrupt_l4 = s.udp_zero = 0;
            enum packet_block kind = PB_ENHANCED;
            if (i % 7 == 3 && !s.fragments) { /* simple blocks belong to interface 0 */
                s.link = links[0];
                kind = PB_SIMPLE;
            } else if (i % 11 == 5) {
                kind = PB_OBSOLETE;
            }
            add(&cf, &s, &rng, kind == PB_SIMPLE ? 0 : ifc, kind);
        }
    }
    cf_close(&cf, manifest);
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
            s.fragments = 0;
        } else {
            s.snap = 17 + rnd(&rng) % 150;
        }
        add(&cf, &s, &rng, simple ? 0 : 1, simple ? PB_SIMPLE : PB_ENHANCED);
    }
    cf_close(&cf, manifest);
}

static void clean_files(const char *dir, FILE *manifest, uint64_t seed)
{
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, "clean.pcap", FMT_PCAP, 0, 1, 1, 1);
    add_edges(&cf, LINK_ETHERNET, &rng, 0);
    for (int i = 0; i < 100; i++) {
        struct pkt_spec s = random_spec(&rng, LINK_ETHERNET, 0, 1);
        s.corrupt_ip = s.corrupt_l4 = 0;
        if (s.ipv == 6)
            s.udp_zero = 0;
        add(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, manifest);
    multi_pcapng(dir, manifest, "clean.pcapng", 0, seed + 1);
}

/* ---- malformed files -------------------------------------------------------------------- */

static FILE *raw_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    return f;
}

static void raw_bytes(const char *dir, FILE *manifest, const char *name, const void *p, size_t n,
                      unsigned long long offset)
{
    FILE *f = raw_file(dir, name);
    if (n && fwrite(p, 1, n, f) != n) {
        perror(name);
        exit(2);
    }
    fclose(f);
    fprintf(manifest, "malformed %s %llu\n", name, offset);
}

/* A small valid capture in memory, to be damaged: returns its length. Offsets of the blocks
 * are noted in `marks` (pcap: record starts; pcapng: block starts). */
static size_t small_capture(unsigned char *out, enum format format, int big, size_t *marks,
                            int *n_marks)
{
    char path[] = "/tmp/csum-pcapgen-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        exit(2);
    }
    char *slash = strrchr(path, '/');
    *slash = '\0';
    struct capture_file cf;
    uint64_t rng = 77;
    cf_open(&cf, path, slash + 1, format, big, 0, 1, 0);
    *n_marks = 0;
    if (format == FMT_PCAPNG) {
        marks[(*n_marks)++] = (size_t)cf.offset;
        cf_section(&cf, big);
        marks[(*n_marks)++] = (size_t)cf.offset;
        cf_interface(&cf, 1, 0);
    }
    for (int i = 0; i < 3; i++) {
        struct pkt_spec s = { .link = LINK_ETHERNET, .ipv = 4, .proto = 17, .payload = 30 };
        static struct frame fr[8];
        build_packet(&s, &rng, fr);
        marks[(*n_marks)++] = (size_t)cf.offset;
        cf_frame(&cf, &fr[0], 0, PB_ENHANCED);
    }
    marks[*n_marks] = (size_t)cf.offset;
    cf_close(&cf, NULL);
    *slash = '/';
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(out, 1, 4096, f) : 0;
    if (f)
        fclose(f);
    unlink(path);
    close(fd);
    return n;
}

static void malformed_files(const char *dir, FILE *manifest)
{
    unsigned char b[4096], c[4096];
    size_t m[16];
    int nm;

    raw_bytes(dir, manifest, "bad-empty.pcap", "", 0, 0);
    raw_bytes(dir, manifest, "bad-short.pcap", "\xd4\xc3\xb2", 3, 0);
    raw_bytes(dir, manifest, "bad-magic.pcap", "GIF89a, certainly not a capture file", 36, 0);

    size_t n = small_capture(b, FMT_PCAP, 0, m, &nm);
    raw_bytes(dir, manifest, "bad-pcap-header-cut.pcap", b, 20, 0);
    memcpy(c, b, n);
    put16(c + 4, 3, 0);
    raw_bytes(dir, manifest, "bad-pcap-version.pcap", c, n, 4);
    /* the third record's header cut after 10 bytes */
    raw_bytes(dir, manifest, "bad-pcap-record-cut.pcap", b, m[2] + 10, m[2]);
    /* the third record's data cut short: the error names its length field */
    raw_bytes(dir, manifest, "bad-pcap-data-cut.pcap", b, n - 5, m[2] + 8);
    /* a record claiming 4 GiB - 1 bytes */
    memcpy(c, b, n);
    put32(c + m[1] + 8, 0xffffffffu, 0);
    raw_bytes(dir, manifest, "bad-pcap-huge-record.pcap", c, n, m[1] + 8);

    n = small_capture(b, FMT_PCAPNG, 0, m, &nm); /* m: SHB, IDB, EPB, EPB, EPB, end */
    /* starts with the interface block */
    raw_bytes(dir, manifest, "bad-ng-no-shb.pcapng", b + m[1], n - m[1], 0);
    memcpy(c, b, n);
    c[8] ^= 0xff; /* byte-order magic */
    raw_bytes(dir, manifest, "bad-ng-byte-order.pcapng", c, n, 8);
    memcpy(c, b, n);
    put16(c + 12, 2, 0); /* SHB major version */
    raw_bytes(dir, manifest, "bad-ng-version.pcapng", c, n, 12);
    memcpy(c, b, n);
    put32(c + m[1] + 4, 22, 0); /* IDB length not a multiple of 4 */
    raw_bytes(dir, manifest, "bad-ng-length-align.pcapng", c, n, m[1] + 4);
    memcpy(c, b, n);
    put32(c + m[2] - 4, 24, 0); /* IDB trailing length differs */
    raw_bytes(dir, manifest, "bad-ng-trailer.pcapng", c, n, m[2] - 4);
    memcpy(c, b, n);
    put32(c + m[3] + 8, 5, 0); /* second EPB on interface 5 of 1 */
    raw_bytes(dir, manifest, "bad-ng-interface.pcapng", c, n, m[3] + 8);
    memcpy(c, b, n);
    put32(c + m[3] + 8 + 12, 1000, 0); /* second EPB claims 1000 captured bytes */
    raw_bytes(dir, manifest, "bad-ng-caplen.pcapng", c, n, m[3] + 8);
    /* cut inside the last block: its length runs past the end */
    raw_bytes(dir, manifest, "bad-ng-cut.pcapng", b, m[4] + 40, m[4] + 4);
    /* cut 6 bytes into a block header */
    raw_bytes(dir, manifest, "bad-ng-header-cut.pcapng", b, m[4] + 6, m[4]);
    /* a block length of 8, shorter than any block */
    memcpy(c, b, n);
    put32(c + m[2] + 4, 8, 0);
    raw_bytes(dir, manifest, "bad-ng-length-short.pcapng", c, n, m[2] + 4);
    /* a simple packet block before any interface block: SHB, then the SPB */
    {
        unsigned char spb[16 + 64];
        size_t shb_len = m[1];
        memcpy(c, b, shb_len);
        put32(spb, 3, 0);
        put32(spb + 4, (uint32_t)sizeof spb, 0);
        put32(spb + 8, 64, 0);
        memset(spb + 12, 0x45, 64);
        put32(spb + 76, (uint32_t)sizeof spb, 0);
        memcpy(c + shb_len, spb, sizeof spb);
        raw_bytes(dir, manifest, "bad-ng-spb-first.pcapng", c, shb_len + sizeof spb, shb_len);
    }
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
    pcap_file(dir, manifest, "ethernet-le-usec.pcap", 0, 0, LINK_ETHERNET, 0, 0, 200, 1);
    pcap_file(dir, manifest, "ethernet-be-nsec.pcap", 1, 1, LINK_ETHERNET, 0, 0, 150, 2);
    pcap_file(dir, manifest, "vlan.pcap", 0, 1, LINK_VLAN, 0, 0, 100, 3);
    pcap_file(dir, manifest, "qinq.pcap", 1, 0, LINK_QINQ, 0, 0, 100, 4);
    pcap_file(dir, manifest, "linux-sll.pcap", 1, 0, LINK_SLL, 0, 0, 100, 5);
    pcap_file(dir, manifest, "linux-sll2.pcap", 0, 0, LINK_SLL2, 0, 0, 100, 6);
    pcap_file(dir, manifest, "raw.pcap", 0, 0, LINK_RAW, 0, 0, 100, 7);
    pcap_file(dir, manifest, "raw-ipv4.pcap", 0, 1, LINK_RAW, 1, 4, 60, 8);
    pcap_file(dir, manifest, "raw-ipv6.pcap", 1, 1, LINK_RAW, 1, 6, 60, 9);
    pcap_file(dir, manifest, "loopback.pcap", 0, 0, LINK_NULL, 0, 0, 60, 10);
    truncated_pcap(dir, manifest, 11);
    fragments_pcap(dir, manifest, 12);
    multi_pcapng(dir, manifest, "multi.pcapng", 1, 13);
    truncated_pcapng(dir, manifest, 14);
    clean_files(dir, manifest, 15);
    malformed_files(dir, manifest);
    return fclose(manifest) == 0 ? 0 : 2;
}

/* A large capture for timing: Ethernet, mostly full-size packets, every checksum correct. */
int write_bulk(const char *path, uint64_t bytes, uint64_t seed)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, slash ? slash + 1 : path, FMT_PCAP, 0, 0, 1, 0);
    while (cf.offset < bytes) {
        struct pkt_spec s = random_spec(&rng, LINK_ETHERNET, 0, 0);
        s.corrupt_ip = s.corrupt_l4 = s.udp_zero = 0;
        if (rnd(&rng) % 4)
            s.payload = 1400 + rnd(&rng) % 50; /* mostly full-size, as bulk traffic is */
        add(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, NULL);
    return 0;
}
