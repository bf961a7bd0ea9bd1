/*
 * Peers: checksum code from other projects, built into the lab when found at configure time,
 * each compiled the way its own project builds it (and once more with -march=native), so a
 * reader sees the ratio in one run. Their compiler flags are in every report.
 */
#include "lab.h"

#ifdef CSUM_BENCH_HAVE_DPDK
extern const struct lab_subject lab_peer_dpdk;
#endif
#ifdef CSUM_BENCH_HAVE_DPDK_NATIVE
extern const struct lab_subject lab_peer_dpdk_native;
#endif

const struct lab_subject *const lab_peers[] = {
#ifdef CSUM_BENCH_HAVE_DPDK
    &lab_peer_dpdk,
#endif
#ifdef CSUM_BENCH_HAVE_DPDK_NATIVE
    &lab_peer_dpdk_native,
#endif
    NULL,
};
