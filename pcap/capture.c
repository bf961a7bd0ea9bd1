/*
 * The window over the capture stream, and the choice of format by the first four bytes.
 *
 * The window holds the record being looked at (and a read-ahead of capture_read_ahead), so
 * memory does not grow with the file. A plain capture given in memory is walked where it is,
 * without a copy.
 */
#include "capture.h"
#include "bytes.h"

#include <stdlib.h>
#include <string.h>

size_t capture_read_ahead = 1 << 20;

int reader_open(struct reader *r, int fd, const void *mem, size_t len, int fixing,
                int (*should_stop)(void *ctx), void *stop_ctx, struct csum_pcap_error *err)
{
    memset(r, 0, sizeof *r);
    r->err = err;
    if (input_open(&r->in, fd, mem, len, fixing, should_stop, stop_ctx, err) != 0)
        return -1;
    if (mem && r->in.compression == CSUM_PCAP_PLAIN) {
        r->buf = (unsigned char *)mem;
        r->end = r->cap = len;
        r->borrowed = 1;
        r->eof = 1;
    }
    return 0;
}

void reader_close(struct reader *r)
{
    input_close(&r->in);
    if (!r->borrowed)
        free(r->buf);
    memset(r, 0, sizeof *r);
}

int reader_fill(struct reader *r, size_t n)
{
    if (r->end - r->start >= n)
        return 1;
    if (r->eof)
        return 0;
    /* Slide what is left to the front (after writing out what was consumed), grow if one
     * record needs more than the window, then read until n bytes are there. */
    if (r->start > 0) {
        if (r->out && output_write(r->out, r->buf, r->start, r->base) != 0)
            return -1;
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->base += r->start;
        r->end -= r->start;
        r->start = 0;
    }
    size_t want = n > capture_read_ahead ? n : capture_read_ahead;
    if (r->cap < want) {
        unsigned char *p = realloc(r->buf, want);
        if (!p)
            return stream_system_error(r->err, r->base, "out of memory for a record of %zu bytes",
                                       n);
        r->buf = p;
        r->cap = want;
    }
    while (r->end < n) {
        long got = input_read(&r->in, r->buf + r->end, r->cap - r->end);
        if (got < 0)
            return -1;
        r->end += (size_t)got;
        if (r->on_progress)
            r->on_progress(r->progress_ctx, r->in.bytes_in, r->packets);
        if (got == 0) {
            r->eof = 1;
            break;
        }
    }
    return r->end >= n;
}

int reader_flush(struct reader *r)
{
    if (!r->out)
        return 0;
    if (output_write(r->out, r->buf, r->end, r->base) != 0)
        return -1;
    r->base += r->end;
    r->start = r->end = 0;
    return output_finish(r->out, r->base);
}

static int walk_by_magic(struct reader *r, enum csum_pcap_format *format, capture_packet_fn fn,
                         void *ctx)
{
    *format = CSUM_PCAP_FORMAT_UNKNOWN;
    int rc = reader_need(r, 4);
    if (rc < 0)
        return -1;
    const unsigned char *p = reader_at(r);
    const char *other; /* compressed again inside: say so, as for the outer layer */
    if (rc == 0) {
        /* Even 3 bytes can say "bzip2": the same message as when they come uncompressed. */
        codec_detect(p, reader_avail(r), &other);
        if (other)
            return input_not_read(&r->in, other);
        return stream_error(r->err, 0, "file of %zu bytes is too short to be a capture",
                            reader_avail(r));
    }
    switch (le32(p)) {
    case 0xa1b2c3d4: case 0xd4c3b2a1: /* pcap, microseconds, either byte order */
    case 0xa1b23c4d: case 0x4d3cb2a1: /* pcap, nanoseconds */
    case 0xa1b2cd34: case 0x34cdb2a1: /* pcap, Kuznetsov's modified record headers */
        *format = CSUM_PCAP_FORMAT_PCAP;
        return capture_walk_pcap(r, fn, ctx);
    case 0x0a0d0d0a:                  /* pcapng section header (a palindrome) */
        *format = CSUM_PCAP_FORMAT_PCAPNG;
        return capture_walk_pcapng(r, fn, ctx);
    default: {
        const enum csum_pcap_compression again = codec_detect(p, 4, &other);
        if (other)
            return input_not_read(&r->in, other);
        if (again != CSUM_PCAP_PLAIN) /* reading it would take a second decoder */
            return stream_unsupported(r->err, 0, "compressed twice (%s inside %s): decompress "
                                      "the outer layer first", csum_pcap_compression_name(again),
                                      csum_pcap_compression_name(r->in.compression));
        return stream_error(r->err, 0, "not a pcap or pcapng file (magic number %02x %02x %02x "
                            "%02x)", p[0], p[1], p[2], p[3]);
    }
    }
}

int capture_walk(struct reader *r, enum csum_pcap_format *format, capture_packet_fn fn, void *ctx)
{
    const int rc = walk_by_magic(r, format, fn, ctx);
    /* Cut short is an interrupted capture: one whose own header (pcap's file header, pcapng's
     * first section header) was read whole. Cut before it (a compressed stream ending inside
     * it, or inside the magic number) there is no capture at all: an error like any other. */
    if (rc != 0 && r->err && reader_offset(r) == 0)
        r->err->cut_short = 0;
    return rc;
}
