/*
 * generic: portable C, what every CPU without a special path runs, and the fallback of every
 * plan. The loop (four 64-bit accumulators with carry counters, RFC 1071's deferred carries)
 * is in sum_generic.h, shared by the sum and the copy; the IPv4 header batch is the
 * header-by-header loop of src/proto/ipv4_header.c.
 */
#define CSUM_KERNEL_ISA baseline
#include "kernel.h"
#include "proto/proto_internal.h"
#include "sum_generic.h"

static csum_wsum csum_partial_generic(const void *buf, size_t len, csum_wsum sum)
{
    return csum_generic_sum(NULL, buf, len, sum);
}

static csum_wsum csum_partial_copy_generic(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return csum_generic_sum(dst, src, len, sum);
}

const struct csum_kernel csum_kernel_generic = {
    CSUM_KERNEL_NAME("generic"),
    .sum.partial = csum_partial_generic,
    .sum.description = "portable C: four 64-bit accumulators with carry counters, safe "
                       "4/2/1-byte tail (RFC 1071 deferred carries)",
    .copy.copy = csum_partial_copy_generic,
    .copy.description = "portable C: the generic sum storing each 64-bit word it loads; "
                        "4/2/1-byte tail copied exactly",
    .ipv4_batch = csum_ipv4_header_batch_generic,
};
