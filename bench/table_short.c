/*
 * short: every length from 1 to 256 bytes, in latency and throughput mode, the public
 * csum_partial against Linux 6.8's algorithm (our linux-6.8 reference row), plus the product
 * row the dispatcher runs in place for short buffers (x86-scalar on x86-64), so that the cost
 * of dispatch and the cost of the algorithm can be told apart. Headers and small packets live
 * here; issue 12's "short lengths never lose" is read from this table (the summary's worst
 * ratio). The subjects of one length are timed together, their batches interleaved
 * (lab_measure_group), so the ratio is not a comparison of two moments of a shared machine.
 * Aligned buffers only: `lenalign` and `thrash` cover alignments and mixed lengths.
 *
 * With -M the subjects are the ones named, in the order named, and the ratio is the first's
 * time over the last's: `-M mine,linux-6.8` times a change to the algorithm (a row of its own)
 * against the kernel's at every length, `-M csum_partial,dpdk` a peer, interleaved as above.
 */
#include "lab.h"

#include <string.h>

static const char *const wanted[] = { "csum_partial", "x86-scalar", "linux-6.8", "generic" };
enum { N_WANTED = sizeof wanted / sizeof wanted[0], MAX_LEN = 256 };

/* The subjects -M names, in its order, each once (names of other tables' subjects, h40's
 * and copy's, are not this table's); at most LAB_GROUP_MAX, which lab.c checked. */
static size_t named_subjects(const struct lab_env *env, const struct lab_subject *subj[])
{
    size_t n = 0;
    char name[64];
    for (const char *p = env->o->only_impls; n < LAB_GROUP_MAX &&
                                             (p = lab_list_next(p, name, sizeof name));) {
        const struct lab_subject *s = lab_subject_find(env->subjects, env->n_subjects, name);
        int again = 0;
        for (size_t i = 0; i < n; i++)
            again |= subj[i] == s;
        if (s && !s->refused && !again)
            subj[n++] = s;
    }
    return n;
}

void table_short(const struct lab_env *env)
{
    const struct lab_subject *subj[LAB_GROUP_MAX];
    size_t n = 0;
    if (env->o->only_impls) {
        n = named_subjects(env, subj);
    } else {
        for (size_t w = 0; w < N_WANTED; w++) {
            struct lab_subject *s = lab_subject_find(env->subjects, env->n_subjects, wanted[w]);
            if (s && !s->refused && (w < 3 || n < 2)) /* generic only where linux-6.8 is missing */
                subj[n++] = s;
        }
    }
    if (n < (env->o->only_impls ? 1u : 2u)) {
        lab_note("short", env->o->only_impls ? "-M names no subject this table can time: not timed"
                                             : "needs csum_partial and a baseline row (linux-6.8, "
                                               "else generic): not timed");
        return;
    }
    const size_t from = env->o->len >= 0 ? (size_t)env->o->len : 1;
    const size_t to = env->o->len >= 0 ? (size_t)env->o->len : (env->o->quick ? 64 : MAX_LEN);
    const size_t buf_len = to < 4096 ? 4096 : to;
    unsigned char *buf = lab_buffer(buf_len);
    if (!buf) {
        lab_fail("short", "cannot allocate %zu bytes", buf_len);
        return;
    }
    const unsigned modes = lab_modes(env, MODE_LATENCY | MODE_THROUGHPUT);
    for (unsigned mode = MODE_LATENCY; mode <= MODE_THROUGHPUT; mode <<= 1) {
        if (!(modes & mode))
            continue;
        char what[256]; /* the longest versus and two 20-digit lengths (GCC -O1/-Os checks) */
        char versus[96] = "";
        if (n > 1)
            snprintf(versus, sizeof versus, ", and %s / %s", subj[0]->name, subj[n - 1]->name);
        char lengths[64]; /* "every length 40..40 B" read oddly under -l 40 */
        if (from == to)
            snprintf(lengths, sizeof lengths, "at %zu B (-l)", from);
        else
            snprintf(lengths, sizeof lengths, "every length %zu..%zu B", from, to);
        snprintf(what, sizeof what, "%s mode, %s: median ticks per call (* = noisy)%s",
                 lab_mode_name(mode), lengths, versus);
        lab_table_title(env, "short", what);
        lab_out("%-5s", "len");
        int width[LAB_GROUP_MAX];
        for (size_t i = 0; i < n; i++) {
            width[i] = lab_col_width(subj[i]->name, 12);
            lab_out(" %*s", width[i], subj[i]->name);
        }
        lab_out(n > 1 ? " %7s\n" : "%s\n", n > 1 ? "ratio" : "");
        double worst = 0;
        size_t worst_at = 0;
        for (size_t len = from; len <= to; len++) {
            struct lab_expect expect;
            lab_expect_case(buf, len, &expect);
            double t[LAB_GROUP_MAX] = { 0 };
            struct lab_result *res[LAB_GROUP_MAX];
            lab_time_csum_group(env, subj, (int)n, "short", "", (enum lab_mode)mode, buf, len,
                                0x5a5a, &expect, res);
            lab_out("%-5zu", len);
            for (size_t i = 0; i < n; i++) {
                const struct lab_result *r = res[i];
                if (!r) {
                    lab_out(" %*s", width[i], "refused");
                    continue;
                }
                t[i] = r->st.ticks_median;
                lab_out(" %*.1f%s", width[i] - 1, t[i], r->st.noisy ? "*" : " ");
            }
            if (n < 2) {
                lab_out("\n");
                continue;
            }
            double ratio = t[0] > 0 && t[n - 1] > 0 ? t[0] / t[n - 1] : 0;
            if (ratio > worst) {
                worst = ratio;
                worst_at = len;
            }
            const char *word = res[0] && res[n - 1]
                                   ? lab_ratio_word(ratio, &res[0]->st, &res[n - 1]->st) : "";
            lab_out(" %7.2f%s\n", ratio, word);
        }
        if (n > 1)
            lab_out("worst %s / %s: %.2f at %zu B\n", subj[0]->name, subj[n - 1]->name, worst,
                    worst_at);
    }
    lab_buffer_free(buf, buf_len);
}
