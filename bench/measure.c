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

double (*lab_test_batch_ticks)(const void *ctx);

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

double lab_quantile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    if (lo >= n - 1)
        return v[n - 1];
    return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

void lab_stats_from_batches(double *v, int n, struct lab_stats *st)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    st->batches = n;
    st->ticks_min = v[0];
    st->ticks_median = lab_quantile(v, (size_t)n, 0.5);
    st->ticks_p10 = lab_quantile(v, (size_t)n, 0.10);
    st->ticks_p90 = lab_quantile(v, (size_t)n, 0.90);
    st->spread = st->ticks_median > 0 ? (st->ticks_p90 - st->ticks_p10) / st->ticks_median : 0;
}

/* One timed batch: per-operation ticks; *preempted set when the thread was switched out. */
static double time_one_batch(const struct lab_clock *clk, lab_body_fn body, const void *ctx,
                             uint64_t iters, struct lab_counters *ctr, int *preempted)
{
    long switches = lab_involuntary_switches();
    if (clk->counters)
        lab_counters_start(ctr);
    uint64_t t = time_body(body, ctx, iters);
    if (clk->counters)
        lab_counters_stop(ctr);
    int out = lab_involuntary_switches() != switches;
    *preempted += out;
    lab_load_count_batch(out);
    if (lab_test_batch_ticks)
        return lab_test_batch_ticks(ctx);
    return (double)t / (double)iters;
}

/*
 * Warm up (caches, branch predictors, clock frequency) while finding how many operations make
 * a batch last batch_ms; *n is the number of batches to time. The count is kept once two runs
 * of it in a row have lasted a batch: a run that a preemption or a stolen vCPU stretched past
 * batch_ms says nothing about the calls, and until 2026-11-27 it ended the sizing (batches of
 * 0.07 ms instead of 1 were seen on the busy 2-vCPU VM). With -c, refuse (before any timed
 * batch) a count that would take longer than LAB_MAX_MEASURE_SECONDS here.
 */
static uint64_t size_batches(const struct lab_options *o, const struct lab_clock *clk,
                             lab_body_fn body, const void *ctx, int *n)
{
    const double batch_ticks = o->batch_ms * 1e6 * clk->ticks_per_ns;
    const double warm_ticks = (o->quick ? 2e6 : 10e6) * clk->ticks_per_ns;
    uint64_t iters = 1, spent = 0, last = 0;
    int long_runs = 0; /* runs of `iters` operations in a row that lasted a batch */
    for (;;) {
        uint64_t t = time_body(body, ctx, iters);
        spent += t;
        last = t;
        if ((double)t < batch_ticks) {
            long_runs = 0;
            iters = t ? (uint64_t)((double)iters * 1.25 * batch_ticks / (double)t) + 1 : iters * 16;
        } else if (++long_runs >= 2 && (double)spent >= warm_ticks) {
            break;
        }
        if (iters > ((uint64_t)1 << 40))
            break;
    }
    *n = o->batches < 64 ? o->batches : 64;
    if (*n < 1)
        *n = 1;
    if (o->quick && iters == 1 && *n > 5)
        *n = 5; /* --quick: a call that outlasts a batch (400 MiB, DRAM) needs fewer of them */
    if (o->count > 0) {
        double per_op_ns = (double)last / (double)iters / clk->ticks_per_ns;
        double planned_s = per_op_ns * (double)o->count * *n * 1e-9;
        if (planned_s > LAB_MAX_MEASURE_SECONDS)
            lab_refuse_option("-c %ld: one measurement would take about %.0f s here (%d batches "
                              "of %ld calls at %.3g ns each; the limit is %.0f s): use a smaller "
                              "count",
                              o->count, planned_s, *n, o->count, per_op_ns, LAB_MAX_MEASURE_SECONDS);
        iters = (uint64_t)o->count;
    }
    return iters;
}

/* A subject being measured: its body, its batch size and the best attempt so far. */
struct subject_run {
    lab_body_fn body;
    const void *ctx;
    uint64_t iters;
    struct lab_counters ctr;
    double per_op[64]; /* this attempt's batches */
    int preempted;
    struct lab_stats st;
};

/* This attempt's statistics for one subject (sorts its batch times). */
static struct lab_stats attempt_stats(struct subject_run *r, int n, int attempt)
{
    struct lab_stats st;
    memset(&st, 0, sizeof st);
    lab_stats_from_batches(r->per_op, n, &st);
    st.preempted = r->preempted;
    st.attempts = attempt;
    return st;
}

static void finish_stats(const struct lab_clock *clk, int n, struct subject_run *r, double limit)
{
    struct lab_stats *st = &r->st;
    st->noisy = st->spread > limit;
    st->iters = r->iters;
    st->ns_min = st->ticks_min / clk->ticks_per_ns;
    st->ns_median = st->ticks_median / clk->ticks_per_ns;
    st->cycles_est_median = st->ticks_median * clk->cycles_per_tick;
    st->instructions = st->branch_misses = -1;
    if (clk->counters) {
        double ops = (double)r->iters * n * st->attempts;
        if (r->ctr.fd[0] >= 0)
            st->instructions = (double)r->ctr.instructions / ops;
        if (r->ctr.fd[2] >= 0)
            st->branch_misses = (double)r->ctr.branch_misses / ops;
        lab_counters_close(&r->ctr);
    }
}

/*
 * The one method behind lab_measure and lab_measure_group: each subject warmed up and sized
 * alone, then their timed batches interleaved round by round, each round starting one subject
 * later (A B C, B C A, C A B, ...), so that a slow phase of this shared machine (a busy SMT
 * sibling on the host, a frequency step) falls on every subject alike instead of on whichever
 * happened to be timed then. An attempt whose spread exceeds the noise limit for any subject
 * is repeated (o->repeats times at most); the group keeps the attempt whose widest spread
 * is the smallest, every subject's numbers from that same attempt.
 */
static void measure_runs(const struct lab_options *o, const struct lab_clock *clk, int m,
                         struct subject_run *run)
{
    int n = 1;
    for (int j = 0; j < m; j++) {
        run[j].iters = size_batches(o, clk, run[j].body, run[j].ctx, &n);
        if (clk->counters)
            lab_counters_open(&run[j].ctr);
    }
    const double limit = o->noise_limit > 0 ? o->noise_limit : LAB_NOISE_LIMIT;
    double best_widest = 0;
    for (int attempt = 1;; attempt++) {
        for (int j = 0; j < m; j++)
            run[j].preempted = 0;
        for (int b = 0; b < n; b++)
            for (int k = 0; k < m; k++) {
                struct subject_run *r = &run[(b + k) % m];
                r->per_op[b] = time_one_batch(clk, r->body, r->ctx, r->iters, &r->ctr,
                                              &r->preempted);
            }
        /* The group keeps one attempt, the one whose widest spread is the smallest, so
         * that its subjects' numbers still come from the same interleaved rounds. */
        struct lab_stats st[LAB_GROUP_MAX];
        double widest = 0;
        for (int j = 0; j < m; j++) {
            st[j] = attempt_stats(&run[j], n, attempt);
            if (st[j].spread > widest)
                widest = st[j].spread;
        }
        if (attempt == 1 || widest < best_widest) {
            best_widest = widest;
            for (int j = 0; j < m; j++)
                run[j].st = st[j];
        }
        for (int j = 0; j < m; j++)
            run[j].st.attempts = attempt;
        if (best_widest <= limit || attempt > o->repeats)
            break;
    }
    static unsigned measurements; /* the lab is one thread */
    ++measurements;
    for (int j = 0; j < m; j++) {
        finish_stats(clk, n, &run[j], limit);
        run[j].st.group = measurements;
    }
}

void lab_measure(const struct lab_options *o, const struct lab_clock *clk, lab_body_fn body,
                 const void *ctx, struct lab_stats *st)
{
    struct subject_run run = { .body = body, .ctx = ctx };
    measure_runs(o, clk, 1, &run);
    *st = run.st;
}

void lab_measure_group(const struct lab_options *o, const struct lab_clock *clk, int m,
                       const lab_body_fn body[], const void *const ctx[], struct lab_stats st[])
{
    struct subject_run run[LAB_GROUP_MAX];
    if (m > LAB_GROUP_MAX)
        m = LAB_GROUP_MAX;
    for (int j = 0; j < m; j++)
        run[j] = (struct subject_run){ .body = body[j], .ctx = ctx[j] };
    measure_runs(o, clk, m, run);
    for (int j = 0; j < m; j++)
        st[j] = run[j].st;
}

int lab_distribution(const struct lab_clock *clk, lab_single_fn one, const void *ctx, uint64_t n,
                     struct lab_distribution *d)
{
    double *v = n && n <= SIZE_MAX / sizeof *v ? malloc(n * sizeof *v) : NULL;
    if (!v)
        return -1;
    for (uint64_t i = 0; i < n / 10 + 1; i++) /* warm up */
        one(ctx, i);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t t0 = lab_ticks();
        one(ctx, i);
        v[i] = (double)(lab_ticks() - t0) / clk->ticks_per_ns;
    }
    lab_distribution_from(v, n, d);
    free(v);
    return 0;
}

void lab_distribution_from(double *v, size_t n, struct lab_distribution *d)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    qsort(v, n, sizeof *v, cmp_double);
    d->min = v[0];
    d->max = v[n - 1];
    d->avg = sum / (double)n;
    /* The batch statistics' quantiles: with an even count the median is the mean of the two
     * middle times, not the lower one. */
    d->p50 = lab_quantile(v, n, 0.5);
    d->p99 = lab_quantile(v, n, 0.99);
    d->p999 = lab_quantile(v, n, 0.999);
}

/* ---- a loop's stack, off its buffers' page offsets ------------------------------------------ */

/* Do the arcs of the page's offsets [a, a + a_len) and [b, b + b_len), modulo the page, meet? */
static int arcs_meet(size_t a, size_t a_len, size_t b, size_t b_len)
{
    return a_len && b_len && ((b - a) % LAB_PAGE < a_len || (a - b) % LAB_PAGE < b_len);
}

size_t lab_stack_shift(const void *frame, const unsigned char *a, const unsigned char *b,
                       size_t len)
{
    const size_t top = (uintptr_t)frame & (LAB_PAGE - 1);
    const size_t a_off = (uintptr_t)a & (LAB_PAGE - 1), b_off = (uintptr_t)b & (LAB_PAGE - 1);
    if (len > LAB_PAGE)
        len = LAB_PAGE;
    for (size_t shift = 0; shift < LAB_PAGE; shift += 64) {
        const size_t low = (top + 2 * LAB_PAGE - shift - LAB_STACK_HOT) % LAB_PAGE;
        if (!arcs_meet(low, LAB_STACK_HOT + 1, a_off, len) &&
            !arcs_meet(low, LAB_STACK_HOT + 1, b_off, len))
            return shift;
    }
    return 0;
}

uint64_t lab_off_stack(const unsigned char *a, const unsigned char *b, size_t len,
                       lab_body_fn loop, const void *ctx, uint64_t iters)
{
    const size_t shift = lab_stack_shift(__builtin_frame_address(0), a, b, len);
    unsigned char *pad = __builtin_alloca(shift + 1);
    __asm__ volatile("" ::"r"(pad) : "memory"); /* keep the allocation: it moves the stack */
    return loop(ctx, iters);
}

/* ---- the csum_partial bodies -------------------------------------------------------------- */

static inline void sink32(csum_wsum r)
{
    __asm__ volatile("" ::"r"(r)); /* the result is "used": the call cannot be dropped */
}

static uint64_t loop_latency(const void *ctx, uint64_t iters)
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

static uint64_t loop_throughput(const void *ctx, uint64_t iters)
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

static uint64_t loop_fenced(const void *ctx, uint64_t iters)
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

/* Each on a stack off the buffer's page offsets (lab_off_stack): the call's pushes and
 * returns otherwise met the checksum's loads, at some lengths and stack depths. */
static uint64_t body_latency(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    return lab_off_stack(c->p, c->p, c->len, loop_latency, ctx, iters);
}

static uint64_t body_throughput(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    return lab_off_stack(c->p, c->p, c->len, loop_throughput, ctx, iters);
}

static uint64_t body_fenced(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    return lab_off_stack(c->p, c->p, c->len, loop_fenced, ctx, iters);
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

int lab_time_csum_group(const struct lab_env *env, const struct lab_subject *const subj[], int m,
                        const char *table, const char *variant, enum lab_mode mode,
                        const unsigned char *p, size_t len, csum_wsum sum,
                        const struct lab_expect *e, struct lab_result *out[])
{
    struct lab_csum_case cases[LAB_GROUP_MAX];
    lab_body_fn body[LAB_GROUP_MAX];
    const void *ctx[LAB_GROUP_MAX];
    int timed[LAB_GROUP_MAX], k = 0;
    for (int j = 0; j < m; j++)
        out[j] = NULL; /* refused, or beyond LAB_GROUP_MAX: not timed */
    for (int j = 0; j < m && j < LAB_GROUP_MAX; j++) {
        const struct lab_subject *s = subj[j];
        if (s->refused)
            continue;
        if (lab_check_case(s->fn, p, len, e) != 0) {
            lab_refusal_add(table, s->name, mode, len);
            lab_wrong_sum(table, s->peer,
                          "%s refused at len %zu align %zu: disagrees with the oracle on this buffer",
                          s->name, len, (size_t)((uintptr_t)p & 63));
            if (s->peer && s->limit) /* why, once a table (notes are said once) */
                lab_note(table, "why the peer is refused: %s", s->limit);
            continue;
        }
        cases[k] = (struct lab_csum_case){ s->fn, p, len, sum };
        body[k] = lab_csum_body(mode);
        ctx[k] = &cases[k];
        timed[k++] = j;
    }
    if (k == 0)
        return 0;
    struct lab_stats st[LAB_GROUP_MAX];
    lab_measure_group(env->o, env->clk, k, body, ctx, st);
    /* Results live in one growing array: adding one may move the others, so the pointers are
     * taken once all are added (they are its last k entries, in order; none if one add failed
     * for want of memory). */
    struct lab_result *last = NULL;
    int added = 0;
    for (int i = 0; i < k; i++) {
        last = lab_result_add(table, subj[timed[i]]->name, variant, mode, len, (uintptr_t)p & 63,
                              &st[i]);
        added += last != NULL;
    }
    if (added == k)
        for (int i = 0; i < k; i++)
            out[timed[i]] = last - (k - 1 - i);
    return k;
}

struct lab_result *lab_time_csum(const struct lab_env *env, const struct lab_subject *s,
                                 const char *table, const char *variant, enum lab_mode mode,
                                 const unsigned char *p, size_t len, csum_wsum sum,
                                 const struct lab_expect *e)
{
    const struct lab_subject *one[1] = { s };
    struct lab_result *r;
    lab_time_csum_group(env, one, 1, table, variant, mode, p, len, sum, e, &r);
    return r;
}

void lab_pair_time(const struct lab_env *env, struct lab_pair *pair)
{
    pair->timed = pair->ok[0] = pair->ok[1] = 0;
    if (!pair->s[0] || !pair->s[1] || pair->s[0] == pair->s[1] || pair->s[0]->refused ||
        pair->s[1]->refused)
        return;
    struct lab_result *res[2];
    lab_time_csum_group(env, pair->s, 2, pair->table, pair->variant, pair->mode, pair->p,
                        pair->len, pair->sum, pair->e, res);
    /* copied out at once: a later result may move the ones recorded */
    for (int j = 0; j < 2; j++)
        if ((pair->ok[j] = res[j] != NULL))
            pair->st[j] = res[j]->st;
    pair->timed = 1;
}

int lab_pair_stats(const struct lab_env *env, const struct lab_pair *pair,
                   const struct lab_subject *s, struct lab_stats *st)
{
    for (int j = 0; j < 2 && pair->timed; j++)
        if (s == pair->s[j]) {
            if (!pair->ok[j])
                return -1;
            *st = pair->st[j];
            return 0;
        }
    const struct lab_result *r = lab_time_csum(env, s, pair->table, pair->variant, pair->mode,
                                               pair->p, pair->len, pair->sum, pair->e);
    if (!r)
        return -1;
    *st = r->st;
    return 0;
}
