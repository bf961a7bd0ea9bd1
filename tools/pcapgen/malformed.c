/*
 * Malformed captures for the reader's error paths, each with the byte offset its error
 * message must name (MANIFEST: "malformed NAME OFFSET"): short and empty files, wrong magic
 * numbers, records and blocks claiming impossible lengths; versions csum does not read, which
 * are no malformed file ("unsupported NAME OFFSET"); and captures cut
 * short in their last record, which are no error ("cut NAME OFFSET KEEP").
 */
#include "pcapgen.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A file that is no capture csum reads, of `kind` (MANIFEST: "KIND NAME OFFSET"): "malformed",
 * or "unsupported", well formed but of a version csum does not read. */
static void kind_bytes(const char *dir, FILE *manifest, const char *kind, const char *name,
                       const void *p, size_t n, unsigned long long offset)
{
    FILE *f = raw_file(dir, name);
    if (n && fwrite(p, 1, n, f) != n) {
        perror(name);
        exit(2);
    }
    fclose(f);
    fprintf(manifest, "%s %s %llu\n", kind, name, offset);
}

static void raw_bytes(const char *dir, FILE *manifest, const char *name, const void *p, size_t n,
                      unsigned long long offset)
{
    kind_bytes(dir, manifest, "malformed", name, p, n, offset);
}

/* A capture cut short, as an interrupted capture is (MANIFEST: "cut NAME OFFSET KEEP"): its
 * error names OFFSET, and a fix writes its first KEEP bytes, the whole records before the cut. */
static void cut_bytes(const char *dir, FILE *manifest, const char *name, const void *p, size_t n,
                      unsigned long long offset, size_t keep)
{
    FILE *f = raw_file(dir, name);
    if (fwrite(p, 1, n, f) != n) {
        perror(name);
        exit(2);
    }
    fclose(f);
    fprintf(manifest, "cut %s %llu %zu\n", name, offset, keep);
}

/* A small valid capture in memory, to be damaged: returns its length. Offsets of the blocks
 * are noted in `marks` (pcap: record starts; pcapng: block starts). */
static size_t small_capture(unsigned char *out, enum format format, int big, size_t *marks,
                            int *n_marks)
{
    /* A scratch file in $TMPDIR (a build sandbox may have no /tmp), or /tmp. */
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/csum-pcapgen-XXXXXX",
             tmpdir && *tmpdir && strlen(tmpdir) < sizeof path - 32 ? tmpdir : "/tmp");
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
        struct pkt_spec s = { .link = LINK_ETHERNET, .ip = { .ipv = 4, .proto = 17, .payload = 30 } };
        static struct frame fr[8];
        build_packet(&s, &rng, fr);
        marks[(*n_marks)++] = (size_t)cf.offset;
        cf_frame(&cf, &fr[0], 0, PB_ENHANCED);
    }
    marks[*n_marks] = (size_t)cf.offset;
    cf_close(&cf, NULL, NULL);
    *slash = '/';
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(out, 1, 4096, f) : 0;
    if (f)
        fclose(f);
    unlink(path);
    close(fd);
    return n;
}

void malformed_files(const char *dir, FILE *manifest)
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
    kind_bytes(dir, manifest, "unsupported", "bad-pcap-version.pcap", c, n, 4);
    /* the third record's header cut after 10 bytes */
    cut_bytes(dir, manifest, "bad-pcap-record-cut.pcap", b, m[2] + 10, m[2], m[2]);
    /* the third record's data cut short: the error names its length field */
    cut_bytes(dir, manifest, "bad-pcap-data-cut.pcap", b, n - 5, m[2] + 8, m[2]);
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
    kind_bytes(dir, manifest, "unsupported", "bad-ng-version.pcapng", c, n, 12);
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
    cut_bytes(dir, manifest, "bad-ng-cut.pcapng", b, m[4] + 40, m[4] + 4, m[4]);
    /* cut 6 bytes into a block header */
    cut_bytes(dir, manifest, "bad-ng-header-cut.pcapng", b, m[4] + 6, m[4], m[4]);
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

