/*
 * Peers: checksum code from other projects, built into the lab when found at configure time
 * (compiled with the same flags as ours) so a reader sees the ratio in one run.
 */
#include "lab.h"

#ifdef CSUM_BENCH_HAVE_DPDK
extern const struct lab_subject lab_peer_dpdk;
#endif

const struct lab_subject *const lab_peers[] = {
#ifdef CSUM_BENCH_HAVE_DPDK
    &lab_peer_dpdk,
#endif
    NULL,
};
