/*
 * DPDK's rte_raw_cksum (from the installed DPDK headers, where it is a static inline function),
 * wrapped in the csum_partial signature: its 16-bit unfolded result is added to `sum`.
 * Built only when pkg-config finds libdpdk.
 */
#include "lab.h"

#include <rte_ip.h>
#include <rte_version.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static csum_wsum dpdk_raw_cksum(const void *buf, size_t len, csum_wsum sum)
{
    return csum_add(sum, rte_raw_cksum(buf, len));
}

const struct lab_subject lab_peer_dpdk = {
    .name = "dpdk",
    .origin = "DPDK " STR(RTE_VER_YEAR) "." STR(RTE_VER_MONTH) "." STR(RTE_VER_MINOR) " rte_raw_cksum (rte_ip.h), same compiler flags",
    .fn = dpdk_raw_cksum,
};
