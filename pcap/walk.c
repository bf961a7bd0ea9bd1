/*
 * The public entry points: open the stream, walk the capture, dissect each packet, count and
 * report every checksum, and (when fixing) write the computed value over each bad one in
 * the reader's window before that part of the stream goes out.
 *
 * Fixes within a packet are applied as each checksum is found, and a checksum is found only
 * after everything it covers (see dissect.h): so an outer checksum is computed over the
 * already corrected inner packet, and a frame's FCS (checked last) over the corrected frame.
 */
#include "capture.h"
#include "dissect.h"
#include "bytes.h"

#include <limits.h>
#include <string.h>

struct walk {
    int fixing;
    const struct csum_pcap_options *opt;
    struct csum_pcap_summary summary;
    const struct capture_packet *pkt; /* the packet being dissected */
    int found;                        /* checksums found in it */
    int changed;                      /* checksums rewritten in it */
    const struct dissect *d;          /* its dissection */
    int keep_fcs;                     /* its FCS was right before the first fix: recompute */
};

enum { FCS_ON_ETHERNET = 1, FCS_ON_IEEE802_11 = 105, FCS_CRC32 = 4 }; /* link types, FCS length */

/* The CRC-32 of IEEE 802.3 clause 3.2.9 (the frame check sequence of Ethernet, and of 802.11,
 * IEEE 802.11 clause 9.2.4.8): reflected polynomial 0xedb88320, all ones in and out. That is
 * zlib's crc32(), which is used when the build has zlib: several bytes per step where the
 * four-bits-at-a-time table below takes two steps per byte (`csum pcap verify --fcs` on a
 * 256 MiB capture: 1.0-1.1 s with the table, 0.13 s with zlib, 0.05 s without --fcs; AMD EPYC
 * family 26 model 2, 2026-11-27). zlib is optional here
 * (CSUM_WITH_ZLIB=OFF: no gzip captures), and `fix` must keep a right FCS right in every
 * build, hence the table. tests/pcap_test.sh compares each FCS verdict with tshark's: zlib's
 * natively, the table's in the emulated arm64 and s390x suites (cross builds without zlib). */
#ifdef CSUM_PCAP_HAVE_ZLIB
#include <zlib.h>

static uint32_t fcs_crc32(const unsigned char *p, size_t n)
{
    uLong crc = crc32(0, Z_NULL, 0);
    for (; n > UINT_MAX; p += UINT_MAX, n -= UINT_MAX) /* zlib counts in uInt */
        crc = crc32(crc, p, UINT_MAX);
    return (uint32_t)crc32(crc, p, (uInt)n);
}
#else
static uint32_t fcs_crc32(const unsigned char *p, size_t n)
{
    static const uint32_t nibble[16] = { /* what the polynomial does to each nibble */
        0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158,
        0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4,
        0xa00ae278, 0xbdbdf21c,
    };
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ nibble[crc & 15];
        crc = (crc >> 4) ^ nibble[crc & 15];
    }
    return ~crc;
}
#endif

/* Where the packet's capture-level FCS is (the capture's FCS length on an Ethernet or 802.11
 * link type), into d->fcs_from and d->fcs_at, or d->fcs_cut when the capture stops before the
 * frame's end; a radio header may say so too (link_radio.c). */
static void capture_fcs(struct dissect *d, const struct capture_packet *pkt)
{
    if (pkt->fcs_len != FCS_CRC32 ||
        (pkt->linktype != FCS_ON_ETHERNET && pkt->linktype != FCS_ON_IEEE802_11))
        return;
    if (pkt->wirelen > pkt->caplen)
        d->fcs_cut = 1;
    else if (pkt->caplen >= FCS_CRC32)
        d->fcs_at = pkt->caplen - FCS_CRC32; /* over the frame from its first byte */
}

/* Whether the packet has a CRC-32 FCS (Ethernet, 802.11) captured whole. */
static int fcs_whole(const struct dissect *d)
{
    return d->fcs_at != 0 && d->fcs_from <= d->fcs_at && have(d, d->fcs_at, FCS_CRC32);
}

/* Whether the packet has a whole CRC-32 FCS, sent least significant byte first, that is right:
 * the one CSUM_PCAP_FIX_FCS keeps right. */
static int fcs_right(const struct dissect *d)
{
    if (!fcs_whole(d))
        return 0;
    return fcs_crc32(d->data + d->fcs_from, d->fcs_at - d->fcs_from) == le32(d->data + d->fcs_at);
}

/* The FCS the frame's bytes (as they are now: fixed, when fixing) call for, in value[]: the
 * 4 bytes to store, least significant byte first. Only when fcs_whole(d). */
static void fcs_value(const struct walk *w, const struct dissect *d,
                      unsigned char value[FCS_CRC32])
{
    const uint32_t crc = fcs_crc32(w->pkt->data + d->fcs_from, d->fcs_at - d->fcs_from);
    for (int i = 0; i < FCS_CRC32; i++)
        value[i] = (unsigned char)(crc >> (8 * i));
}

/* Write value[] over the frame's FCS and report it to on_fcs; its bytes as a number in
 * capture order, as every value reported is. */
static void write_fcs(struct walk *w, const struct dissect *d,
                      const unsigned char value[FCS_CRC32])
{
    unsigned char *fcs = w->pkt->data + d->fcs_at;
    const struct csum_pcap_fcs f = {
        .frame = w->pkt->frame,
        .stored = be32(fcs),
        .computed = be32(value),
        .offset = w->pkt->offset + d->fcs_at,
    };
    memcpy(fcs, value, FCS_CRC32);
    w->summary.fcs_fixed++;
    if (w->opt->on_fcs)
        w->opt->on_fcs(w->opt->ctx, &f);
}

/* Compute again the FCS of a frame whose checksums were fixed, over the fixed frame (it was
 * right before: w->keep_fcs), and report it after them, as a checksum after what it covers. */
static void fix_fcs(struct walk *w, const struct dissect *d)
{
    unsigned char value[FCS_CRC32];
    fcs_value(w, d, value);
    if (memcmp(w->pkt->data + d->fcs_at, value, FCS_CRC32) != 0) /* else the fix left it right */
        write_fcs(w, d, value);
}

/* CSUM_PCAP_CHECK_FCS: the frame's FCS as a check of its own, after its checksums (which it
 * covers: fixing, it is judged over the fixed frame, and rewritten when bad). Counted with
 * the checksums, but not in w->found: a packet with an FCS and no checksum is still one
 * without checksum. */
static void check_fcs(struct walk *w, const struct dissect *d)
{
    struct csum_pcap_check check = { .frame = w->pkt->frame, .layer = CSUM_PCAP_FCS };
    unsigned char value[FCS_CRC32];
    if (fcs_whole(d)) {
        fcs_value(w, d, value);
        check.stored = be32(w->pkt->data + d->fcs_at);
        check.computed = be32(value);
        check.verdict = check.stored == check.computed ? CSUM_PCAP_GOOD : CSUM_PCAP_BAD;
        check.offset = w->pkt->offset + d->fcs_at;
    } else if (d->fcs_cut) {
        check.verdict = CSUM_PCAP_NOT_CHECKABLE;
        check.note = "the FCS was not captured (the frame is cut short by the snapshot length)";
    } else {
        return; /* the frame has none */
    }
    w->summary.count[CSUM_PCAP_FCS][check.verdict]++;
    if (w->opt->on_check)
        w->opt->on_check(w->opt->ctx, &check);
    if (w->fixing && check.verdict == CSUM_PCAP_BAD)
        write_fcs(w, d, value);
}

static void on_check(void *arg, const struct dissect_check *c)
{
    struct walk *w = arg;
    w->found++;
    w->summary.count[c->layer][c->verdict]++;
    if (c->level)
        w->summary.inner[c->verdict]++;
    if (w->opt->on_check) {
        const struct csum_pcap_check check = {
            .frame = w->pkt->frame,
            .layer = c->layer,
            .verdict = c->verdict,
            .level = c->level,
            .via = c->via,
            .stored = c->stored,
            .computed = c->computed,
            .offset = c->verdict == CSUM_PCAP_NOT_CHECKABLE ? 0 : w->pkt->offset + c->field,
            .note = c->note,
        };
        w->opt->on_check(w->opt->ctx, &check);
    }
    const int fix = c->verdict == CSUM_PCAP_BAD ||
                    (c->verdict == CSUM_PCAP_OFFLOAD && (w->opt->flags & CSUM_PCAP_FIX_OFFLOAD));
    if (w->fixing && fix) {
        /* The FCS as captured is judged before the first byte it covers changes (the
         * dissector has found it by then: radio headers come first). */
        if (w->changed == 0)
            w->keep_fcs = (w->opt->flags & CSUM_PCAP_FIX_FCS) && fcs_right(w->d);
        unsigned char *field = w->pkt->data + c->field;
        field[0] = (unsigned char)(c->computed >> 8);
        field[1] = (unsigned char)c->computed;
        w->changed++;
    }
}

static void count_undissected(struct csum_pcap_summary *s, uint32_t linktype)
{
    s->undissected++;
    for (int i = 0; i < CSUM_PCAP_MAX_LINKTYPES; i++) {
        if (s->undissected_by[i].packets == 0)
            s->undissected_by[i].linktype = linktype;
        if (s->undissected_by[i].linktype == linktype) {
            s->undissected_by[i].packets++;
            return;
        }
    }
}

static void on_packet(void *arg, const struct capture_packet *pkt)
{
    struct walk *w = arg;
    w->pkt = pkt;
    w->found = w->changed = w->keep_fcs = 0;
    w->summary.packets++;
    if (pkt->linktype == CAPTURE_NOT_A_PACKET) {
        w->summary.non_packets++;
        return;
    }
    struct dissect d = {
        .data = pkt->data,
        .caplen = pkt->caplen,
        .opt = w->opt,
        .fn = on_check,
        .ctx = w,
    };
    uint64_t wire = pkt->wirelen > pkt->caplen ? pkt->wirelen : pkt->caplen;
    if (wire >= pkt->fcs_len)
        wire -= pkt->fcs_len;
    const struct span s = { .off = 0, .end = (uint32_t)wire };
    capture_fcs(&d, pkt);
    w->d = &d;
    dissect_linktype(&d, pkt->linktype, s);
    w->d = NULL;
    if (w->opt->flags & CSUM_PCAP_CHECK_FCS)
        check_fcs(w, &d); /* rewrites every bad one: also what keep_fcs would */
    else if (w->keep_fcs && w->changed)
        fix_fcs(w, &d);
    if (d.undissected) /* by the link type not dissected: the one inside PKTAP or PPI */
        count_undissected(&w->summary, d.undissected_linktype);
    else if (d.skipped)
        w->summary.skipped[d.skipped - 1]++;
    else if (!w->found)
        w->summary.without_checksum++;
}

static int run(int in_fd, const void *mem, size_t len, int fixing, int out_fd,
               const struct csum_pcap_options *o, struct csum_pcap_summary *summary,
               struct csum_pcap_error *err)
{
    static const struct csum_pcap_options defaults;
    struct csum_pcap_error local;
    if (!err)
        err = &local;
    memset(err, 0, sizeof *err);
    struct walk w = { .fixing = fixing, .opt = o ? o : &defaults };
    struct reader r;
    struct output out;
    memset(&out, 0, sizeof out);
    int rc = reader_open(&r, in_fd, mem, len, fixing, w.opt->should_stop, w.opt->ctx, err);
    w.summary.compression = r.in.compression;
    if (rc == 0 && fixing && mem && r.in.compression != CSUM_PCAP_PLAIN)
        rc = stream_unsupported(err, 0, "a %s-compressed capture cannot be fixed in place",
                                csum_pcap_compression_name(r.in.compression));
    if (rc == 0 && out_fd >= 0) {
        rc = output_open(&out, out_fd, r.in.compression, err);
        r.out = &out;
    }
    if (rc == 0) {
        r.on_progress = w.opt->on_progress;
        r.progress_ctx = w.opt->ctx;
        rc = capture_walk(&r, &w.summary.format, on_packet, &w);
        w.summary.bytes = reader_offset(&r);
        if (rc == 0) {
            rc = reader_flush(&r);
        } else if (err->cut_short) {
            /* An interrupted capture: write out every whole record, without the last, cut
             * one, so that the output is a capture that reads to its end. */
            r.end = r.start;
            (void)reader_flush(&r); /* rc stays -1; a failed write's error (not cut short)
                                     * replaces the cut's in *err */
        }
    }
    if (summary)
        *summary = w.summary;
    output_close(&out);
    reader_close(&r);
    return rc;
}

int csum_pcap_verify_buffer(const void *buf, size_t len, const struct csum_pcap_options *o,
                            struct csum_pcap_summary *summary, struct csum_pcap_error *err)
{
    static const unsigned char empty[1];
    return run(-1, buf ? buf : empty, buf ? len : 0, 0, -1, o, summary, err);
}

int csum_pcap_verify_fd(int fd, const struct csum_pcap_options *o,
                        struct csum_pcap_summary *summary, struct csum_pcap_error *err)
{
    return run(fd, NULL, 0, 0, -1, o, summary, err);
}

int csum_pcap_fix_buffer(void *buf, size_t len, const struct csum_pcap_options *o,
                         struct csum_pcap_summary *summary, struct csum_pcap_error *err)
{
    static unsigned char empty[1];
    return run(-1, buf ? buf : empty, buf ? len : 0, 1, -1, o, summary, err);
}

int csum_pcap_fix_fd(int in_fd, int out_fd, const struct csum_pcap_options *o,
                     struct csum_pcap_summary *summary, struct csum_pcap_error *err)
{
    return run(in_fd, NULL, 0, 1, out_fd, o, summary, err);
}
