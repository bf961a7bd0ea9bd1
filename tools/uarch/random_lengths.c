/*
 * csum-random-lengths: csum_partial over buffers whose lengths change from call to call, drawn
 * uniformly from LO..HI, against the same calls at one fixed length (the mean). The lab times
 * one length at a time, where every branch on the length is predicted; real traffic mixes
 * lengths, and a kernel whose tail branches on the length's low bits pays mispredictions the
 * lab never shows (docs/METHOD.md, "Zen 4"). Not part of the lab: a probe, run pinned
 * (taskset -c N) on an idle core; the plan is whatever csum_partial uses (CSUM_DISPATCH picks
 * one, e.g. CSUM_DISPATCH=linux-6.8).
 *
 * Method: 2^20 lengths are drawn once (a fixed seed), far more than a branch predictor can
 * learn as a sequence; one pass calls csum_partial once per length on the same 64-byte aligned
 * buffer, in latency mode (each result is the next call's seed) and in throughput mode
 * (independent calls). Seven passes of each; the minimum and the median of the passes' TSC
 * ticks per call are printed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "csum.h"

enum { N_LENGTHS = 1 << 20, PASSES = 7, MAX_LEN = 1 << 16 };

static size_t lengths[N_LENGTHS];
static unsigned char buf[MAX_LEN] __attribute__((aligned(64)));

static double pass_latency(void)
{
    uint64_t t0 = __rdtsc();
    csum_wsum s = 0;
    for (size_t i = 0; i < N_LENGTHS; i++)
        s = csum_partial(buf, lengths[i], s);
    uint64_t t1 = __rdtsc();
    __asm__ volatile("" ::"r"(s));
    return (double)(t1 - t0) / N_LENGTHS;
}

static double pass_throughput(void)
{
    uint64_t t0 = __rdtsc();
    for (size_t i = 0; i < N_LENGTHS; i++) {
        csum_wsum r = csum_partial(buf, lengths[i], 0);
        __asm__ volatile("" ::"r"(r));
    }
    return (double)(__rdtsc() - t0) / N_LENGTHS;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Min and median of PASSES passes. */
static void measure(double (*pass)(void), double *min, double *median)
{
    double t[PASSES];
    pass(); /* warm up */
    for (int i = 0; i < PASSES; i++)
        t[i] = pass();
    qsort(t, PASSES, sizeof t[0], cmp_double);
    *min = t[0];
    *median = t[PASSES / 2];
}

static void report(const char *what)
{
    double lmin, lmed, tmin, tmed;
    measure(pass_latency, &lmin, &lmed);
    measure(pass_throughput, &tmin, &tmed);
    printf("%-22s latency %6.1f (min %6.1f)   throughput %6.1f (min %6.1f)\n", what, lmed, lmin,
           tmed, tmin);
}

static int parse_length(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v > MAX_LEN)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    size_t lo, hi;
    if (argc != 3 || parse_length(argv[1], &lo) || parse_length(argv[2], &hi) || lo > hi) {
        fprintf(stderr, "usage: csum-random-lengths LO HI   (0 <= LO <= HI <= %d bytes)\n",
                MAX_LEN);
        return 2;
    }
    for (size_t i = 0; i < MAX_LEN; i++) /* aperiodic bytes: a fixed 64-bit LCG's high byte */
        buf[i] = (unsigned char)((i * 6364136223846793005ull + 1442695040888963407ull) >> 56);
    uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64*, fixed seed: the same lengths every run */
    size_t total = 0;
    for (size_t i = 0; i < N_LENGTHS; i++) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        lengths[i] = lo + (size_t)((x * 0x2545f4914f6cdd1dull) >> 32) % (hi - lo + 1);
        total += lengths[i];
    }
    char dispatch[256];
    csum_dispatch_describe(dispatch, sizeof dispatch);
    printf("csum_partial, plan %s; TSC ticks per call, median (min) of %d passes of %d calls\n",
           dispatch, PASSES, N_LENGTHS);
    char what[64];
    snprintf(what, sizeof what, "random %zu..%zu", lo, hi);
    report(what);
    const size_t mean = total / N_LENGTHS;
    for (size_t i = 0; i < N_LENGTHS; i++)
        lengths[i] = mean;
    snprintf(what, sizeof what, "fixed %zu (the mean)", mean);
    report(what);
    return 0;
}
