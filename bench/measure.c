/*
 * The measuring method shared by every table: warm up, size a batch so it lasts at least
 * batch_ms, time several batches, and report the minimum and the median per operation.
 * A batch's time divided by its operation count includes the loop and the call itself: that
 * is what a caller pays.
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "csum_oracle.h"

static volatile uint64_t lab_sink;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t time_body(lab_body_fn body, const void *ctx, uint64_t iters)
{
    uint64_t t0 = lab_ticks();
    lab_sink = body(ctx, iters);
    return lab_ticks() - t0;
}

/* Interpolated quantile q of sorted v[0..n-1]. */
static double quantile(const double *v, int n, double q)
{
    double pos = q * (double)(n - 1);
    int lo = (int)pos;
    if (lo >= n - 1)
        return v[n - 1];
    return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

void lab_stats_from_batches(double *v, int n, struct lab_stats *st)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    st->batches = n;
    st->ticks_min = v[0];
    st->ticks_median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    st->ticks_p10 = quantile(v, n, 0.10);
    st->ticks_p90 = quantile(v, n, 0.90);
    st->spread = st->ticks_median > 0 ? (st->ticks_p90 - st->ticks_p10) / st->ticks_median : 0;
}

/* One attempt: n timed batches of `iters` operations. */
static void time_batches(const struct lab_clock *clk, lab_body_fn body, const void *ctx,
                         uint64_t iters, int n, struct lab_counters *ctr, struct lab_stats *st)
{
    double per_op[64];
    int preempted = 0;
    for (int b = 0; b < n; b++) {
        long switches = lab_involuntary_switches();
        if (clk->counters)
            lab_counters_start(ctr);
        uint64_t t = time_body(body, ctx, iters);
        if (clk->counters)
            lab_counters_stop(ctr);
        int out = lab_involuntary_switches() != switches;
        preempted += out;
        lab_load_count_batch(out);
        per_op[b] = (double)t / (double)iters;
    }
    memset(st, 0, sizeof *st);
    lab_stats_from_batches(per_op, n, st);
    st->preempted = preempted;
}

void lab_measure(const struct lab_options *o, const struct lab_clock *clk, lab_body_fn body,
                 const void *ctx, struct lab_stats *st)
{
    const double batch_ticks = o->batch_ms * 1e6 * clk->ticks_per_ns;
    const double warm_ticks = (o->quick ? 2e6 : 10e6) * clk->ticks_per_ns;

    /* Warm up (caches, branch predictors, clock frequency) while finding the batch size. */
    uint64_t iters = 1, spent = 0, last = 0;
    for (;;) {
        uint64_t t = time_body(body, ctx, iters);
        spent += t;
        last = t;
        if ((double)t >= batch_ticks && (double)spent >= warm_ticks)
            break;
        if ((double)t < batch_ticks)
            iters = t ? (uint64_t)((double)iters * 1.25 * batch_ticks / (double)t) + 1 : iters * 16;
        if (iters > ((uint64_t)1 << 40))
            break;
    }
    int n = o->batches < 64 ? o->batches : 64;
    if (n < 1)
        n = 1;
    if (o->quick && iters == 1 && n > 5)
        n = 5; /* --quick: a call that outlasts a batch (400 MB, DRAM) needs fewer of them */
    if (o->count > 0) {
        /* -c: a fixed count. Refuse (before any timed batch) one that would take longer than
         * LAB_MAX_MEASURE_SECONDS here: the warm-up just measured what one operation costs. */
        double per_op_ns = (double)last / (double)iters / clk->ticks_per_ns;
        double planned_s = per_op_ns * (double)o->count * n * 1e-9;
        if (planned_s > LAB_MAX_MEASURE_SECONDS)
            lab_refuse_option("-c %ld: one measurement would take about %.0f s here (%d batches "
                              "of %ld calls at %.3g ns each; the limit is %.0f s): use a smaller "
                              "count",
                              o->count, planned_s, n, o->count, per_op_ns, LAB_MAX_MEASURE_SECONDS);
        iters = (uint64_t)o->count;
    }

    struct lab_counters ctr;
    if (clk->counters)
        lab_counters_open(&ctr);
    const double limit = o->noise_limit > 0 ? o->noise_limit : LAB_NOISE_LIMIT;
    time_batches(clk, body, ctx, iters, n, &ctr, st);
    st->attempts = 1;
    for (int r = 0; r < o->repeats && st->spread > limit; r++) {
        struct lab_stats again;
        time_batches(clk, body, ctx, iters, n, &ctr, &again);
        again.attempts = st->attempts + 1;
        if (again.spread < st->spread)
            *st = again;
        else
            st->attempts = again.attempts;
    }
    st->noisy = st->spread > limit;
    st->iters = iters;
    st->ns_min = st->ticks_min / clk->ticks_per_ns;
    st->ns_median = st->ticks_median / clk->ticks_per_ns;
    st->cycles_median = st->ticks_median * clk->cycles_per_tick;
    st->instructions = st->branch_misses = -1;
    if (clk->counters) {
        double ops = (double)iters * n * st->attempts;
        if (ctr.fd[0] >= 0)
            st->instructions = (double)ctr.instructions / ops;
        if (ctr.fd[2] >= 0)
            st->branch_misses = (double)ctr.branch_misses / ops;
        lab_counters_close(&ctr);
    }
}

void lab_distribution(const struct lab_clock *clk, lab_single_fn one, const void *ctx, uint64_t n,
                      struct lab_distribution *d)
{
    double *v = malloc(n * sizeof *v);
    if (!v) {
        memset(d, 0, sizeof *d);
        return;
    }
    for (uint64_t i = 0; i < n / 10 + 1; i++) /* warm up */
        one(ctx, i);
    double sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t t0 = lab_ticks();
        one(ctx, i);
        v[i] = (double)(lab_ticks() - t0) / clk->ticks_per_ns;
        sum += v[i];
    }
    qsort(v, n, sizeof *v, cmp_double);
    d->min = v[0];
    d->max = v[n - 1];
    d->avg = sum / (double)n;
    d->p50 = v[(size_t)((double)(n - 1) * 0.5)];
    d->p99 = v[(size_t)((double)(n - 1) * 0.99)];
    d->p999 = v[(size_t)((double)(n - 1) * 0.999)];
    free(v);
}

/* ---- the csum_partial bodies -------------------------------------------------------------- */

static inline void sink32(csum_wsum r)
{
    __asm__ volatile("" ::"r"(r)); /* the result is "used": the call cannot be dropped */
}

static uint64_t body_latency(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    const csum_partial_fn fn = c->fn; /* locals: the callee could change *c, so the compiler */
    const unsigned char *const p = c->p; /* would reload fields from memory on every call */
    const size_t len = c->len;
    csum_wsum s = c->sum;
    for (uint64_t i = 0; i < iters; i++)
        s = fn(p, len, s); /* the next call cannot start its sum before this one ends */
    return s;
}

static uint64_t body_throughput(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    const csum_partial_fn fn = c->fn;
    const unsigned char *const p = c->p;
    const size_t len = c->len;
    const csum_wsum sum = c->sum;
    for (uint64_t i = 0; i < iters; i++)
        sink32(fn(p, len, sum));
    return 0;
}

static uint64_t body_fenced(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    const csum_partial_fn fn = c->fn;
    const unsigned char *const p = c->p;
    const size_t len = c->len;
    const csum_wsum sum = c->sum;
    for (uint64_t i = 0; i < iters; i++) {
        lab_fence();
        csum_wsum r = fn(p, len, sum);
        lab_fence();
        sink32(r);
    }
    return 0;
}

lab_body_fn lab_csum_body(enum lab_mode mode)
{
    switch (mode) {
    case MODE_LATENCY: return body_latency;
    case MODE_THROUGHPUT: return body_throughput;
    case MODE_FENCED: return body_fenced;
    }
    return body_latency;
}

/* ---- buffers -------------------------------------------------------------------------------- */

enum { BIG_BUFFER = 1 << 20 };

unsigned char *lab_buffer(size_t len)
{
    unsigned char *p;
    size_t rounded = (len + 4096 + 4095) & ~(size_t)4095; /* room for any alignment */
    if (rounded >= BIG_BUFFER) {
        p = mmap(NULL, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
    } else {
        p = aligned_alloc(4096, rounded);
        if (!p)
            return NULL;
    }
    testdata_fill(p, rounded, 0x1ab0000u + len);
    return p;
}

void lab_buffer_free(unsigned char *p, size_t len)
{
    size_t rounded = (len + 4096 + 4095) & ~(size_t)4095;
    if (!p)
        return;
    if (rounded >= BIG_BUFFER)
        munmap(p, rounded);
    else
        free(p);
}

/* ---- one csum_partial measurement, checked first -------------------------------------------- */

unsigned lab_modes(const struct lab_env *env, unsigned table_default)
{
    unsigned m = env->o->modes & table_default;
    return m ? m : table_default;
}

struct lab_result *lab_time_csum(const struct lab_env *env, const struct lab_subject *s,
                                 const char *table, const char *variant, enum lab_mode mode,
                                 const unsigned char *p, size_t len, csum_wsum sum,
                                 const struct lab_expect *e)
{
    if (s->refused)
        return NULL;
    if (lab_check_case(s->fn, p, len, e) != 0) {
        lab_refusal_add(table, s->name, mode, len);
        lab_note(table, "%s refused at len %zu align %zu: disagrees with the oracle on this buffer",
                 s->name, len, (size_t)((uintptr_t)p & 63));
        return NULL;
    }
    struct lab_csum_case c = { s->fn, p, len, sum };
    struct lab_stats st;
    lab_measure(env->o, env->clk, lab_csum_body(mode), &c, &st);
    return lab_result_add(table, s->name, variant, mode, len, (uintptr_t)p & 63, &st);
}
