/*
 * Writing pcap and pcapng files, and next to each capture the verdicts a verifier must give:
 * NAME.expect, one line per checksum of every frame, in the form the test makes of
 * `csum pcap verify --all`'s lines (see expectation_line).
 */
#include "pcapgen.h"

#include <stdlib.h>
#include <string.h>

void put16(unsigned char *p, uint16_t v, int big)
{
    if (big) {
        p[0] = (unsigned char)(v >> 8);
        p[1] = (unsigned char)v;
    } else {
        p[0] = (unsigned char)v;
        p[1] = (unsigned char)(v >> 8);
    }
}

void put32(unsigned char *p, uint32_t v, int big)
{
    for (int i = 0; i < 4; i++)
        p[big ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

void cf_bytes(struct capture_file *cf, const void *p, size_t n)
{
    if (fwrite(p, 1, n, cf->f) != n) {
        perror(cf->name);
        exit(2);
    }
    cf->offset += n;
}

static FILE *open_in(const char *dir, const char *name, const char *suffix)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    return f;
}

int cf_open(struct capture_file *cf, const char *dir, const char *name, enum format format,
            int big, int nanoseconds, uint32_t pcap_linktype, int with_expectations)
{
    memset(cf, 0, sizeof *cf);
    cf->name = name;
    cf->format = format;
    cf->big = big;
    cf->nanoseconds = nanoseconds;
    cf->f = open_in(dir, name, "");
    if (with_expectations)
        cf->expect = open_in(dir, name, ".expect");
    if (format == FMT_PCAP) {
        unsigned char h[24];
        put32(h, nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4, big);
        put16(h + 4, 2, big);
        put16(h + 6, 4, big);
        put32(h + 8, 0, big);
        put32(h + 12, 0, big);
        put32(h + 16, 262144, big);
        put32(h + 20, pcap_linktype, big);
        cf_bytes(cf, h, sizeof h);
    }
    return 0;
}

void cf_close(struct capture_file *cf, FILE *manifest, const char *options)
{
    if (fclose(cf->f) != 0 || (cf->expect && fclose(cf->expect) != 0)) {
        perror(cf->name);
        exit(2);
    }
    if (manifest)
        fprintf(manifest, "capture %s %d%s%s\n", cf->name, cf->any_bad ? 1 : 0,
                options ? " " : "", options ? options : "");
    if (manifest && cf->skipped)
        fprintf(manifest, "skipped %s %llu\n", cf->name, (unsigned long long)cf->skipped);
}

/* One pcapng block: type, length, body (padded to 4), length. */
static void block(struct capture_file *cf, uint32_t type, const unsigned char *body, size_t len)
{
    static const unsigned char zeros[4];
    const size_t padded = (len + 3) & ~(size_t)3;
    unsigned char h[8];
    put32(h, type, cf->big);
    put32(h + 4, (uint32_t)(12 + padded), cf->big);
    cf_bytes(cf, h, 8);
    cf_bytes(cf, body, len);
    cf_bytes(cf, zeros, padded - len);
    cf_bytes(cf, h + 4, 4);
}

/* Append an option (code, value) to an options area; returns the new length. */
static size_t option(unsigned char *p, size_t at, uint16_t code, const void *v, size_t len, int big)
{
    put16(p + at, code, big);
    put16(p + at + 2, (uint16_t)len, big);
    memcpy(p + at + 4, v, len);
    size_t padded = (len + 3) & ~(size_t)3;
    memset(p + at + 4 + len, 0, padded - len);
    return at + 4 + padded;
}

static size_t end_of_options(unsigned char *p, size_t at)
{
    memset(p + at, 0, 4);
    return at + 4;
}

void cf_section(struct capture_file *cf, int big)
{
    unsigned char b[64];
    cf->big = big;
    cf->interfaces = 0;
    put32(b, 0x1a2b3c4d, big);
    put16(b + 4, 1, big);
    put16(b + 6, 0, big);
    memset(b + 8, 0xff, 8); /* section length: not given */
    size_t n = option(b, 16, 4, "csum-pcapgen", 12, big); /* shb_userappl */
    n = end_of_options(b, n);
    block(cf, 0x0a0d0d0a, b, n);
}

void cf_interface(struct capture_file *cf, uint32_t linktype, uint32_t snaplen)
{
    unsigned char b[32];
    put16(b, (uint16_t)linktype, cf->big);
    put16(b + 2, 0, cf->big);
    put32(b + 4, snaplen, cf->big);
    size_t n = 8;
    if (cf->interfaces % 2) { /* nanosecond timestamps on every other interface */
        unsigned char nine = 9;
        n = option(b, n, 9, &nine, 1, cf->big); /* if_tsresol */
        n = end_of_options(b, n);
    }
    block(cf, 1, b, n);
    cf->interfaces++;
}

void cf_other_blocks(struct capture_file *cf)
{
    unsigned char b[64];
    /* Name Resolution Block: one IPv4 record "192.0.2.1 -> host", then the end record. */
    put16(b, 1, cf->big);
    put16(b + 2, 9, cf->big);
    memcpy(b + 4, "\xc0\x00\x02\x01host", 9);
    memset(b + 13, 0, 3);
    put16(b + 16, 0, cf->big);
    put16(b + 18, 0, cf->big);
    block(cf, 4, b, 20);
    /* Interface Statistics Block for interface 0, no options. */
    put32(b, 0, cf->big);
    put32(b + 4, 0, cf->big);
    put32(b + 8, 12345, cf->big);
    block(cf, 5, b, 12);
    /* Custom block (copiable) with a private enterprise number and some bytes. Wireshark
     * shows it as a frame, so it takes a frame number. */
    put32(b, 32473, cf->big);
    memcpy(b + 4, "opaque data", 11);
    block(cf, 0x00000bad, b, 15);
    cf->frames++;
}

static const char *const via_names[] = { "-", "ip", "gre", "erspan", "vxlan", "vxlan-gpe",
                                         "geneve", "icmp", "icmpv6" };

void expectation_line(FILE *f, uint64_t frame, const struct expectation *e)
{
    fprintf(f, "%llu %s %s ", (unsigned long long)frame, e->level ? "inner" : "outer", e->layer);
    switch (e->verdict) {
    case EXPECT_GOOD:
        fprintf(f, "good 0x%04x", e->stored);
        break;
    case EXPECT_BAD:
    case EXPECT_OFFLOAD:
        fprintf(f, "%s 0x%04x 0x%04x", e->verdict == EXPECT_BAD ? "bad" : "offload", e->stored,
                e->computed);
        break;
    case EXPECT_NOT_CHECKABLE:
        fprintf(f, "not_checkable");
        break;
    default:
        fprintf(f, "none");
        break;
    }
    fprintf(f, " %s\n", via_names[e->via]);
}

static void write_expectations(struct capture_file *cf, const struct frame *fr)
{
    if (fr->skipped)
        cf->skipped++;
    for (int i = 0; i < fr->n_expect; i++) {
        if (fr->expect[i].verdict == EXPECT_BAD)
            cf->any_bad = 1;
        if (cf->expect)
            expectation_line(cf->expect, cf->frames, &fr->expect[i]);
    }
}

void cf_frame(struct capture_file *cf, const struct frame *fr, uint32_t interface,
              enum packet_block kind)
{
    cf->frames++;
    const uint64_t ts = 1700000000ull * 1000000 + cf->frames * 1000;
    static unsigned char b[64 + MAX_FRAME + 512];
    if (cf->format == FMT_PCAP) {
        unsigned char h[16];
        put32(h, (uint32_t)(ts / 1000000), cf->big);
        put32(h + 4, (uint32_t)(ts % 1000000) * (cf->nanoseconds ? 1000 : 1), cf->big);
        put32(h + 8, (uint32_t)fr->caplen, cf->big);
        put32(h + 12, (uint32_t)fr->wirelen, cf->big);
        cf_bytes(cf, h, 16);
        cf_bytes(cf, fr->data, fr->caplen);
    } else if (kind == PB_SIMPLE) {
        put32(b, (uint32_t)fr->wirelen, cf->big);
        memcpy(b + 4, fr->data, fr->caplen);
        block(cf, 3, b, 4 + fr->caplen);
    } else {
        size_t n;
        if (kind == PB_OBSOLETE) {
            put16(b, (uint16_t)interface, cf->big);
            put16(b + 2, 0, cf->big); /* drops */
        } else {
            put32(b, interface, cf->big);
        }
        put32(b + 4, (uint32_t)(ts >> 32), cf->big);
        put32(b + 8, (uint32_t)ts, cf->big);
        put32(b + 12, (uint32_t)fr->caplen, cf->big);
        put32(b + 16, (uint32_t)fr->wirelen, cf->big);
        memcpy(b + 20, fr->data, fr->caplen);
        n = 20 + ((fr->caplen + 3) & ~(size_t)3);
        memset(b + 20 + fr->caplen, 0, n - 20 - fr->caplen);
        if (cf->frames % 5 == 0) { /* a comment option now and then */
            n = option(b, n, 1, "generated", 9, cf->big);
            n = end_of_options(b, n);
        }
        block(cf, kind == PB_OBSOLETE ? 2 : 6, b, n);
    }
    write_expectations(cf, fr);
}
