/*
 * zstd (RFC 8878) through libzstd's streaming API. Frames may follow one another (and
 * skippable frames are skipped by libzstd). The decoder's window is bounded at 2^27 bytes,
 * libzstd's own default limit, so a hostile frame header cannot make it allocate more.
 */
#ifdef CSUM_PCAP_HAVE_ZSTD
#include "codec.h"

#include <stdio.h>
#include <zstd.h>
#include <zstd_errors.h> /* ZSTD_getErrorCode */

#define STR2(x) #x
#define STR(x) STR2(x)

static void *zstd_decoder_new(void)
{
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (d && ZSTD_isError(ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 27))) {
        ZSTD_freeDCtx(d);
        d = NULL;
    }
    return d;
}

static enum codec_status zstd_decode(void *state, const unsigned char **in, size_t *in_len,
                                     unsigned char **out, size_t *out_len, char *msg,
                                     size_t msg_size)
{
    ZSTD_inBuffer ib = { *in, *in_len, 0 };
    ZSTD_outBuffer ob = { *out, *out_len, 0 };
    size_t rc = ZSTD_decompressStream(state, &ob, &ib);
    *in += ib.pos;
    *in_len -= ib.pos;
    *out += ob.pos;
    *out_len -= ob.pos;
    if (ZSTD_isError(rc) && ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge) {
        /* A frame written with a larger window (zstd --long=28 and more, --ultra): well
         * formed, but past the limit set above. */
        snprintf(msg, msg_size, "zstd frame whose window is larger than the 128 MiB csum "
                 "decodes (as zstd --long=28 and more write): decompress it first, with zstd -d "
                 "--long=31");
        return CODEC_UNSUPPORTED;
    }
    if (ZSTD_isError(rc) && ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation) {
        /* The window and buffers are allocated as the first frame's header asks. */
        snprintf(msg, msg_size, "out of memory in the zstd decoder (libzstd)");
        return CODEC_NO_MEMORY;
    }
    if (ZSTD_isError(rc)) {
        snprintf(msg, msg_size, "corrupt zstd data (libzstd: %s)", ZSTD_getErrorName(rc));
        return CODEC_ERROR;
    }
    /* 0: a frame is complete and everything it holds has been written out. */
    return rc == 0 ? CODEC_BOUNDARY : CODEC_OK;
}

static void zstd_decoder_free(void *state)
{
    ZSTD_freeDCtx(state);
}

static void *zstd_encoder_new(void)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    if (c && (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3)) ||
              ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)))) {
        ZSTD_freeCCtx(c);
        c = NULL;
    }
    return c;
}

static enum codec_status zstd_encode(void *state, const unsigned char **in, size_t *in_len,
                                     unsigned char **out, size_t *out_len, int finish,
                                     char *msg, size_t msg_size)
{
    ZSTD_inBuffer ib = { *in, *in_len, 0 };
    ZSTD_outBuffer ob = { *out, *out_len, 0 };
    size_t rc = ZSTD_compressStream2(state, &ob, &ib, finish ? ZSTD_e_end : ZSTD_e_continue);
    *in += ib.pos;
    *in_len -= ib.pos;
    *out += ob.pos;
    *out_len -= ob.pos;
    if (ZSTD_isError(rc)) {
        snprintf(msg, msg_size, "zstd compression failed (libzstd: %s)", ZSTD_getErrorName(rc));
        return CODEC_ERROR;
    }
    return finish && rc == 0 ? CODEC_BOUNDARY : CODEC_OK;
}

static void zstd_encoder_free(void *state)
{
    ZSTD_freeCCtx(state);
}

const struct codec codec_zstd = {
    "zstd",
    "libzstd " STR(ZSTD_VERSION_MAJOR) "." STR(ZSTD_VERSION_MINOR) "." STR(ZSTD_VERSION_RELEASE),
    zstd_decoder_new, zstd_decode, zstd_decoder_free,
    zstd_encoder_new, zstd_encode, zstd_encoder_free,
};
#else
typedef int csum_pcap_no_zstd; /* ISO C wants something in every file */
#endif /* CSUM_PCAP_HAVE_ZSTD */
