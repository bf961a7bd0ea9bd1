/*
 * sizes: every subject at every length 1..64, then powers of two and packet sizes up to
 * 64 KiB, then buffers sized for L2, L3 and DRAM, in latency and throughput mode; ticks per
 * call, bytes per tick, GB/s, and the percentage of the roofline (the same loads with no
 * arithmetic) at that size, from 256 bytes on. The roofline is a limit, so it is its best batch
 * (minimum) over two measurements, one before and one after the subjects (a third when a
 * subject beat it), while subjects are shown by their median. A subject still above 100 % gets
 * a note with the measured cause: the roofline's own spread (bimodal streaming near a cache
 * boundary) or, when that is narrow, the plain fact that the OR loop is no limit there.
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>

static const size_t larger[] = { 96, 128, 192, 256, 384, 512, 576, 1024, 1280, 1480, 1500,
                                 2048, 4096, 8192, 9000, 16384, 32768, 65536, 262144, 1048576 };
static const size_t quick_small[] = { 1, 2, 4, 8, 14, 20, 31, 40, 64 };
static const size_t quick_larger[] = { 100, 256, 1500, 4096, 65536, 1048576 };

enum { MAX_CASES = 128 };

struct size_case {
    size_t len;
    const char *level; /* "L2", "L3", "DRAM" for the cache-level cases, else "" */
};

static size_t build_cases(const struct lab_env *env, struct size_case *c)
{
    const struct lab_options *o = env->o;
    size_t n = 0;
    if (o->quick) {
        for (size_t i = 0; i < sizeof quick_small / sizeof *quick_small; i++)
            c[n++] = (struct size_case){ quick_small[i], "" };
        for (size_t i = 0; i < sizeof quick_larger / sizeof *quick_larger; i++)
            c[n++] = (struct size_case){ quick_larger[i], "" };
    } else {
        for (size_t len = 1; len <= 64; len++)
            c[n++] = (struct size_case){ len, "" };
        for (size_t i = 0; i < sizeof larger / sizeof *larger; i++)
            c[n++] = (struct size_case){ larger[i], "" };
    }
    /* Cache-level cases: half the level (so it fits there and not in the level below). */
    const long l2 = env->machine.l2 ? env->machine.l2 : 1 << 20;
    const long l3 = env->machine.l3 ? env->machine.l3 : 32 << 20;
    c[n++] = (struct size_case){ (size_t)l2 / 2, "L2" };
    c[n++] = (struct size_case){ (size_t)l3 / 2, "L3" };
    if (!o->quick) {
        size_t dram = (size_t)256 << 20;
        if ((size_t)l3 * 8 > dram)
            dram = (size_t)l3 * 8;
        c[n++] = (struct size_case){ dram, "DRAM" };
    }
    if (o->len >= 0) { /* -l: only that length */
        c[0] = (struct size_case){ (size_t)o->len, "" };
        n = 1;
    }
    return n;
}

/* The roofline at one size: its best batch over several measurements (it is a limit: one
 * disturbed measurement must not lower what everything is compared with). */
static void measure_roofline(const struct lab_env *env, enum lab_mode mode, struct lab_csum_case *rc,
                             struct lab_stats *best)
{
    struct lab_stats again;
    lab_measure(env->o, env->clk, lab_csum_body(mode), rc, &again);
    if (best->batches == 0 || again.ticks_min < best->ticks_min)
        *best = again;
}

/* A subject faster than the roofline needs a stated, measured cause: say what was measured. */
static void explain_above_roofline(const struct lab_env *env, const struct lab_result *r,
                                   const struct lab_stats *roof)
{
    const double limit = env->o->noise_limit > 0 ? env->o->noise_limit : LAB_NOISE_LIMIT;
    if (roof->spread > limit)
        lab_note("sizes", "%s at %zu B (%s) runs at %.0f %% of the roofline: the roofline itself "
                 "is spread here (its batches span %.0f..%.0f ticks, p10..p90, min %.0f; %d of %d "
                 "batches preempted: %s); the subject's median %.0f",
                 r->impl, r->len, r->mode, r->roofline_pct, roof->ticks_p10, roof->ticks_p90,
                 roof->ticks_min, roof->preempted, roof->batches,
                 roof->preempted ? "a busy CPU" : "bimodal streaming, as near a cache-level boundary",
                 r->st.ticks_median);
    else
        lab_note("sizes", "%s at %zu B (%s) runs at %.0f %% of the roofline (median %.1f vs the "
                 "roofline's best %.1f ticks over 3 measurements, p10..p90 %.1f..%.1f): its loads "
                 "stream better than the OR loop's at this size, so the roofline is no limit here",
                 r->impl, r->len, r->mode, r->roofline_pct, r->st.ticks_median, roof->ticks_min,
                 roof->ticks_p10, roof->ticks_p90);
}

/* One case in one mode: every subject, then the roofline from LAB_ROOFLINE_MIN_LEN bytes
 * (measured before and after the subjects, best batch kept) and csum_partial's share of it;
 * one line of the table. */
static void size_row(const struct lab_env *env, enum lab_mode mode, const struct size_case *c,
                     const unsigned char *p, size_t align, csum_partial_fn roof_fn,
                     const struct lab_subject *const pair_s[2])
{
    const size_t len = c->len;
    struct lab_expect expect;
    lab_expect_case(p, len, &expect);
    char label[24];
    if (c->level[0])
        snprintf(label, sizeof label, "%zuK %s", len >> 10, c->level);
    else
        snprintf(label, sizeof label, "%zu", len);
    lab_out("%-11s", label);

    const int with_roof = len >= LAB_ROOFLINE_MIN_LEN;
    struct lab_csum_case rc = { roof_fn, p, len, 0 };
    struct lab_stats rst;
    memset(&rst, 0, sizeof rst);
    if (with_roof)
        measure_roofline(env, mode, &rc, &rst);
    size_t first = lab_result_count();

    /* The summary's pair (csum_partial over linux-6.8) timed together, their batches
     * interleaved, as the short table's subjects (until 2026-11-27 each alone); every other
     * subject alone. */
    struct lab_pair pair = { .s = { pair_s[0], pair_s[1] }, .table = "sizes", .variant = c->level,
                             .mode = mode, .p = p, .len = len, .sum = 0x5a5a, .e = &expect };
    lab_pair_time(env, &pair);
    for (size_t i = 0; i < env->n_subjects; i++) {
        const struct lab_subject *s = &env->subjects[i];
        if (s->refused)
            continue;
        struct lab_stats st;
        const int width = lab_col_width(s->name, 12);
        if (lab_pair_stats(env, &pair, s, &st) != 0) {
            lab_out(" %*s", width, "refused");
            continue;
        }
        lab_out(" %*.1f%s", width - 1, st.ticks_median, st.noisy ? "*" : " ");
    }
    size_t last = lab_result_count();
    if (!with_roof) {
        lab_out(" %12s %8s %6s\n", "-", "", "");
        return;
    }
    measure_roofline(env, mode, &rc, &rst);
    /* Anyone above the limit? Measure the roofline once more before saying so. */
    int above = 0;
    for (size_t i = first; i < last; i++)
        above |= lab_result_get(i)->st.ticks_median < rst.ticks_min;
    if (above)
        measure_roofline(env, mode, &rc, &rst);
    struct lab_result *rr = lab_result_add("sizes", "roofline", c->level, mode, len, align, &rst);
    if (rr) { /* a limit: its speed is its best batch's */
        rr->roofline_pct = 100;
        rr->bytes_per_tick = rst.ticks_min > 0 ? (double)len / rst.ticks_min : -1;
        rr->gbps = rst.ns_min > 0 ? (double)len / rst.ns_min : -1;
    }
    double public_bpt = -1, public_pct = -1;
    for (size_t i = first; i < last; i++) {
        struct lab_result *r = lab_result_get(i);
        /* none against a median of 0 ticks (a clock coarser than a -c 1 batch) */
        r->roofline_pct = r->st.ticks_median > 0 ? 100.0 * rst.ticks_min / r->st.ticks_median : -1;
        if (r->roofline_pct > 100.0)
            explain_above_roofline(env, r, &rst);
        if (!strcmp(r->impl, "csum_partial")) {
            public_bpt = r->bytes_per_tick;
            public_pct = r->roofline_pct;
        }
    }
    lab_out(" %11.1f%s", rst.ticks_min, rst.noisy ? "*" : " ");
    if (public_pct >= 0)
        lab_out(" %8.2f %5.0f%%\n", public_bpt, public_pct);
    else
        lab_out(" %8s %6s\n", "-", "-");
}

void table_sizes(const struct lab_env *env)
{
    const struct lab_options *o = env->o;
    struct size_case cases[MAX_CASES];
    const size_t n_cases = build_cases(env, cases);
    const size_t align = o->align >= 0 ? (size_t)o->align : 0;
    const char *roof_name;
    const csum_partial_fn roof_fn = lab_roofline(&roof_name);
    if (o->quick)
        lab_note("sizes", "--quick: fewer lengths, no DRAM-sized case");
    const struct lab_subject *const pair[2] = {
        lab_subject_find(env->subjects, env->n_subjects, "csum_partial"),
        lab_subject_find(env->subjects, env->n_subjects, "linux-6.8"),
    };

    const unsigned modes = lab_modes(env, MODE_LATENCY | MODE_THROUGHPUT);
    for (unsigned mode = MODE_LATENCY; mode <= MODE_THROUGHPUT; mode <<= 1) {
        if (!(modes & mode))
            continue;
        char what[256];
        char where[64] = ""; /* the rows name lengths only: -a is said here */
        if (o->align > 0)
            snprintf(where, sizeof where, ", buffers %zu bytes past a 64-byte boundary", align);
        snprintf(what, sizeof what, "%s mode%s: median ticks per call (* = noisy); last columns: "
                 "%s (its best batch: a limit; from %d B), csum_partial's bytes/tick and %% of "
                 "roofline", lab_mode_name(mode), where, roof_name, LAB_ROOFLINE_MIN_LEN);
        lab_table_title(env, "sizes", what);
        lab_out("%-11s", "len");
        for (size_t i = 0; i < env->n_subjects; i++)
            if (!env->subjects[i].refused)
                lab_out(" %*s", lab_col_width(env->subjects[i].name, 12), env->subjects[i].name);
        lab_out(" %12s %8s %6s\n", "roofline", "B/tick", "%roof");

        unsigned char *buf = NULL;
        size_t buf_len = 0;
        for (size_t k = 0; k < n_cases; k++) {
            const size_t len = cases[k].len;
            if (!buf || buf_len < len) { /* grow only: cases are sorted except -l */
                lab_buffer_free(buf, buf_len);
                buf_len = len < 65536 ? 65536 : len;
                buf = lab_buffer(buf_len);
                if (!buf) {
                    lab_fail("sizes", "cannot allocate %zu bytes", buf_len);
                    return;
                }
            }
            size_row(env, (enum lab_mode)mode, &cases[k], buf + align, align, roof_fn, pair);
            if (len > ((size_t)64 << 20)) { /* do not keep DRAM-sized memory around */
                lab_buffer_free(buf, buf_len);
                buf = NULL;
                buf_len = 0;
            }
        }
        lab_buffer_free(buf, buf_len);
    }
    lab_note("sizes", "* = the p10..p90 spread over batches stayed above %.0f %% of the median "
             "after %d repeat(s); roofline and %% of roofline only from %d B: below, a call's fixed "
             "cost is more than its loads", 100 * (o->noise_limit > 0 ? o->noise_limit : LAB_NOISE_LIMIT),
             o->repeats, LAB_ROOFLINE_MIN_LEN);
}
