/*
 * Compression codecs for captures: gzip through zlib and zstd through libzstd, each behind
 * the same small interface so that the input and output streams need not know which one it
 * is. A codec the build lacks has no table (codec_find returns NULL). Internal to csum_pcap.
 */
#ifndef CSUM_PCAP_CODEC_H
#define CSUM_PCAP_CODEC_H

#include "csum_pcap.h"

#include <stddef.h>

enum codec_status {
    CODEC_OK,        /* progress made (or nothing to do yet) */
    CODEC_BOUNDARY,  /* a whole member/frame ended exactly here: the stream may end */
    CODEC_ERROR,     /* decoding: corrupt data; encoding: any failure; the message says what */
    CODEC_NO_MEMORY, /* decoding: the library ran out of memory (not the data's fault) */
    CODEC_UNSUPPORTED, /* decoding: well-formed data beyond what this build decodes (a zstd
                          window above its limit); the message says what */
};

struct codec {
    const char *name;     /* "gzip", "zstd" */
    const char *library;  /* "zlib 1.2.13", "libzstd 1.5.4" */
    void *(*decoder_new)(void);
    /* Decompress from [*in, *in + *in_len) into [*out, *out + *out_len), advancing all four. */
    enum codec_status (*decode)(void *state, const unsigned char **in, size_t *in_len,
                                unsigned char **out, size_t *out_len, char *msg, size_t msg_size);
    void (*decoder_free)(void *state);
    void *(*encoder_new)(void);
    /* Compress like decode; with `finish`, flush everything and end the stream (call until it
     * returns CODEC_BOUNDARY). */
    enum codec_status (*encode)(void *state, const unsigned char **in, size_t *in_len,
                                unsigned char **out, size_t *out_len, int finish,
                                char *msg, size_t msg_size);
    void (*encoder_free)(void *state);
};

/* The codec for `c`, or NULL (CSUM_PCAP_PLAIN, or not built in). */
const struct codec *codec_find(enum csum_pcap_compression c);

/* The compression a capture starting with `p` (n bytes, n may be < 4) uses: by magic number
 * (gzip 1f 8b, zstd 28 b5 2f fd). Other compressors are named in *other ("xz", "bzip2",
 * "lz4") so the error can say what to run. */
enum csum_pcap_compression codec_detect(const unsigned char *p, size_t n, const char **other);

extern const struct codec codec_gzip, codec_zstd;

#endif /* CSUM_PCAP_CODEC_H */
