/*
 * Recognize the capture format by its first four bytes and walk it.
 */
#include "capture.h"
#include "bytes.h"

#include <stdarg.h>
#include <stdio.h>

int capture_error(struct csum_pcap_error *err, uint64_t offset, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int capture_walk(const unsigned char *buf, size_t len, capture_packet_fn fn, void *ctx,
                 struct csum_pcap_error *err)
{
    if (len < 4)
        return capture_error(err, 0, "file of %zu bytes is too short to be a capture", len);
    switch (le32(buf)) {
    case 0xa1b2c3d4: case 0xd4c3b2a1: /* pcap, microseconds, either byte order */
    case 0xa1b23c4d: case 0x4d3cb2a1: /* pcap, nanoseconds */
        return capture_walk_pcap(buf, len, fn, ctx, err);
    case 0x0a0d0d0a:                  /* pcapng section header (a palindrome) */
        return capture_walk_pcapng(buf, len, fn, ctx, err);
    default:
        return capture_error(err, 0, "not a pcap or pcapng file (magic number %02x %02x %02x %02x)",
                             buf[0], buf[1], buf[2], buf[3]);
    }
}
