/*
 * thrash: Herbert 2016's branch-prediction experiment. Two (length, alignment) combinations are
 * checksummed either as two grouped halves (all of the first, then all of the second) or
 * interleaved call by call (-I), and we add a third order, a fixed pseudo-random choice per
 * call: a strictly alternating pattern is something modern branch predictors learn, a random
 * one is not. Default combinations follow Herbert's command line in that thread (-l 100 -S 24 -a 1).
 */
#include "lab.h"

#include <stdlib.h>

#include "csum_oracle.h"

/* Calls per pass over the schedule (LAB_THRASH_SCHEDULE, 2^20): far more than a branch
 * predictor learns as a sequence (a 4096-call schedule was learned in part: docs/METHOD.md).
 * Every timed batch is whole passes, one unless -c asks for more: the grouped order is all of
 * the first case, then all of the second, so a batch cut short of a pass would time the first
 * case alone, and the random order would replay the same first calls every batch. Until
 * 2026-11-26 batches were auto-sized (about 180,000 calls on the Zen 4 VM) and did exactly
 * that. */
enum { SCHEDULE = LAB_THRASH_SCHEDULE };

struct thrash_ctx {
    csum_partial_fn fn;
    const unsigned char *p[SCHEDULE];
    size_t len[SCHEDULE];
};

/* iters calls from the start of the schedule; iters is a whole number of passes when timed
 * (the warm-up's shorter runs only warm up). */
static uint64_t body_schedule(const void *vctx, uint64_t iters)
{
    const struct thrash_ctx *c = vctx;
    csum_partial_fn fn = c->fn;
    csum_wsum s = 0;
    for (uint64_t i = 0; i < iters; i++) {
        size_t k = i % SCHEDULE;
        s = fn(c->p[k], c->len[k], s);
    }
    return s;
}

enum order { GROUPED, INTERLEAVED, RANDOM };
static const char *const order_names[] = { "grouped", "interleaved", "random" };

void table_thrash(const struct lab_env *env)
{
    const struct lab_options *o = env->o;
    /* A batch is whole passes: -c has been checked to be a multiple of the schedule (lab.c). */
    struct lab_options whole = *o;
    if (whole.count <= 0)
        whole.count = SCHEDULE;
    const size_t len_a = o->len >= 0 ? (size_t)o->len : 100, align_a = o->align >= 0 ? (size_t)o->align : 0;
    const size_t len_b = 24, align_b = 1;
    unsigned char *base = lab_buffer(2 * 4096 + len_a + len_b);
    struct thrash_ctx *ctx = malloc(sizeof *ctx);
    if (!base || !ctx) {
        lab_fail("thrash", "cannot allocate buffers");
        free(ctx);
        return;
    }
    const unsigned char *pa = base + align_a, *pb = base + 4096 + 64 + align_b;

    char what[256];
    snprintf(what, sizeof what, "%zu/%zu and %zu/%zu, latency mode, median ticks per call "
             "(* = noisy)%s; "
             "a batch is %ld pass%s over the %d-call schedule",
             len_a, align_a, len_b, align_b, env->clk->counters ? ", branch misses per call" : "",
             whole.count / SCHEDULE, whole.count / SCHEDULE > 1 ? "es" : "", SCHEDULE);
    lab_table_title(env, "thrash (Herbert 2016)", what);
    const int name_width = lab_name_width(env, 14);
    lab_out("%-*s %11s %11s %11s %9s\n", name_width, "impl", "grouped", "interleaved", "random",
            "rnd/grp");

    for (size_t i = 0; i < env->n_subjects; i++) {
        const struct lab_subject *s = &env->subjects[i];
        if (s->refused)
            continue;
        if (lab_check_case(s->fn, pa, len_a, NULL) || lab_check_case(s->fn, pb, len_b, NULL)) {
            lab_wrong_sum("thrash", s->peer, "%s refused: disagrees with the oracle on these buffers", s->name);
            continue;
        }
        double t[3] = { -1, -1, -1 }, miss[3] = { -1, -1, -1 };
        int noisy[3] = { 0, 0, 0 };
        uint64_t rng = 0x7e1;
        for (int ord = GROUPED; ord <= RANDOM; ord++) {
            if (o->interleave && ord != INTERLEAVED)
                continue;
            ctx->fn = s->fn;
            for (size_t k = 0; k < SCHEDULE; k++) {
                int first = ord == GROUPED ? k < SCHEDULE / 2
                          : ord == INTERLEAVED ? (k & 1) == 0
                          : (testdata_next(&rng) & 1) == 0;
                ctx->p[k] = first ? pa : pb;
                ctx->len[k] = first ? len_a : len_b;
            }
            struct lab_stats st;
            lab_measure(&whole, env->clk, body_schedule, ctx, &st);
            struct lab_result *r = lab_result_add("thrash", s->name, order_names[ord], MODE_LATENCY,
                                                  (len_a + len_b) / 2, align_a, &st);
            if (r)
                r->bytes_per_tick = r->gbps = -1; /* mixed lengths: not meaningful */
            t[ord] = st.ticks_median;
            miss[ord] = st.branch_misses;
            noisy[ord] = st.noisy;
        }
        char cells[3][32];
        for (int ord = 0; ord < 3; ord++) {
            if (t[ord] < 0)
                snprintf(cells[ord], sizeof cells[ord], "-");
            else if (miss[ord] >= 0)
                snprintf(cells[ord], sizeof cells[ord], "%.1f%s (%.2f)", t[ord],
                         noisy[ord] ? "*" : "", miss[ord]);
            else
                snprintf(cells[ord], sizeof cells[ord], "%.1f%s", t[ord], noisy[ord] ? "*" : "");
        }
        char ratio[16] = "-";
        if (t[GROUPED] > 0 && t[RANDOM] > 0)
            snprintf(ratio, sizeof ratio, "%.2fx", t[RANDOM] / t[GROUPED]);
        lab_out("%-*s %11s %11s %11s %9s\n", name_width, s->name, cells[0], cells[1], cells[2],
                ratio);
    }
    lab_note("thrash", "len in the results (JSON, CSV) = %zu, the two lengths' mean (half the calls "
                       "take %zu bytes, half %zu); align = the first's, %zu; variant = the "
                       "order (grouped, interleaved, random)",
             (len_a + len_b) / 2, len_a, len_b, align_a);
    if (!env->clk->counters)
        lab_note("thrash", "branch misses: n/a (no hardware counters on this machine); the "
                           "random/grouped ratio shows what mispredictions cost");
    free(ctx);
    lab_buffer_free(base, 2 * 4096 + len_a + len_b);
}
