/*
 * Capture containers: walk a pcap or pcapng stream and hand out its packets, through a
 * window of bounded size over the (decompressed) input. Internal to csum_pcap.
 */
#ifndef CSUM_PCAP_CAPTURE_H
#define CSUM_PCAP_CAPTURE_H

#include "csum_pcap.h"
#include "stream.h"

#include <stddef.h>
#include <stdint.h>

/* Not a link type: a pcapng record that Wireshark numbers as a frame although it holds no
 * packet (custom blocks, systemd journal entries). Keeps frame numbers identical to
 * Wireshark's. */
#define CAPTURE_NOT_A_PACKET 0xffffffffu

/* The largest record (pcap record, pcapng block) accepted: memory stays bounded whatever a
 * length field claims. Far above any link's frames (jumbograms included, 64 KiB + headers
 * for the usual 262144-byte snapshot length). */
#define CAPTURE_MAX_RECORD (64u << 20)

/* Bytes read ahead at a time (1 MiB): large reads, and the data still in cache when walked.
 * A variable so that the stream fuzz target can make it tiny and move the window a lot. */
extern size_t capture_read_ahead;

/* One packet record. `data` points into the reader's window and may be written (fixes). */
struct capture_packet {
    uint64_t frame;             /* from 1 */
    uint32_t linktype;
    unsigned char *data;
    size_t caplen;              /* bytes present in the file */
    uint64_t wirelen;           /* bytes the packet had on the wire */
    size_t fcs_len;             /* bytes of frame check sequence at the end of the frame */
    uint64_t offset;            /* capture offset of data[0] */
};

typedef void (*capture_packet_fn)(void *ctx, const struct capture_packet *pkt);

/* A window over the capture: bytes [start, end) of buf are read and not yet consumed. */
struct reader {
    struct input in;
    unsigned char *buf;
    size_t cap, start, end;
    uint64_t base;              /* capture offset of buf[0] */
    int eof;                    /* the input has nothing more */
    int borrowed;               /* buf is the caller's memory, holding the whole capture */
    struct output *out;         /* fixing a stream: bytes leave through here once consumed */
    struct csum_pcap_error *err;
    void (*on_progress)(void *ctx, uint64_t bytes_in, uint64_t packets);
    void *progress_ctx;
    uint64_t packets;           /* frames handed out */
};

/* Over memory (`writable`: the memory may be changed in place, and plain captures are not
 * copied) or a file descriptor (mem == NULL), to be fixed or not (`fixing`: what an error
 * suggests), stopped when should_stop(stop_ctx) says so (see input_open). 0 or -1 with *err
 * filled. */
int reader_open(struct reader *r, int fd, const void *mem, size_t len, int fixing,
                int (*should_stop)(void *ctx), void *stop_ctx, struct csum_pcap_error *err);
void reader_close(struct reader *r);

/* Make n bytes available at reader_at(r): 1; 0 when the capture ends first (reader_avail
 * says how many bytes remain); -1 on a read error (*err filled). */
int reader_fill(struct reader *r, size_t n);
static inline int reader_need(struct reader *r, size_t n)
{
    return r->end - r->start >= n ? 1 : reader_fill(r, n);
}

static inline size_t reader_avail(const struct reader *r) { return r->end - r->start; }
static inline unsigned char *reader_at(const struct reader *r) { return r->buf + r->start; }
static inline uint64_t reader_offset(const struct reader *r) { return r->base + r->start; }
static inline void reader_consume(struct reader *r, size_t n) { r->start += n; }

/* Write everything still held to r->out (fixing a stream, at the end). */
int reader_flush(struct reader *r);

/* Walk every packet: find the format by its magic number. 0, or -1 with *r->err filled. */
int capture_walk(struct reader *r, enum csum_pcap_format *format, capture_packet_fn fn,
                 void *ctx);

/* The two formats, for capture_walk once it has recognized the magic number. */
int capture_walk_pcap(struct reader *r, capture_packet_fn fn, void *ctx);
int capture_walk_pcapng(struct reader *r, capture_packet_fn fn, void *ctx);

/* Packets handed out between two questions to should_stop, besides those before each read:
 * a capture in memory has no reads. A power of 2. */
enum { CAPTURE_STOP_EVERY = 4096 };

/* Hand a packet to fn and count it (progress): 0; or, every CAPTURE_STOP_EVERY packets, -1
 * when should_stop says stop (then it is not handed out, and *r->err says where: at its
 * record, still in the window). */
static inline int capture_emit(struct reader *r, capture_packet_fn fn, void *ctx,
                               struct capture_packet *pkt)
{
    if (r->in.should_stop && r->packets && (r->packets & (CAPTURE_STOP_EVERY - 1)) == 0 &&
        input_stop_asked(&r->in, reader_offset(r)))
        return -1;
    r->packets++;
    fn(ctx, pkt);
    return 0;
}

#endif /* CSUM_PCAP_CAPTURE_H */
