/*
 * gzip (RFC 1952) through zlib. Several members one after the other form one stream (what
 * `cat a.gz b.gz` and pigz write); each ends with its own CRC and length, which zlib checks.
 * Zero bytes after the last member are padding (a tape's or a block device's block size), which
 * GNU gzip skips without a word; anything else after them is still corrupt data.
 */
#ifdef CSUM_PCAP_HAVE_ZLIB
#include "codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

struct gzip_state {
    z_stream z;
    int ended;   /* the last member ended: the next byte starts a new member, or padding */
    int padding; /* zero bytes followed the last member: only more of them may follow */
};

/* Hand zlib (which counts in uInt) at most 1 GiB of input and of room at a time. */
static void z_start(z_stream *z, const unsigned char *in, size_t in_len, unsigned char *out,
                    size_t out_len)
{
    z->next_in = (unsigned char *)in;
    z->avail_in = in_len > (1u << 30) ? 1u << 30 : (uInt)in_len;
    z->next_out = out;
    z->avail_out = out_len > (1u << 30) ? 1u << 30 : (uInt)out_len;
}

/* Advance the caller's pointers past what zlib took and gave. */
static void z_finish(const z_stream *z, const unsigned char **in, size_t *in_len,
                     unsigned char **out, size_t *out_len)
{
    *in_len -= (size_t)(z->next_in - *in);
    *in = z->next_in;
    *out_len -= (size_t)(z->next_out - *out);
    *out = z->next_out;
}

/* zlib allocates through these rather than through its own defaults: the same malloc as the
 * rest of csum_pcap, which the tests make fail on demand (tests/test_pcap_memory.c) to check
 * that a decoder out of memory is reported as such, not as corrupt data. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return size && items > (size_t)-1 / size ? Z_NULL : malloc((size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p)
{
    (void)opaque;
    free(p);
}

/* A zeroed state whose stream allocates through z_alloc, or NULL. */
static struct gzip_state *gzip_state_new(void)
{
    struct gzip_state *s = calloc(1, sizeof *s);
    if (s) {
        s->z.zalloc = z_alloc;
        s->z.zfree = z_free;
    }
    return s;
}

static void *gzip_decoder_new(void)
{
    struct gzip_state *s = gzip_state_new();
    /* 16 + MAX_WBITS: a gzip wrapper, not zlib's. */
    if (s && inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
        free(s);
        s = NULL;
    }
    return s;
}

static enum codec_status gzip_decode(void *state, const unsigned char **in, size_t *in_len,
                                     unsigned char **out, size_t *out_len, char *msg,
                                     size_t msg_size)
{
    struct gzip_state *s = state;
    if (s->ended && *in_len && (s->padding || **in == 0)) {
        /* A member starts with 0x1f, never 0: this is padding, or data after it. */
        s->padding = 1;
        while (*in_len && **in == 0) {
            ++*in;
            --*in_len;
        }
        if (*in_len == 0)
            return CODEC_BOUNDARY;
        snprintf(msg, msg_size, "corrupt gzip data (data after the zero bytes that pad the "
                 "stream's end)");
        return CODEC_ERROR;
    }
    if (s->ended) {
        if (*in_len == 0)
            return CODEC_BOUNDARY;
        inflateReset(&s->z);
        s->ended = 0;
    }
    z_start(&s->z, *in, *in_len, *out, *out_len);
    int rc = inflate(&s->z, Z_NO_FLUSH);
    z_finish(&s->z, in, in_len, out, out_len);
    if (rc == Z_STREAM_END) {
        s->ended = 1;
        return CODEC_BOUNDARY;
    }
    if (rc == Z_OK || rc == Z_BUF_ERROR) /* Z_BUF_ERROR: no progress possible, not fatal */
        return CODEC_OK;
    if (rc == Z_MEM_ERROR) { /* its window, allocated when a stream outlasts one call's room */
        snprintf(msg, msg_size, "out of memory in the gzip decoder (zlib)");
        return CODEC_NO_MEMORY;
    }
    snprintf(msg, msg_size, "corrupt gzip data (zlib: %s)", s->z.msg ? s->z.msg : zError(rc));
    return CODEC_ERROR;
}

static void gzip_free(void *state, int (*end)(z_streamp))
{
    struct gzip_state *s = state;
    if (s) {
        end(&s->z);
        free(s);
    }
}

static void gzip_decoder_free(void *state)
{
    gzip_free(state, inflateEnd);
}

static void *gzip_encoder_new(void)
{
    struct gzip_state *s = gzip_state_new();
    /* Level 6 (gzip's default), 16 + MAX_WBITS: write a gzip header and trailer. */
    if (s && deflateInit2(&s->z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(s);
        s = NULL;
    }
    return s;
}

static enum codec_status gzip_encode(void *state, const unsigned char **in, size_t *in_len,
                                     unsigned char **out, size_t *out_len, int finish,
                                     char *msg, size_t msg_size)
{
    struct gzip_state *s = state;
    z_start(&s->z, *in, *in_len, *out, *out_len);
    int rc = deflate(&s->z, finish && s->z.avail_in == *in_len ? Z_FINISH : Z_NO_FLUSH);
    z_finish(&s->z, in, in_len, out, out_len);
    if (rc == Z_STREAM_END)
        return CODEC_BOUNDARY;
    if (rc == Z_OK || rc == Z_BUF_ERROR)
        return CODEC_OK;
    snprintf(msg, msg_size, "gzip compression failed (zlib: %s)", zError(rc));
    return CODEC_ERROR;
}

static void gzip_encoder_free(void *state)
{
    gzip_free(state, deflateEnd);
}

const struct codec codec_gzip = {
    "gzip", "zlib " ZLIB_VERSION,
    gzip_decoder_new, gzip_decode, gzip_decoder_free,
    gzip_encoder_new, gzip_encode, gzip_encoder_free,
};
#else
typedef int csum_pcap_no_zlib; /* ISO C wants something in every file */
#endif /* CSUM_PCAP_HAVE_ZLIB */
