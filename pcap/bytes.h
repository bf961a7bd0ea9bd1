/*
 * Reading fixed-width integers from untrusted capture bytes, in an explicit byte order.
 * Callers check the bounds first; these only assemble bytes, so they are correct on any
 * host endianness and alignment.
 */
#ifndef CSUM_PCAP_BYTES_H
#define CSUM_PCAP_BYTES_H

#include <stdint.h>

static inline uint16_t be16(const unsigned char *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint16_t le16(const unsigned char *p)
{
    return (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* A field of a capture file whose byte order is decided by the file (big != 0: big-endian). */
static inline uint16_t file16(const unsigned char *p, int big)
{
    return big ? be16(p) : le16(p);
}

static inline uint32_t file32(const unsigned char *p, int big)
{
    return big ? be32(p) : le32(p);
}

#endif /* CSUM_PCAP_BYTES_H */
