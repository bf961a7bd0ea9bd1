/*
 * Which compression a capture uses, by its first bytes, and the codec that reads it.
 */
#include "codec.h"

#include <string.h>

enum csum_pcap_compression codec_detect(const unsigned char *p, size_t n, const char **other)
{
    *other = NULL;
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return CSUM_PCAP_GZIP;                       /* RFC 1952 */
    if (n >= 4 && !memcmp(p, "\x28\xb5\x2f\xfd", 4))
        return CSUM_PCAP_ZSTD;                       /* RFC 8878 frame magic */
    if (n >= 4 && (p[0] & 0xf0) == 0x50 && !memcmp(p + 1, "\x2a\x4d\x18", 3))
        return CSUM_PCAP_ZSTD;                       /* a skippable frame first (pzstd's) */
    if (n >= 4 && !memcmp(p, "\xfd" "7zX", 4))
        *other = "xz";
    else if (n >= 3 && !memcmp(p, "BZh", 3))
        *other = "bzip2";
    else if (n >= 4 && !memcmp(p, "\x04\x22\x4d\x18", 4))
        *other = "lz4";
    return CSUM_PCAP_PLAIN;
}

const struct codec *codec_find(enum csum_pcap_compression c)
{
    switch (c) {
#ifdef CSUM_PCAP_HAVE_ZLIB
    case CSUM_PCAP_GZIP:
        return &codec_gzip;
#endif
#ifdef CSUM_PCAP_HAVE_ZSTD
    case CSUM_PCAP_ZSTD:
        return &codec_zstd;
#endif
    default:
        return NULL;
    }
}

int csum_pcap_compression_supported(enum csum_pcap_compression c)
{
    return c == CSUM_PCAP_PLAIN || codec_find(c) != NULL;
}

const char *csum_pcap_compression_library(enum csum_pcap_compression c)
{
    const struct codec *k = codec_find(c);
    return k ? k->library : NULL;
}
