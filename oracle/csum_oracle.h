/*
 * The reference oracle and the things every checker needs around it. Linked into the tests,
 * the CLI (`csum verify`) and the lab, never into libcsum: a bug shared with the library could
 * otherwise agree with itself.
 */
#ifndef CSUM_ORACLE_H
#define CSUM_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "csum.h"

/*
 * RFC 1071 byte at a time: the Internet checksum of `initial` followed by `len` bytes, as the
 * number a protocol analyzer prints (the two stored checksum bytes read big-endian, e.g.
 * 0x220d). Deliberately naive; never optimize it.
 */
uint16_t oracle_checksum(const void *buf, size_t len, csum_wsum initial);

/* The same number for a csum_sum16 produced by the library (its two bytes as stored). */
uint16_t csum16_network_value(csum_sum16 stored);

/* Fill `len` bytes with an aperiodic pseudo-random sequence (splitmix64) determined by `seed`;
 * the same bytes on every host, whatever its byte order. */
void testdata_fill(void *buf, size_t len, uint64_t seed);

/* A 64-bit pseudo-random value from `*state` (splitmix64); advances the state. */
uint64_t testdata_next(uint64_t *state);

/* [PROT_NONE page][data_len accessible bytes][PROT_NONE page]: bytes placed flush against
 * either guard crash the process if one byte too many or too few is read. */
struct guarded_buffer {
    void *base;          /* the whole mapping */
    unsigned char *data; /* first accessible byte (page-aligned) */
    size_t data_len;     /* accessible bytes: min_len rounded up to whole pages */
    size_t map_len;
};

/* Map a guarded buffer of at least min_len bytes; 0, or -1 if the system refuses. */
int guarded_buffer_map(struct guarded_buffer *g, size_t min_len);
void guarded_buffer_unmap(struct guarded_buffer *g);

/* What oracle_selfcheck* found: the first mismatch, if any. */
struct selfcheck_result {
    size_t checked;    /* comparisons made */
    size_t mismatches; /* comparisons that disagreed with the oracle */
    size_t len;        /* first mismatch: length (a batch: the number of headers), */
    size_t align;      /* offset from a 64-byte boundary (a copy: the source's), */
    size_t dst_align;  /* a copy: the destination's offset from a 64-byte boundary, */
    size_t index;      /* a batch: the header whose checksum was wrong, */
    csum_wsum initial; /* initial sum, */
    uint16_t got, want; /* the two checksums (network-order values), */
    const char *problem; /* and what else was wrong, NULL if nothing ("wrote outside the
                            destination", ...) */
};

enum selfcheck_level {
    SELFCHECK_QUICK,    /* ~10 ms: what the lab runs before timing an implementation */
    SELFCHECK_THOROUGH, /* ~0.1-1 s: what `csum verify` runs */
};

/* Compare `fn` with the oracle over lengths x alignments x initial sums x data patterns.
 * Returns 0 when everything agreed. */
int oracle_selfcheck(csum_partial_fn fn, enum selfcheck_level level, struct selfcheck_result *out);

/* The same for a csum_partial_copy implementation, over the same cases with the destination at
 * several offsets: its sum, the copy byte for byte, and no byte written outside it. */
int oracle_selfcheck_copy(csum_partial_copy_fn fn, enum selfcheck_level level,
                          struct selfcheck_result *out);

/* csum_ipv4_header_batch's signature. */
typedef void (*oracle_batch_fn)(const void *const *hdrs, size_t n, csum_sum16 *out);

/* The same for an IPv4 header batch: every count up to 40 (thorough: 100) and a few larger,
 * headers at random addresses with ihl 5, any valid ihl, or any first byte; each checksum
 * against the oracle's, and nothing written past out[n - 1]. */
int oracle_selfcheck_batch(oracle_batch_fn fn, enum selfcheck_level level,
                           struct selfcheck_result *out);

#endif /* CSUM_ORACLE_H */
