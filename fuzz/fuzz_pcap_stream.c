/*
 * (c) The streaming side of `csum pcap`: captures read from a file descriptor through a tiny
 * read-ahead (so the window slides and grows at every record), plain or compressed with
 * gzip or zstd, and `fix` writing the stream back out compressed the same way. The input is
 *   byte 0      read-ahead in bytes (1..256)
 *   byte 1      bits 0..5 compression: 0 plain, 1 gzip, 2 zstd (others: plain); bit 6
 *               CSUM_PCAP_FIX_FCS (what `fix` always sets), bit 7 CSUM_PCAP_CHECK_FCS (--fcs),
 *               so that the stream paths also carry FCS checks and the FCSs a fix writes
 *   bytes 2..   the capture
 *
 * Always-on checks: reading the capture from a descriptor, plain or compressed, gives the
 * same checks, summary and error (offset and message) as reading it from memory; a fixed
 * stream decompresses to exactly what fixing the plain capture in memory gives, with the same
 * counts (checks per layer and verdict, FCSs written); a
 * compressed stream cut anywhere gives a prefix of the checks and an error, never a crash.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "codec.h"
#include "csum_pcap.h"
#include "fuzz_common.h"

struct seen {
    uint64_t checks, digest;
};

static void on_check(void *ctx, const struct csum_pcap_check *c)
{
    struct seen *s = ctx;
    s->checks++;
    s->digest = s->digest * 1000003 + c->frame * 131 + c->offset * 7 + c->verdict * 3 +
                c->stored + c->computed * 5 + c->level;
}

/* A temporary file holding p[0..n), positioned at its start. */
static FILE *file_of(const void *p, size_t n)
{
    FILE *f = tmpfile();
    FUZZ_CHECK(f, "tmpfile");
    FUZZ_CHECK(fwrite(p, 1, n, f) == n && fflush(f) == 0, "tmpfile write");
    rewind(f);
    return f;
}

/* All of f's bytes, malloc'ed. */
static unsigned char *contents(FILE *f, size_t *len)
{
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
    FUZZ_CHECK(p && fread(p, 1, (size_t)n, f) == (size_t)n, "tmpfile read");
    *len = (size_t)n;
    return p;
}

/* Run a codec over p[0..n) (encode or decode); malloc'ed result, or NULL on a codec error. */
static unsigned char *run_codec(const struct codec *k, int encode, const unsigned char *p,
                                size_t n, size_t *out_len)
{
    void *st = encode ? k->encoder_new() : k->decoder_new();
    FUZZ_CHECK(st, "codec state");
    size_t cap = 4096 + 2 * n, len = 0;
    unsigned char *buf = malloc(cap);
    FUZZ_CHECK(buf, "out of memory");
    for (;;) {
        if (cap - len < 1024) {
            buf = realloc(buf, cap *= 2);
            FUZZ_CHECK(buf, "out of memory");
        }
        unsigned char *out = buf + len;
        size_t room = cap - len;
        char msg[160];
        enum codec_status stt = encode ? k->encode(st, &p, &n, &out, &room, 1, msg, sizeof msg)
                                       : k->decode(st, &p, &n, &out, &room, msg, sizeof msg);
        len = (size_t)(out - buf);
        if (stt == CODEC_ERROR) {
            free(buf);
            buf = NULL;
            break;
        }
        if (encode ? stt == CODEC_BOUNDARY : (n == 0 && room > 0))
            break;
    }
    encode ? k->encoder_free(st) : k->decoder_free(st);
    *out_len = len;
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const size_t read_ahead = 1 + data[0];
    const unsigned comp_byte = data[1] & 0x3f;
    const enum csum_pcap_compression comp = comp_byte == 1 ? CSUM_PCAP_GZIP
                                          : comp_byte == 2 ? CSUM_PCAP_ZSTD : CSUM_PCAP_PLAIN;
    const unsigned flags = (data[1] & 0x40 ? CSUM_PCAP_FIX_FCS : 0u) |
                           (data[1] & 0x80 ? CSUM_PCAP_CHECK_FCS : 0u);
    const unsigned char *cap = data + 2;
    const size_t cap_len = size - 2;
    const struct codec *k = codec_find(comp);
    if (comp != CSUM_PCAP_PLAIN && !k)
        return 0; /* not built in */

    /* From memory, plain: the reference. */
    unsigned char *ref = malloc(cap_len ? cap_len : 1);
    FUZZ_CHECK(ref, "out of memory");
    memcpy(ref, cap, cap_len);
    struct seen want = { 0 }, got = { 0 };
    struct csum_pcap_options o = { .flags = flags, .on_check = on_check, .ctx = &want };
    struct csum_pcap_summary ws, gs;
    struct csum_pcap_error we, ge;
    const int wr = csum_pcap_verify_buffer(ref, cap_len, &o, &ws, &we);
    if (ws.compression != CSUM_PCAP_PLAIN) { /* the capture itself looks compressed */
        free(ref);
        return 0;
    }

    /* The same capture, compressed (or not), from a descriptor, through a tiny window. */
    size_t in_len = cap_len;
    unsigned char *in = k ? run_codec(k, 1, cap, cap_len, &in_len) : NULL;
    FILE *f = file_of(in ? in : cap, in_len);
    capture_read_ahead = read_ahead;
    o.ctx = &got;
    const int gr = csum_pcap_verify_fd(fileno(f), &o, &gs, &ge);
    FUZZ_CHECK(gr == wr && got.digest == want.digest && got.checks == want.checks &&
               gs.packets == ws.packets && gs.compression == comp,
               "%s stream: rc %d, %llu checks, %llu packets; memory: rc %d, %llu checks, %llu "
               "packets", csum_pcap_compression_name(comp), gr, (unsigned long long)got.checks,
               (unsigned long long)gs.packets, wr, (unsigned long long)want.checks,
               (unsigned long long)ws.packets);
    if (wr != 0)
        FUZZ_CHECK(ge.offset == we.offset && !strcmp(ge.message, we.message) &&
                   ge.kind == we.kind, "errors differ: stream %s '%s' at %llu, memory %s '%s' "
                   "at %llu", csum_pcap_error_kind_name(ge.kind), ge.message,
                   (unsigned long long)ge.offset, csum_pcap_error_kind_name(we.kind),
                   we.message, (unsigned long long)we.offset);

    /* fix_fd: the output, decompressed, is fix_buffer's result. */
    memcpy(ref, cap, cap_len);
    o.on_check = NULL;
    struct csum_pcap_summary bs;
    const int fixed_rc = csum_pcap_fix_buffer(ref, cap_len, &o, &bs, NULL);
    rewind(f);
    FILE *out = tmpfile();
    FUZZ_CHECK(out, "tmpfile");
    struct csum_pcap_summary ss;
    struct csum_pcap_error se;
    const int sr = csum_pcap_fix_fd(fileno(f), fileno(out), &o, &ss, &se);
    FUZZ_CHECK(sr == fixed_rc, "fix_fd %d, fix_buffer %d", sr, fixed_rc);
    if (sr == 0)
        FUZZ_CHECK(!memcmp(ss.count, bs.count, sizeof ss.count) && ss.fcs_fixed == bs.fcs_fixed,
                   "fix_fd's summary is not fix_buffer's (FCSs written: %llu, %llu)",
                   (unsigned long long)ss.fcs_fixed, (unsigned long long)bs.fcs_fixed);
    if (sr == 0 || se.cut_short) {
        /* Cut short in its last record: the output is the fixed capture up to that record. */
        const size_t want_len = sr == 0 ? cap_len : (size_t)ss.bytes;
        size_t out_len, plain_len;
        unsigned char *o_bytes = contents(out, &out_len);
        unsigned char *plain = k ? run_codec(k, 0, o_bytes, out_len, &plain_len) : o_bytes;
        if (!k)
            plain_len = out_len;
        FUZZ_CHECK(plain && plain_len == want_len && !memcmp(plain, ref, want_len),
                   "the fixed %s stream is not the fixed capture%s",
                   csum_pcap_compression_name(comp), sr ? " up to its cut record" : "");
        if (plain != o_bytes)
            free(plain);
        free(o_bytes);
    }
    fclose(out);

    /* Cut the compressed stream: a prefix of the checks, then an error (or the end). */
    if (in && in_len > 1) {
        FILE *cut = file_of(in, in_len / 2);
        struct seen part = { 0 };
        o.on_check = on_check;
        o.ctx = &part;
        int cr = csum_pcap_verify_fd(fileno(cut), &o, NULL, &ge);
        FUZZ_CHECK(part.checks <= want.checks, "more checks from a cut stream");
        FUZZ_CHECK(cr != 0 || want.checks == part.checks, "a cut stream parsed to the end");
        fclose(cut);
    }
    capture_read_ahead = 1 << 20;
    fclose(f);
    free(in);
    free(ref);
    return 0;
}
