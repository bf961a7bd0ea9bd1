/*
 * mixed: lengths that change from call to call. Every other table times one length at a time,
 * where each branch on the length is predicted after a few calls; traffic mixes lengths, and
 * code that branches on them pays mispredictions there that no fixed-length table shows (the
 * same question as Herbert 2016's thrash experiment, asked of whole ranges of lengths).
 *
 * Lengths are drawn uniformly from a range, 2^20 of them with a fixed seed, and replayed in
 * that order: far more than a branch predictor learns as a sequence (AMD EPYC family 25 model
 * 17, a Zen 4 VM, learned a 4096-long one: random lengths of 1024..2047 bytes took 31 ticks a
 * call replayed from 4096 lengths and 39 from 2^20). Every subject is timed over the sequence,
 * then over a sequence holding only the mean length, through the same loop (so the two differ
 * in the lengths alone), in latency and throughput mode; the last column is the price of mixing (random over
 * fixed, throughput). One buffer, 64-byte aligned: `thrash` and `lenalign` cover alignments.
 */
#include "lab.h"

#include <stdlib.h>

#include "csum_oracle.h"

enum { SEQUENCE = 1 << 20, MAX_LEN = 1518 };

/* The ranges: headers and small packets, everything the short path takes, and Ethernet
 * payloads from a minimum frame to a full one. */
static const struct { size_t lo, hi; } ranges[] = { { 1, 64 }, { 1, 256 }, { 64, MAX_LEN } };
enum { N_RANGES = sizeof ranges / sizeof ranges[0] };

struct mixed_ctx {
    csum_partial_fn fn;
    const unsigned char *p;
    const size_t *len; /* SEQUENCE lengths */
    size_t *next;      /* where the next batch continues in the sequence */
};

/* iters calls over the sequence from where the last batch stopped; chain: each result is the
 * next call's seed (latency mode), else independent calls (throughput mode). Inlined into the
 * two bodies with chain a constant, so each times only its own loop. */
static inline __attribute__((always_inline)) uint64_t run(const struct mixed_ctx *c, uint64_t iters,
                                                          int chain)
{
    const csum_partial_fn fn = c->fn;
    const unsigned char *const p = c->p;
    const size_t *const len = c->len;
    size_t k = *c->next;
    csum_wsum s = 0;
    for (uint64_t i = 0; i < iters; i++) {
        csum_wsum r = fn(p, len[k], chain ? s : 0);
        if (chain)
            s = r;
        else
            __asm__ volatile("" ::"r"(r)); /* used: the call cannot be dropped */
        k = (k + 1) & (SEQUENCE - 1);
    }
    *c->next = k;
    return s;
}

static uint64_t body_latency(const void *ctx, uint64_t iters) { return run(ctx, iters, 1); }
static uint64_t body_throughput(const void *ctx, uint64_t iters) { return run(ctx, iters, 0); }

/* Ticks per call of subject s over the sequence `len` in this mode, also written to `cell`
 * (with * when noisy). */
static double measure(const struct lab_env *env, const struct lab_subject *s, const unsigned char *p,
                      const size_t *len, enum lab_mode mode, const char *variant, size_t mean,
                      char cell[16])
{
    size_t next = 0;
    const struct mixed_ctx c = { s->fn, p, len, &next };
    struct lab_stats st;
    lab_measure(env->o, env->clk, mode == MODE_LATENCY ? body_latency : body_throughput, &c, &st);
    struct lab_result *r = lab_result_add("mixed", s->name, variant, mode, mean, 0, &st);
    if (r)
        r->bytes_per_tick = r->gbps = -1; /* lengths vary: bytes per tick would mislead */
    snprintf(cell, 16, "%.1f%s", st.ticks_median, st.noisy ? "*" : "");
    return st.ticks_median;
}

void table_mixed(const struct lab_env *env)
{
    size_t *random = malloc(SEQUENCE * sizeof *random), *fixed = malloc(SEQUENCE * sizeof *fixed);
    unsigned char *buf = lab_buffer(4096);
    if (!random || !fixed || !buf) {
        lab_fail("mixed", "cannot allocate the length sequences");
        free(random);
        free(fixed);
        lab_buffer_free(buf, 4096);
        return;
    }
    const unsigned modes = lab_modes(env, MODE_LATENCY | MODE_THROUGHPUT);
    lab_table_title(env, "mixed",
                    "lengths drawn at random from a range, a new one every call (2^20, fixed "
                    "seed), vs the mean length alone: median ticks per call (* = noisy)");
    const int name_width = lab_name_width(env, 14);
    lab_out("%-9s %-*s %11s %11s %11s %11s %9s\n", "range", name_width, "impl", "lat random",
            "lat fixed", "tp random", "tp fixed", "rnd/fixed");
    for (size_t g = 0; g < N_RANGES; g++) {
        const size_t lo = ranges[g].lo, hi = ranges[g].hi;
        uint64_t rng = 0x6d69786564ull + g, total = 0;
        for (size_t k = 0; k < SEQUENCE; k++) {
            random[k] = lo + (size_t)(testdata_next(&rng) % (hi - lo + 1));
            total += random[k];
        }
        const size_t mean = (size_t)(total / SEQUENCE);
        for (size_t k = 0; k < SEQUENCE; k++)
            fixed[k] = mean;
        char range[24], v_random[48], v_fixed[48];
        snprintf(range, sizeof range, "%zu..%zu", lo, hi);
        snprintf(v_random, sizeof v_random, "%s random", range);
        snprintf(v_fixed, sizeof v_fixed, "%s fixed %zu", range, mean);
        for (size_t i = 0; i < env->n_subjects; i++) {
            const struct lab_subject *s = &env->subjects[i];
            if (s->refused)
                continue;
            /* Every length the sequence can hold, on this buffer, before any is timed. */
            size_t wrong_at = 0;
            for (size_t len = lo; len <= hi && !wrong_at; len++)
                if (lab_check_case(s->fn, buf, len, NULL))
                    wrong_at = len;
            if (wrong_at) {
                lab_wrong_sum("mixed", s->peer, "%s refused: disagrees with the oracle at %zu bytes "
                              "on this buffer", s->name, wrong_at);
                continue;
            }
            /* [latency random, latency fixed, throughput random, throughput fixed] */
            double t[4] = { -1, -1, -1, -1 };
            char cell[4][16] = { "-", "-", "-", "-" }, ratio[16] = "-";
            for (unsigned m = 0; m < 2; m++) {
                const enum lab_mode mode = m ? MODE_THROUGHPUT : MODE_LATENCY;
                if (!(modes & mode))
                    continue;
                t[2 * m] = measure(env, s, buf, random, mode, v_random, mean, cell[2 * m]);
                t[2 * m + 1] = measure(env, s, buf, fixed, mode, v_fixed, mean, cell[2 * m + 1]);
            }
            if (t[2] > 0 && t[3] > 0)
                snprintf(ratio, sizeof ratio, "%.2fx", t[2] / t[3]);
            lab_out("%-9s %-*s %11s %11s %11s %11s %9s\n", range, name_width, s->name, cell[0],
                    cell[1], cell[2], cell[3], ratio);
        }
    }
    lab_out("   note: fixed = the range's mean length on every call; len column in the results = "
            "that mean\n");
    free(random);
    free(fixed);
    lab_buffer_free(buf, 4096);
}
