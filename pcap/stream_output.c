/*
 * Writing a fixed capture: as is, or through the encoder of the input's compression.
 */
#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OUT_CHUNK = 1 << 18 };

static int write_all(struct output *o, const unsigned char *p, size_t n, uint64_t offset)
{
    while (n > 0) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (o->err)
                o->err->output = 1;
            return stream_system_error(o->err, offset, "cannot write the output: %s",
                                       w < 0 ? strerror(errno) : "no progress");
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int output_open(struct output *o, int fd, enum csum_pcap_compression c, struct csum_pcap_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = fd;
    o->err = err;
    if (c == CSUM_PCAP_PLAIN)
        return 0;
    o->codec = codec_find(c);
    if (!o->codec)
        return stream_unsupported(err, 0, "cannot write %s: not built in",
                                  csum_pcap_compression_name(c));
    o->encoder = o->codec->encoder_new();
    o->cap = OUT_CHUNK;
    o->buf = malloc(o->cap);
    if (!o->encoder || !o->buf)
        return stream_system_error(err, 0, "out of memory for the %s encoder", o->codec->name);
    return 0;
}

/* Run the encoder over p[0..n) (finish: and end the stream), writing out full buffers. */
static int encode(struct output *o, const unsigned char *p, size_t n, int finish, uint64_t offset)
{
    for (;;) {
        unsigned char *out = o->buf + o->len;
        size_t room = o->cap - o->len;
        char msg[160];
        enum codec_status st = o->codec->encode(o->encoder, &p, &n, &out, &room, finish,
                                                msg, sizeof msg);
        if (st == CODEC_ERROR)
            return stream_system_error(o->err, offset, "%s", msg); /* the encoder's own failure */
        o->len = o->cap - room;
        if (o->len == o->cap || (finish && st == CODEC_BOUNDARY)) {
            if (write_all(o, o->buf, o->len, offset) != 0)
                return -1;
            o->len = 0;
        }
        if (finish ? st == CODEC_BOUNDARY : n == 0)
            return 0;
    }
}

int output_write(struct output *o, const void *p, size_t n, uint64_t offset)
{
    if (n == 0)
        return 0;
    if (!o->codec)
        return write_all(o, p, n, offset);
    return encode(o, p, n, 0, offset);
}

int output_finish(struct output *o, uint64_t offset)
{
    static const unsigned char nothing[1]; /* no input left, but a pointer the codecs may add 0 to */
    return o->codec ? encode(o, nothing, 0, 1, offset) : 0;
}

void output_close(struct output *o)
{
    if (o->codec && o->encoder)
        o->codec->encoder_free(o->encoder);
    free(o->buf);
    memset(o, 0, sizeof *o);
}
