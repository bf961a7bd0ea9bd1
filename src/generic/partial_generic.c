/*
 * generic: portable C, what every CPU without a special path runs. The loop (four 64-bit
 * accumulators with carry counters, RFC 1071's deferred carries) is in sum_generic.h, shared
 * with the generic copy+checksum.
 */
#include "sum_generic.h"

static csum_wsum csum_partial_generic(const void *buf, size_t len, csum_wsum sum)
{
    return csum_generic_sum(NULL, buf, len, sum);
}

const struct csum_impl_entry csum_impl_generic = {
    .pub = {
        .name = "generic",
        .description = "portable C: four 64-bit accumulators with carry counters, "
                       "safe 4/2/1-byte tail (RFC 1071 deferred carries)",
        .partial = csum_partial_generic,
        .requires = "",
    },
    .cpu_features = 0,
};
