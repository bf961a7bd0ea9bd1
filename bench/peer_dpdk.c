/*
 * DPDK's rte_raw_cksum (from the installed DPDK headers, where it is a static inline function),
 * wrapped in the csum_partial signature: its 16-bit unfolded result is added to `sum`.
 * Built only when pkg-config finds libdpdk, in its own object with DPDK's flags (see
 * CMakeLists.txt): once as DPDK builds it for users, once more with -march=native
 * (LAB_PEER_NATIVE). The wrapper is an external function with a name of its own per variant,
 * so tests/lab_peer_test.sh can find and disassemble it. Both may use more than the x86-64
 * baseline (SSE4.2 for DPDK's -march=corei7): the lab checks `needs` before calling them.
 */
#include "lab.h"
#include "lab_build.h"
#include "peer_needs.h"

#include <rte_ip.h>
#include <rte_version.h>

#define STR_(x) #x
#define STR(x) STR_(x)
#define DPDK_VERSION STR(RTE_VER_YEAR) "." STR(RTE_VER_MONTH) "." STR(RTE_VER_MINOR)

#ifdef LAB_PEER_NATIVE
#  define PEER_FN lab_dpdk_raw_cksum_native
#  define PEER_SUBJECT lab_peer_dpdk_native
#  define PEER_NAME "dpdk-native"
#  define PEER_HOW "DPDK's flags, -O3 and -march=native"
#  define PEER_FLAGS CSUM_LAB_DPDK_NATIVE_FLAGS
#else
#  define PEER_FN lab_dpdk_raw_cksum
#  define PEER_SUBJECT lab_peer_dpdk
#  define PEER_NAME "dpdk"
#  define PEER_HOW "as DPDK builds it for users: pkg-config --cflags libdpdk, -O3"
#  define PEER_FLAGS CSUM_LAB_DPDK_FLAGS
#endif

csum_wsum PEER_FN(const void *buf, size_t len, csum_wsum sum);

__attribute__((noinline)) csum_wsum PEER_FN(const void *buf, size_t len, csum_wsum sum)
{
    return csum_add(sum, rte_raw_cksum(buf, len));
}

const struct lab_subject PEER_SUBJECT = {
    .name = PEER_NAME,
    .origin = "DPDK " DPDK_VERSION " rte_raw_cksum (rte_ip.h), " PEER_HOW,
    .fn = PEER_FN,
    .flags = PEER_FLAGS,
    .needs = lab_peer_needs,
    /* DPDK 22.11's __rte_raw_cksum adds each 16-bit word to a uint32_t and never adds a carry
     * back: 65537 words of 0xffff fit, the next one wraps. */
    .limit = "rte_raw_cksum adds 16-bit words into a 32-bit sum and drops its carries, so from "
             "128 KiB of 0xff bytes (about 256 KiB of random data) its sum is wrong: DPDK's "
             "limit, not a csum bug",
};
