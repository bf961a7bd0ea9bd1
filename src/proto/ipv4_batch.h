/*
 * The variants of csum_ipv4_header_batch, in priority order: the dispatcher (ipv4_header.c)
 * runs the first one the CPU supports, and the tests run every supported one.
 */
#ifndef CSUM_IPV4_BATCH_H
#define CSUM_IPV4_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "csum.h"

typedef void (*csum_ipv4_batch_fn)(const void *const *hdrs, size_t n, csum_sum16 *out);

struct csum_ipv4_batch_variant {
    const char *name;
    csum_ipv4_batch_fn fn;
    uint32_t cpu_features; /* CSUM_CPU_* bits that must all be present */
};

extern const struct csum_ipv4_batch_variant csum_ipv4_batch_variants[];
extern const size_t csum_ipv4_batch_variant_count;

#endif /* CSUM_IPV4_BATCH_H */
