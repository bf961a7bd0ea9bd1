/*
 * The reference Internet checksum, straight from RFC 1071 section 1: form 16-bit words from
 * adjacent byte pairs, the first byte of each pair being the high-order byte (network order),
 * add them, fold the carries back in, complement. A trailing odd byte is padded with a zero.
 *
 * The initial sum is a csum_wsum: like the data, it means "16-bit words in memory order", so
 * its contribution is that of its four bytes as they sit in memory, placed at an even offset.
 * This is what makes the oracle endian-aware: on a little-endian host the library sums
 * byte-swapped words, and its stored result is byte-swapped back, so both sides agree on the
 * bytes.
 */
#include "csum_oracle.h"

#include <string.h>

static uint64_t add_bytes_as_words(uint64_t acc, const unsigned char *b, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (i % 2 == 0)
            acc += (uint64_t)b[i] << 8; /* high-order byte of a word */
        else
            acc += b[i];                /* low-order byte */
    }
    return acc;
}

uint16_t oracle_checksum(const void *buf, size_t len, csum_wsum initial)
{
    unsigned char initial_bytes[sizeof initial];
    memcpy(initial_bytes, &initial, sizeof initial);

    /* Each byte adds at most 0xff00, so 64 bits hold 2^48 bytes without overflow. */
    uint64_t acc = add_bytes_as_words(0, initial_bytes, sizeof initial_bytes);
    acc = add_bytes_as_words(acc, buf, len);
    while (acc >> 16)
        acc = (acc & 0xffff) + (acc >> 16);
    return (uint16_t)~acc;
}

uint16_t csum16_network_value(csum_sum16 stored)
{
    unsigned char b[2];
    memcpy(b, &stored, 2);
    return (uint16_t)(b[0] << 8 | b[1]);
}

uint64_t testdata_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void testdata_fill(void *buf, size_t len, uint64_t seed)
{
    /* Bytes are taken from each 64-bit value least significant first, so the data is the same
     * on little- and big-endian hosts (golden vectors depend on it). */
    unsigned char *p = buf;
    uint64_t state = seed;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t v = testdata_next(&state);
        for (size_t k = 0; k < 8 && i + k < len; k++)
            p[i + k] = (unsigned char)(v >> (8 * k));
    }
}
