/*
 * sizes: every subject at every length 1..64, then powers of two and packet sizes up to
 * 64 KiB, then buffers sized for L2, L3 and DRAM; ticks per call, bytes per tick, GB/s, and the
 * percentage of the roofline (the same loads with no arithmetic) at that size. The roofline is
 * a limit, so it is its best batch (minimum) over two measurements, one before and one after
 * the subjects, while subjects are shown by their median: at the L1/L2 boundary whole runs of
 * the load loop are bimodal, and a median there is no limit.
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>

static const size_t larger[] = { 96, 128, 192, 256, 384, 512, 576, 1024, 1280, 1480, 1500,
                                 2048, 4096, 8192, 9000, 16384, 32768, 65536, 262144, 1048576 };
static const size_t quick_small[] = { 1, 2, 3, 4, 7, 8, 14, 15, 16, 20, 31, 32, 40, 63, 64 };
static const size_t quick_larger[] = { 128, 256, 576, 1500, 4096, 16384, 65536, 1048576 };

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

void table_sizes(const struct lab_env *env)
{
    const struct lab_options *o = env->o;
    struct size_case cases[MAX_CASES];
    const size_t n_cases = build_cases(env, cases);
    const size_t align = o->align >= 0 ? (size_t)o->align : 0;
    const char *roof_name;
    struct lab_subject roof = { .name = "roofline", .origin = "loads only" };
    roof.fn = lab_roofline(&roof_name);
    if (o->quick)
        lab_note("sizes", "--quick: fewer lengths, latency mode only unless --throughput, no "
                          "DRAM-sized case");

    const unsigned modes =
        lab_modes(env, o->quick && !o->modes ? MODE_LATENCY : MODE_LATENCY | MODE_THROUGHPUT);
    for (unsigned mode = MODE_LATENCY; mode <= MODE_THROUGHPUT; mode <<= 1) {
        if (!(modes & mode))
            continue;
        char what[160];
        snprintf(what, sizeof what, "%s mode: median ticks per call; last columns: %s (its best "
                 "batch: a limit), the best subject's bytes/tick and %% of roofline",
                 lab_mode_name(mode), roof_name);
        lab_table_title(env, "sizes", what);
        lab_out("%-11s", "len");
        for (size_t i = 0; i < env->n_subjects; i++)
            if (!env->subjects[i].refused)
                lab_out(" %12.12s", env->subjects[i].name);
        lab_out(" %12s %8s %6s\n", "roofline", "best B/t", "%roof");

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
            const unsigned char *p = buf + align;
            struct lab_expect expect;
            lab_expect_case(p, len, &expect);
            char label[24];
            if (cases[k].level[0])
                snprintf(label, sizeof label, "%zuK %s", len >> 10, cases[k].level);
            else
                snprintf(label, sizeof label, "%zu", len);
            lab_out("%-11s", label);

            /* The roofline, the reference for this size: measured before and after the
             * subjects, and the better of the two kept, so that one disturbed measurement
             * cannot lower the limit everything is compared with. */
            struct lab_csum_case rc = { roof.fn, p, len, 0 };
            struct lab_stats rst, again;
            lab_measure(o, env->clk, lab_csum_body((enum lab_mode)mode), &rc, &rst);
            size_t first = lab_result_count();

            for (size_t i = 0; i < env->n_subjects; i++) {
                const struct lab_subject *s = &env->subjects[i];
                if (s->refused)
                    continue;
                struct lab_result *r = lab_time_csum(env, s, "sizes", cases[k].level,
                                                     (enum lab_mode)mode, p, len, 0x5a5a, &expect);
                if (!r) {
                    lab_out(" %12s", "refused");
                    continue;
                }
                lab_out(" %12.1f", r->st.ticks_median);
            }
            lab_measure(o, env->clk, lab_csum_body((enum lab_mode)mode), &rc, &again);
            if (again.ticks_min < rst.ticks_min)
                rst = again;
            struct lab_result *rr = lab_result_add("sizes", "roofline", cases[k].level,
                                                   (enum lab_mode)mode, len, align, &rst);
            if (rr) { /* a limit: its speed is its best batch's */
                rr->roofline_pct = 100;
                rr->bytes_per_tick = (double)len / rst.ticks_min;
                rr->gbps = (double)len / rst.ns_min;
            }
            double best_bpt = 0, best_pct = 0;
            for (size_t i = first; i + 1 < lab_result_count(); i++) {
                struct lab_result *r = lab_result_get(i);
                r->roofline_pct = 100.0 * rst.ticks_min / r->st.ticks_median;
                if (r->bytes_per_tick > best_bpt) {
                    best_bpt = r->bytes_per_tick;
                    best_pct = r->roofline_pct;
                }
            }
            lab_out(" %12.1f %8.2f %5.0f%%\n", rst.ticks_min, best_bpt, best_pct);
            if (len > ((size_t)64 << 20)) { /* do not keep DRAM-sized memory around */
                lab_buffer_free(buf, buf_len);
                buf = NULL;
                buf_len = 0;
            }
        }
        lab_buffer_free(buf, buf_len);
    }
}
