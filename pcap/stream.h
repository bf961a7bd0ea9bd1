/*
 * The bytes of a capture as a stream: read from a file descriptor or taken from memory,
 * decompressed on the way in when the content says so; and, when fixing, written back out
 * compressed the same way. Internal to csum_pcap.
 */
#ifndef CSUM_PCAP_STREAM_H
#define CSUM_PCAP_STREAM_H

#include "codec.h"
#include "csum_pcap.h"

#include <stddef.h>
#include <stdint.h>

struct input {
    int fd;                          /* the source, or -1 for memory */
    const unsigned char *mem;        /* memory source */
    size_t mem_len, mem_pos;
    enum csum_pcap_compression compression;
    const struct codec *codec;
    void *decoder;
    unsigned char *raw;              /* compressed bytes read from fd, not yet decoded */
    size_t raw_cap, raw_pos, raw_len;
    int raw_eof;                     /* the source has no more bytes */
    int read_errno;                  /* a read failed after others gave bytes: its errno, for
                                        the next read to report */
    int at_boundary;                 /* the decoder ended a member/frame at the last byte */
    uint64_t bytes_in;               /* bytes taken from the source */
    uint64_t bytes_out;              /* capture bytes handed out */
    int failed;                      /* an error is waiting to be returned (*err holds it) */
    int fixing;                      /* read to be fixed (what input_not_read() suggests) */
    int (*should_stop)(void *ctx);   /* csum_pcap_options' (NULL: never), asked before each
                                        read(2) */
    void *stop_ctx;
    int stopped;                     /* it said stop: the next read is the error */
    struct csum_pcap_error *err;
};

/* Start reading from fd (mem == NULL) or from mem[0..len), `fixing` it or not, asking
 * should_stop(stop_ctx) (may be NULL) first and before each read(2): look at the first bytes
 * to find the compression. 0, or -1 with *err filled (unreadable, or compressed with
 * something this build does not read, or stopped). */
int input_open(struct input *in, int fd, const void *mem, size_t len, int fixing,
               int (*should_stop)(void *ctx), void *stop_ctx, struct csum_pcap_error *err);

/* Whether should_stop says stop now: then in->stopped is set and *err says so, at `offset`
 * (the walk returns -1). */
int input_stop_asked(struct input *in, uint64_t offset);

/* Read up to n bytes of the (decompressed) capture into dst: the count, 0 at its end, -1 on
 * error (*err filled; a compressed stream that stops mid-frame is an error). Bytes read
 * before an error are returned first; the error comes with the next call. */
long input_read(struct input *in, unsigned char *dst, size_t n);

void input_close(struct input *in);

/* The error for a capture compressed by something this library does not read, with what to
 * run instead: the command that verifies, or fixes, the decompressed capture. */
int input_not_read(const struct input *in, const char *compressor);

struct output {
    int fd;
    const struct codec *codec;       /* NULL: written as is */
    void *encoder;
    unsigned char *buf;              /* compressed bytes waiting for write() */
    size_t cap, len;
    struct csum_pcap_error *err;
};

int output_open(struct output *o, int fd, enum csum_pcap_compression c, struct csum_pcap_error *err);
/* Write n bytes of capture (compressing them); -1 with *err filled on failure. */
int output_write(struct output *o, const void *p, size_t n, uint64_t offset);
/* End the compressed stream and write everything out. */
int output_finish(struct output *o, uint64_t offset);
void output_close(struct output *o);

/* Fill *err (if not NULL) and return -1: a malformed capture (err->kind), unless one of the
 * two below says otherwise. */
int stream_error(struct csum_pcap_error *err, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for a capture that ends inside a record or block (an interrupted capture): also
 * sets err->cut_short, after which the records before it still count (and are written out
 * when fixing). capture_walk() clears it for a capture cut before its own header. */
int stream_mark_cut_short(struct csum_pcap_error *err);
#define stream_cut_short(err, ...) (stream_error((err), __VA_ARGS__), stream_mark_cut_short(err))

/* The same for what is not the capture's fault: a file this build does not read
 * (stream_unsupported), a failed read, write or allocation (stream_system_error). */
int stream_mark_kind(struct csum_pcap_error *err, enum csum_pcap_error_kind kind);
#define stream_unsupported(err, ...) \
    (stream_error((err), __VA_ARGS__), stream_mark_kind((err), CSUM_PCAP_ERROR_UNSUPPORTED))
#define stream_system_error(err, ...) \
    (stream_error((err), __VA_ARGS__), stream_mark_kind((err), CSUM_PCAP_ERROR_SYSTEM))
#define stream_interrupted(err, ...) \
    (stream_error((err), __VA_ARGS__), stream_mark_kind((err), CSUM_PCAP_ERROR_INTERRUPTED))

#endif /* CSUM_PCAP_STREAM_H */
