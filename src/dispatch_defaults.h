/*
 * The compiled-in dispatch plans: which implementation handles which lengths when nothing else
 * was asked for. This is the one place these thresholds live.
 *
 * Plans in the CSUM_DISPATCH syntax, in order of preference: the first one whose rows this
 * CPU supports (and whose rows are compiled in for this architecture) is used. `csum tune`
 * measures a host and can store a better plan (see src/dispatch.c for where it is read).
 *
 * Thresholds measured with `csum tune` and the lab on the development machine (AMD EPYC family
 * 26 model 2, Zen 5 under KVM, 2026-11-21), latency mode: x86-scalar is fastest up to ~100
 * bytes; avx512 from 128 (its short tail is the cheapest); avx512-vnni from 256. avx2, for
 * CPUs without AVX-512, only overtakes x86-scalar's four adc chains between 1500 and 2048
 * bytes on this core (the tune table); AVX2-only cores with weaker adc may want it earlier:
 * `csum tune` finds out. The arm64 plan is not measured on hardware (the
 * arm64 suite runs under qemu): NEON handles every length, with scalar loads for short tails.
 */
#ifndef CSUM_DISPATCH_DEFAULTS_H
#define CSUM_DISPATCH_DEFAULTS_H

static const char *const csum_dispatch_defaults[] = {
    "x86-scalar@0,avx512@128,avx512-vnni@256", /* AVX-512 VNNI */
    "x86-scalar@0,avx512@128",                 /* AVX-512BW without VNNI */
    "x86-scalar@0,avx2@1536",                  /* AVX2 */
    "x86-scalar@0",                            /* any x86-64 */
    "neon@0",                                  /* arm64 */
    "generic@0",                               /* everything else */
};

#endif /* CSUM_DISPATCH_DEFAULTS_H */
