/*
 * Reading a capture: from a file descriptor with read(2) (files and pipes alike) or from
 * memory, through the decoder the first bytes call for.
 */
#include "stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { RAW_CHUNK = 1 << 18 }; /* compressed bytes read at a time */

int stream_error(struct csum_pcap_error *err, uint64_t offset, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->cut_short = 0;
        err->kind = CSUM_PCAP_ERROR_MALFORMED;
    }
    return -1;
}

int stream_mark_kind(struct csum_pcap_error *err, enum csum_pcap_error_kind kind)
{
    if (err)
        err->kind = kind;
    return -1;
}

int stream_mark_cut_short(struct csum_pcap_error *err)
{
    if (err)
        err->cut_short = 1;
    return -1;
}

static const char stopped_message[] = "the walk was stopped by its caller (should_stop)";

int input_stop_asked(struct input *in, uint64_t offset)
{
    if (!in->should_stop || !in->should_stop(in->stop_ctx))
        return 0;
    in->stopped = 1;
    stream_interrupted(in->err, offset, "%s", stopped_message);
    return 1;
}

/* read(2) until n bytes or end of file; the count, or -1 with errno. A read that fails after
 * others gave bytes returns those, its errno kept in in->read_errno for the next call to
 * return (fewer than n bytes is then no end of file): the capture they hold is walked, and
 * the error's offset is where reading stopped. should_stop is asked before each read(2),
 * also after one a signal interrupted (EINTR: a handler may have asked to stop, and the read
 * would block again): when it says stop, the bytes got so far are returned the same way, and
 * in->stopped is the error of the next call. */
static long read_fd(struct input *in, unsigned char *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        if (in->should_stop && in->should_stop(in->stop_ctx)) {
            in->stopped = 1;
            break;
        }
        ssize_t r = read(in->fd, p + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && got)
            in->read_errno = errno;
        if (r < 0)
            return got ? (long)got : -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (long)got;
}

/* Bytes straight from the source (compressed ones when compressed): the count, or -1 on a
 * failed read, with *err filled, of kind system, at `at`: the capture offset (after
 * decompression) of the first byte that could not be read, as every error gives; or -1 of
 * kind interrupted there, once should_stop said stop. */
static long source_read(struct input *in, unsigned char *dst, size_t n, uint64_t at)
{
    if (in->fd < 0) {
        size_t left = in->mem_len - in->mem_pos;
        if (n > left)
            n = left;
        memcpy(dst, in->mem + in->mem_pos, n);
        in->mem_pos += n;
        in->bytes_in += n;
        return (long)n;
    }
    long r = -1;
    if (in->read_errno) /* what failed after the bytes the last call returned */
        errno = in->read_errno;
    else if (!in->stopped)
        r = read_fd(in, dst, n);
    if (in->stopped && r <= 0) /* stopped before this read's first byte, or the last's end */
        return stream_interrupted(in->err, at, "%s", stopped_message);
    if (r < 0 && in->codec) /* how far into the compressed stream too */
        return stream_system_error(in->err, at, "cannot read: %s (after %llu compressed bytes)",
                                   strerror(errno), (unsigned long long)in->bytes_in);
    if (r < 0)
        return stream_system_error(in->err, at, "cannot read: %s", strerror(errno));
    in->bytes_in += (uint64_t)r;
    return r;
}

/* A compressed capture this csum cannot read (`why`), with the command to run instead. */
static int decompress_first(const struct input *in, const char *compressor, const char *why)
{
    if (in->fixing) /* recompressed on the way out, as fix does with gzip and zstd */
        return stream_unsupported(in->err, 0, "%s-compressed capture, %s: decompress it first, "
                                  "e.g. %s -dc IN | csum pcap fix - - | %s >OUT", compressor, why,
                                  compressor, compressor);
    return stream_unsupported(in->err, 0, "%s-compressed capture, %s: decompress it first, e.g. "
                              "%s -dc FILE | csum pcap verify -", compressor, why, compressor);
}

int input_not_read(const struct input *in, const char *compressor)
{
    return decompress_first(in, compressor, "which csum does not read");
}

int input_open(struct input *in, int fd, const void *mem, size_t len, int fixing,
               int (*should_stop)(void *ctx), void *stop_ctx, struct csum_pcap_error *err)
{
    memset(in, 0, sizeof *in);
    in->fixing = fixing;
    in->fd = mem ? -1 : fd;
    in->mem = mem;
    in->mem_len = len;
    in->should_stop = should_stop;
    in->stop_ctx = stop_ctx;
    in->err = err;
    in->at_boundary = 1;
    if (in->fd < 0 && input_stop_asked(in, 0)) /* from a descriptor: before its first read */
        return -1;

    /* The first bytes decide; from a descriptor they are kept in `raw` for whoever reads
     * next (the decoder, or input_read handing them out as they are). */
    unsigned char head[6];
    size_t n_head;
    if (in->fd < 0) {
        n_head = len < sizeof head ? len : sizeof head;
        memcpy(head, mem, n_head);
    } else {
        in->raw_cap = RAW_CHUNK;
        in->raw = malloc(in->raw_cap);
        if (!in->raw)
            return stream_system_error(err, 0, "out of memory");
        long r = source_read(in, in->raw, sizeof head, 0);
        if (r < 0)
            return -1;
        in->raw_len = (size_t)r;
        in->raw_eof = (size_t)r < sizeof head && !in->read_errno && !in->stopped;
        n_head = (size_t)r;
        memcpy(head, in->raw, n_head);
    }
    const char *other;
    in->compression = codec_detect(head, n_head, &other);
    if (other)
        return input_not_read(in, other);
    if (in->compression != CSUM_PCAP_PLAIN) {
        in->codec = codec_find(in->compression);
        if (!in->codec) /* what to do about it too, as for a compression csum never reads */
            return decompress_first(in, csum_pcap_compression_name(in->compression),
                                    in->compression == CSUM_PCAP_GZIP
                                        ? "but this csum was built without zlib"
                                        : "but this csum was built without libzstd");
        in->decoder = in->codec->decoder_new();
        if (!in->decoder)
            return stream_system_error(err, 0, "out of memory for the %s decoder",
                                       in->codec->name);
        in->at_boundary = 0;
    }
    return 0;
}

static long read_some(struct input *in, unsigned char *dst, size_t n);

long input_read(struct input *in, unsigned char *dst, size_t n)
{
    if (in->failed)
        return -1;
    long r = read_some(in, dst, n);
    if (r < 0)
        return -1;
    in->bytes_out += (uint64_t)r;
    return r;
}

/* What failed after `got` bytes were produced: those first, the error at the next call. */
static long failed_after(struct input *in, size_t got)
{
    in->failed = 1;
    return got ? (long)got : -1;
}

static long read_some(struct input *in, unsigned char *dst, size_t n)
{
    if (!in->codec) {
        /* Hand out what was read ahead first. */
        size_t from_raw = in->raw_len - in->raw_pos;
        if (from_raw > n)
            from_raw = n;
        memcpy(dst, in->raw + in->raw_pos, from_raw);
        in->raw_pos += from_raw;
        if (from_raw == n || (in->fd >= 0 && in->raw_eof))
            return (long)from_raw;
        long r = source_read(in, dst + from_raw, n - from_raw, in->bytes_out + from_raw);
        return r < 0 ? failed_after(in, from_raw) : (long)from_raw + r;
    }

    unsigned char *out = dst;
    size_t out_left = n;
    int stalled = 0;
    while (out_left > 0) {
        const unsigned char *src;
        size_t src_len;
        if (in->fd < 0) {
            src = in->mem + in->mem_pos;
            src_len = in->mem_len - in->mem_pos;
        } else {
            if (in->raw_pos == in->raw_len && !in->raw_eof) {
                long r = source_read(in, in->raw, in->raw_cap, in->bytes_out + (n - out_left));
                if (r < 0)
                    return failed_after(in, n - out_left);
                in->raw_pos = 0;
                in->raw_len = (size_t)r;
                in->raw_eof = r == 0;
            }
            src = in->raw + in->raw_pos;
            src_len = in->raw_len - in->raw_pos;
        }
        if (src_len == 0) { /* the source is exhausted */
            if (!in->at_boundary) {
                stream_cut_short(in->err, in->bytes_out + (n - out_left), "the %s stream is cut "
                             "short: it ends inside a compressed frame, after %llu compressed "
                             "bytes", in->codec->name, (unsigned long long)in->bytes_in);
                return failed_after(in, n - out_left);
            }
            break;
        }
        const size_t src_before = src_len, out_before = out_left;
        char msg[160];
        enum codec_status st = in->codec->decode(in->decoder, &src, &src_len, &out, &out_left,
                                                 msg, sizeof msg);
        const size_t used = src_before - src_len;
        if (in->fd < 0) {
            in->mem_pos += used;
            in->bytes_in += used;
        } else {
            in->raw_pos += used;
        }
        if (st == CODEC_ERROR || st == CODEC_UNSUPPORTED || st == CODEC_NO_MEMORY) {
            /* Where the decoder stopped, not how far the source was read ahead. */
            const uint64_t at = in->bytes_in - (in->fd < 0 ? 0 : in->raw_len - in->raw_pos);
            if (st == CODEC_UNSUPPORTED) /* the message says what it is, and what to run */
                stream_unsupported(in->err, in->bytes_out + (n - out_left), "%s", msg);
            else if (st == CODEC_NO_MEMORY) /* not the capture's fault: it may be fine */
                stream_system_error(in->err, in->bytes_out + (n - out_left), "%s", msg);
            else
                stream_error(in->err, in->bytes_out + (n - out_left), "%s (compressed byte %llu)",
                             msg, (unsigned long long)at);
            return failed_after(in, n - out_left);
        }
        if (st == CODEC_BOUNDARY)
            in->at_boundary = 1;
        else if (used || out_left != out_before)
            in->at_boundary = 0;
        /* Input and room were offered: a decoder that takes and gives nothing twice running
         * would loop forever. */
        stalled = used == 0 && out_left == out_before ? stalled + 1 : 0;
        if (stalled > 2) {
            stream_error(in->err, in->bytes_out + (n - out_left), "the %s decoder makes no "
                         "progress", in->codec->name);
            return failed_after(in, n - out_left);
        }
    }
    return (long)(n - out_left);
}

void input_close(struct input *in)
{
    if (in->codec && in->decoder)
        in->codec->decoder_free(in->decoder);
    free(in->raw);
    memset(in, 0, sizeof *in);
}
