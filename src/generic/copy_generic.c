/*
 * generic copy: portable C copy+checksum. The generic summing loop (sum_generic.h) with every
 * 64-bit word stored right after it is loaded, so the data is read once.
 */
#include "sum_generic.h"

static csum_wsum csum_partial_copy_generic(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return csum_generic_sum(dst, src, len, sum);
}

const struct csum_copy_impl_entry csum_copy_impl_generic = {
    .pub = {
        .name = "generic",
        .description = "portable C: the generic sum (64-bit words, carry counters) storing each "
                       "word it loads; 4/2/1-byte tail copied exactly",
        .copy = csum_partial_copy_generic,
        .requires = "",
        .nontemporal = 0,
    },
    .cpu_features = 0,
};
