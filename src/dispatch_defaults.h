/*
 * The compiled-in dispatch plan: which implementation handles which lengths when nothing else
 * was asked for. This is the one place these thresholds live. `csum tune` measures the host
 * and can store a better plan (see src/dispatch.c for where it is read).
 *
 * Each row: from this length on, the first supported implementation in `choices` takes over
 * (a row whose choices are all unsupported leaves the previous range in force). Choices are
 * table names; names not compiled in for this architecture are simply skipped.
 *
 * Thresholds measured with `csum tune` on the development machine (AMD EPYC family 26 model 2,
 * Zen 5 under KVM, 2026-11-21), latency mode. See README for the measured tables.
 */
#ifndef CSUM_DISPATCH_DEFAULTS_H
#define CSUM_DISPATCH_DEFAULTS_H

#include <stddef.h>

struct csum_dispatch_default {
    size_t from;
    const char *choices; /* space-separated table names, preferred first */
};

static const struct csum_dispatch_default csum_dispatch_defaults[] = {
    { 0, "x86-scalar neon generic" },
    { 128, "avx512-vnni avx512 avx2" },
};

#endif /* CSUM_DISPATCH_DEFAULTS_H */
