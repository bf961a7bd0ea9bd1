/*
 * copy: Gerum 2021's question — fused copy+checksum, or memcpy then checksum? For each size, every
 * fused implementation, memcpy followed by csum_partial, and memcpy alone: the batch median per
 * call, and the distribution of single calls (min/avg/max, p50/p99/p99.9 over -c calls,
 * 1,000,000 by default) because worst-case jitter matters as much as the average. --busy adds
 * the same measurements with a cache-thrashing thread on another CPU. Buffers start on a 64-byte
 * boundary unless -a (the source, and the destination too) or --dst-align moves them: a packet's
 * payload is rarely aligned, and a copy's loads and stores straddle cache lines then.
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>

#include "csum_oracle.h"

/* 9000: a jumbo frame, where the copy rows part on Zen 4 (docs/METHOD.md) */
static const size_t sizes[] = { 32, 1024, 1500, 9000, 65536 };

enum copy_kind { COPY_FUSED, COPY_SPLIT, COPY_MEMCPY, COPY_TIMER };

struct copy_ctx {
    enum copy_kind kind;
    csum_wsum (*fused)(void *dst, const void *src, size_t len, csum_wsum sum);
    unsigned char *dst;
    const unsigned char *src;
    size_t len;
};

typedef csum_wsum (*fused_copy_fn)(void *dst, const void *src, size_t len, csum_wsum sum);

static inline csum_wsum copy_once(enum copy_kind kind, fused_copy_fn fused, unsigned char *dst,
                                  const unsigned char *src, size_t len)
{
    switch (kind) {
    case COPY_FUSED:
        return fused(dst, src, len, 0);
    case COPY_SPLIT:
        memcpy(dst, src, len);
        return csum_partial(dst, len, 0);
    case COPY_MEMCPY:
        memcpy(dst, src, len);
        __asm__ volatile("" ::: "memory"); /* the copy must happen */
        return 0;
    case COPY_TIMER:
        break;
    }
    return 0;
}

/*
 * The call's arguments are read from *ctx once, before the loop, and kept in registers: read
 * at every call, they were loads right after the copy's stores, and a load whose address has
 * the low 12 bits of a store still in flight waits for it as if they overlapped (4K aliasing).
 * With the context at a page offset inside the destination's, memcpy took 8.2-8.4 ns at
 * 1500 B against 7.1-7.3 elsewhere (AMD EPYC family 26 model 2, Zen 5 VM, 2026-11-27).
 */
static uint64_t copy_loop(const void *ctx, uint64_t iters)
{
    const struct copy_ctx *c = ctx;
    const enum copy_kind kind = c->kind;
    const fused_copy_fn fused = c->fused;
    unsigned char *const dst = c->dst;
    const unsigned char *const src = c->src;
    const size_t len = c->len;
    uint64_t acc = 0;
    /* A loop per kind, each with few enough values to keep them all in registers (with the
     * kind tested inside one loop GCC spilled the fused row's function to the stack). */
#define COPY_LOOP(k)                                                                        \
    for (uint64_t n = iters; n; n--)                                                        \
        acc += copy_once(k, fused, dst, src, len);                                          \
    break
    switch (kind) {
    case COPY_FUSED: COPY_LOOP(COPY_FUSED);
    case COPY_SPLIT: COPY_LOOP(COPY_SPLIT);
    case COPY_MEMCPY: COPY_LOOP(COPY_MEMCPY);
    case COPY_TIMER: COPY_LOOP(COPY_TIMER);
    }
#undef COPY_LOOP
    return acc;
}

/* On a stack off the buffers' page offsets (lab_off_stack): where the stack lay was chance,
 * moved by the size of the environment, and at 1500 B memcpy measured 6.9-7.1 ns or 8.0-8.3,
 * csum_partial_copy 8.7-8.9 or 9.4, as it grew by 500-byte steps (AMD EPYC family 26 model 2,
 * Zen 5 VM, 2026-11-27); 6.4-6.5 and 8.3-8.4 throughout with the stack moved. */
static uint64_t body_copy(const void *ctx, uint64_t iters)
{
    const struct copy_ctx *c = ctx;
    return lab_off_stack(c->dst, c->src, c->len, copy_loop, ctx, iters);
}

static void single_copy(const void *ctx, uint64_t i)
{
    (void)i;
    const struct copy_ctx *c = ctx;
    csum_wsum r = copy_once(c->kind, c->fused, c->dst, c->src, c->len);
    __asm__ volatile("" ::"r"(r));
}

/* The load column: "idle" or "busy", with the destination's offset when it is not the source's. */
static int variant_width(const char *variant)
{
    return strlen(variant) > 5 ? (int)strlen(variant) : 5;
}

/* One row: its batch median (`timed` when it was timed in the group, else measured here), its
 * single calls' distribution, its result and its line. */
static void measure_row(const struct lab_env *env, const struct copy_ctx *c, const char *name,
                        const char *variant, uint64_t calls, const struct lab_stats *timed,
                        double memcpy_ns)
{
    struct lab_stats st;
    struct lab_distribution d = { 0 };
    if (timed)
        st = *timed;
    else
        lab_measure(env->o, env->clk, body_copy, c, &st);
    const int have_dist = lab_distribution(env->clk, single_copy, c, calls, &d) == 0;
    if (!have_dist)
        lab_fail("copy", "cannot allocate the times of %llu single calls: no distribution for %s",
                 (unsigned long long)calls, name);
    struct lab_result *r = lab_result_add("copy", name, variant, MODE_THROUGHPUT, c->len,
                                          (uintptr_t)c->src & 63, &st);
    if (r && have_dist) {
        r->dist = d;
        r->has_dist = 1;
    }
    char ratio[16] = "", cells[6][16];
    if (memcpy_ns > 0 && c->kind != COPY_TIMER)
        snprintf(ratio, sizeof ratio, "%.2fx", st.ns_median / memcpy_ns);
    const double dist[6] = { d.min, d.avg, d.max, d.p50, d.p99, d.p999 };
    for (int k = 0; k < 6; k++) {
        if (have_dist)
            snprintf(cells[k], sizeof cells[k], "%.1f", dist[k]);
        else
            snprintf(cells[k], sizeof cells[k], "-");
    }
    lab_out("%-7zu %-22s %-*s %9.1f%1s %7s %9s %9s %9s %9s %9s %9s\n", c->len, name,
            variant_width(variant), variant, st.ns_median, st.noisy ? "*" : "", ratio, cells[0],
            cells[1], cells[2], cells[3], cells[4], cells[5]);
}

static int fused_is_correct(const struct lab_copy_subject *s, unsigned char *dst,
                            const unsigned char *src, size_t len, uint16_t want)
{
    const struct lab_memop op = { s->name, s->origin, MEMOP_CSUM_COPY, NULL, s->fn };
    return lab_memop_is_correct(&op, dst, src, len, want);
}

/* memcpy then csum_partial, the row every fused copy is compared with: checked like them. */
static int split_is_correct(unsigned char *dst, const unsigned char *src, size_t len, uint16_t want)
{
    memset(dst, 0, len);
    memcpy(dst, src, len);
    return csum16_network_value(csum_fold(csum_partial(dst, len, 0))) == want;
}

/* -M picks the fused rows by name; csum_partial, the public entry point, picks its copy
 * csum_partial_copy. memcpy and memcpy+csum_partial are always timed: the ratios are to them. */
static int copy_wanted(const struct lab_options *o, const char *name)
{
    return lab_wanted(o, name) ||
           (!strcmp(name, "csum_partial_copy") && lab_wanted(o, "csum_partial"));
}

/* The rows at one length, in the order printed: memcpy, memcpy+csum_partial, the fused rows
 * (those -M wants and that are right), the timer alone. */
struct copy_row {
    const char *name;
    struct copy_ctx c;
    int grouped; /* timed in the group of the ratios */
};

static size_t copy_rows(const struct lab_options *o, unsigned char *dst, const unsigned char *src,
                        size_t len, struct copy_row *rows)
{
    const struct copy_ctx base = { .dst = dst, .src = src, .len = len };
    const uint16_t want = oracle_checksum(src, len, 0);
    const size_t src_off = (uintptr_t)src & 63, dst_off = (uintptr_t)dst & 63;
    size_t n = 0;
    rows[n++] = (struct copy_row){ "memcpy", base, 1 };
    rows[n - 1].c.kind = COPY_MEMCPY;
    if (split_is_correct(dst, src, len, want)) {
        rows[n++] = (struct copy_row){ "memcpy+csum_partial", base, 1 };
        rows[n - 1].c.kind = COPY_SPLIT;
    } else {
        lab_wrong_sum("copy", 0, "memcpy+csum_partial refused at len %zu (src +%zu, dst +%zu): "
                      "wrong sum", len, src_off, dst_off);
    }
    for (size_t i = 0; lab_copy_subjects[i]; i++) {
        const struct lab_copy_subject *s = lab_copy_subjects[i];
        if (!copy_wanted(o, s->name))
            continue;
        if (!fused_is_correct(s, dst, src, len, want)) {
            lab_wrong_sum("copy", 0, "%s refused at len %zu (src +%zu, dst +%zu): wrong sum or "
                          "wrong copy", s->name, len, src_off, dst_off);
            continue;
        }
        rows[n++] = (struct copy_row){ s->name, base, !strcmp(s->name, "csum_partial_copy") };
        rows[n - 1].c.kind = COPY_FUSED;
        rows[n - 1].c.fused = s->fn;
    }
    rows[n++] = (struct copy_row){ "(timer only)", base, 0 };
    rows[n - 1].c.kind = COPY_TIMER;
    return n;
}

static void run_pass(const struct lab_env *env, const char *variant, unsigned char *dst,
                     const unsigned char *src, uint64_t calls)
{
    const struct lab_options *o = env->o;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t len = o->len >= 0 ? (size_t)o->len : sizes[k];
        if (o->len >= 0 && k > 0)
            break;
        struct copy_row rows[LAB_COPY_SUBJECTS_MAX + 3];
        const size_t n = copy_rows(o, dst, src, len, rows);
        /* The rows the ratios are about, memcpy, memcpy+csum_partial and csum_partial_copy
         * (the public function, the summary's copy/memcpy), timed together, their batches
         * interleaved as the short table's subjects are: until 2026-11-27 each was timed
         * alone, one after the other. Every other row alone. */
        lab_body_fn bodies[3];
        const void *ctxs[3];
        struct lab_stats st[3];
        int m = 0;
        for (size_t i = 0; i < n; i++)
            if (rows[i].grouped) {
                bodies[m] = body_copy;
                ctxs[m++] = &rows[i].c;
            }
        lab_measure_group(o, env->clk, m, bodies, ctxs, st);
        const double memcpy_ns = st[0].ns_median;
        for (size_t i = 0, j = 0; i < n; i++)
            measure_row(env, &rows[i].c, rows[i].name, variant, calls,
                        rows[i].grouped ? &st[j++] : NULL, i ? memcpy_ns : 0);
    }
}

void table_copy(const struct lab_env *env)
{
    if (!lab_copy_subjects[0]) {
        lab_table_title(env, "copy (Gerum 2021)", "fused copy+checksum vs memcpy+checksum");
        lab_note("copy", "not available yet: no csum_partial_copy implementations in this build");
        return;
    }
    const struct lab_options *o = env->o;
    const uint64_t calls = o->count > 0 ? (uint64_t)o->count : o->quick ? 100000 : 1000000;
    const size_t max_len = o->len >= 0 ? (size_t)o->len : 65536;
    const size_t src_off = o->align >= 0 ? (size_t)o->align : 0;
    const size_t dst_off = o->dst_align >= 0 ? (size_t)o->dst_align : src_off;
    unsigned char *src = lab_buffer(max_len), *dst = lab_buffer(max_len);
    if (!src || !dst) {
        lab_fail("copy", "cannot allocate buffers");
        lab_buffer_free(src, max_len);
        lab_buffer_free(dst, max_len);
        return;
    }
    /* With an offset the variant names the destination's unless it is the source's: the
     * results' align column holds the source's. */
    char idle[32] = "idle", busy[32] = "busy", what[256];
    if (dst_off != src_off) {
        snprintf(idle, sizeof idle, "idle, dst +%zu", dst_off);
        snprintf(busy, sizeof busy, "busy, dst +%zu", dst_off);
    }
    snprintf(what, sizeof what, "ns; batch median per call (* = noisy), ratio to memcpy, then %llu single "
             "calls timed one by one (include the timer; resolution %.1f ns); src +%zu, dst +%zu "
             "from a 64-byte boundary",
             (unsigned long long)calls, (double)env->clk->granularity / env->clk->ticks_per_ns,
             src_off, dst_off);
    lab_table_title(env, "copy (Gerum 2021)", what);
    lab_out("%-7s %-22s %-*s %9s%1s %7s %9s %9s %9s %9s %9s %9s\n", "len", "subject",
            variant_width(idle), "load",
            "median", "", "ratio", "min", "avg", "max", "p50", "p99", "p99.9");
    run_pass(env, idle, dst + dst_off, src + src_off, calls);
    if (o->busy) {
        if (lab_busy_start(o->cpu) != 0) {
            lab_note("copy", "--busy: cannot start the background thread");
        } else {
            run_pass(env, busy, dst + dst_off, src + src_off, calls);
            lab_busy_stop();
        }
    }
    lab_buffer_free(src, max_len);
    lab_buffer_free(dst, max_len);
}
