/*
 * lenalign: Herbert 2016's Old/New table (Len/Aln in ns with a % improvement column), with the
 * reviewers' extra cases and a few larger sizes, for every subject side by side. The %
 * column compares csum_partial (what users call) with the kernel's algorithm unless -M and
 * --baseline name others; those two are timed together, interleaved, as `short` times its
 * subjects, and every other subject alone.
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>

static const struct lenalign_row {
    size_t len, align;
    int straddle; /* placed across a 4 KiB page boundary */
    const char *what;
} rows[] = {
    { 1400, 0, 0, "big packet" },
    { 40, 0, 0, "IPv6 header, common case" },
    { 8, 4, 0, "UDP, VXLAN in IPv4" },
    { 14, 0, 0, "Ethernet header" },
    { 14, 4, 0, "Ethernet header in IPv4" },
    { 14, 3, 0, "Ethernet, odd alignment" },
    { 20, 0, 0, "IPv4 header without options" },
    { 7, 1, 0, "buffer in one quadword" },
    { 100, 0, 0, "medium-sized packet" },
    { 100, 2, 0, "medium-sized packet, +2" },
    /* The reviewers' cases (Duyck). */
    { 1480, 2, 0, "Eth+IP offset, no IP_ALIGN" },
    { 40, 6, 0, "IPv6 header on receive" },
    { 20, 4, 0, "UDP+VXLAN+inner Ethernet" },
    { 1480, 2, 1, "1480/2 straddling a 4 KiB page" },
    { 32766, 2, 0, "32 KiB minus an offset" },
    /* Larger sizes. */
    { 1500, 0, 0, "MTU packet" },
    { 4096, 0, 0, "page" },
    { 65536, 0, 0, "64 KiB (GSO/GRO)" },
};
#define N_ROWS (sizeof rows / sizeof rows[0])

/* Width of the % Improv's range column: "-100..100" and its header fit; wider ranges push
 * the case text, never the numbers. */
#define RANGE_WIDTH 9

static int row_selected(const struct lenalign_row *r, long len, long align)
{
    return (len < 0 || (size_t)len == r->len) && (align < 0 || (size_t)align == r->align);
}

size_t table_lenalign_cases(long len, long align)
{
    size_t n = 0;
    for (size_t r = 0; r < N_ROWS; r++)
        n += row_selected(&rows[r], len, align);
    return n;
}

/* Place a row's buffer: `align` past a page start, or across the next page boundary, starting
 * len / 2 rounded up to 64 bytes, less `align`, before it. */
static const unsigned char *place(const unsigned char *base, const struct lenalign_row *r)
{
    if (r->straddle)
        return base + 4096 + 4096 - ((r->len / 2 + 63) & ~(size_t)63) + r->align;
    return base + 4096 + r->align;
}

/* One row in one mode: every subject, the two the % column compares timed together; one line
 * of the table. */
static void lenalign_row(const struct lab_env *env, enum lab_mode mode,
                         const struct lenalign_row *row, const unsigned char *p,
                         const struct lab_subject *new_s, const struct lab_subject *old_s)
{
    char label[24];
    snprintf(label, sizeof label, "%zu/%zu", row->len, row->align);
    lab_out("%-9s", label);
    struct lab_expect expect;
    lab_expect_case(p, row->len, &expect);
    /* The two the % column compares are timed together, their batches interleaved
     * (lab_measure_group), so that it is not a comparison of two moments of a shared machine;
     * every other subject alone. */
    struct lab_pair pair = { .s = { new_s, old_s }, .table = "lenalign",
                             .variant = row->straddle ? "page-straddle" : "", .mode = mode,
                             .p = p, .len = row->len, .sum = 0x5a5a, .e = &expect };
    lab_pair_time(env, &pair);
    struct lab_stats new_st, old_st;
    int have_new = 0, have_old = 0;
    for (size_t i = 0; i < env->n_subjects; i++) {
        const struct lab_subject *s = &env->subjects[i];
        if (s->refused)
            continue;
        struct lab_stats st;
        const int width = lab_col_width(s->name, 13);
        if (lab_pair_stats(env, &pair, s, &st) != 0) {
            lab_out(" %*s", width, "refused");
            continue;
        }
        char cell[32];
        snprintf(cell, sizeof cell, "%.1f/%.0f%s", st.ns_median, st.ticks_median,
                 st.noisy ? "*" : "");
        lab_out(" %*s", width, cell);
        if (s == new_s)
            new_st = st, have_new = st.ns_median > 0;
        if (s == old_s)
            old_st = st, have_old = st.ns_median > 0;
    }
    if (have_new && have_old) {
        long lo, hi;
        char range[48] = "-";
        if (lab_improv_range(&old_st, &new_st, &lo, &hi) == 0)
            snprintf(range, sizeof range, "%ld..%ld", lo, hi);
        lab_out(" %7ld%% %*s  %s\n", lab_improv_pct(old_st.ns_median, new_st.ns_median),
                RANGE_WIDTH, range, row->what);
    } else {
        lab_out(" %8s %*s  %s\n", "-", RANGE_WIDTH, "", row->what);
    }
}

void table_lenalign(const struct lab_env *env)
{
    const struct lab_options *o = env->o;
    const char *new_name = NULL;
    char first[64] = "";
    if (o->only_impls) { /* -M NEW,...: the first one named */
        lab_list_next(o->only_impls, first, sizeof first);
        new_name = first;
    } else {
        new_name = "csum_partial"; /* what users call, through dispatch */
    }
    /* The default baseline is the kernel's algorithm (our linux-6.8 port): the code a user
     * would otherwise copy. `generic` only when this CPU has no such row (or it was refused),
     * not when -M left it out: then it is named as not measured. */
    const struct lab_subject *linux68 = lab_subject_find(env->subjects, env->n_subjects, "linux-6.8");
    const struct csum_impl *linux_row = csum_impl_find("linux-6.8");
    const int have_linux = linux_row && csum_impl_supported(linux_row) && !(linux68 && linux68->refused);
    const char *old_name = o->baseline ? o->baseline : have_linux ? "linux-6.8" : "generic";
    struct lab_subject *new_s = lab_subject_find(env->subjects, env->n_subjects, new_name);
    struct lab_subject *old_s = lab_subject_find(env->subjects, env->n_subjects, old_name);
    /* A subject against itself (-M linux-6.8,..., or -M generic where generic is the default
     * baseline) is no comparison: no column, rather than 0 %. */
    char versus[160];
    if (new_s && new_s == old_s)
        snprintf(versus, sizeof versus, "no %% column: %s would be compared with itself (name "
                 "another baseline: --baseline, or -M NEW,OLD)", new_name);
    else if (!new_s || !old_s)
        snprintf(versus, sizeof versus, "no %% column: %s not measured (name it in -M%s)",
                 new_s ? old_name : new_name, new_s ? " or --baseline" : "");
    else
        snprintf(versus, sizeof versus, "%% = %s vs %s", new_name, old_name);
    if (new_s == old_s)
        old_s = NULL;

    unsigned char *base = lab_buffer(65536 + 3 * 4096);
    if (!base) {
        lab_fail("lenalign", "cannot allocate buffers");
        return;
    }
    const unsigned modes = lab_modes(env, MODE_LATENCY | MODE_THROUGHPUT);
    for (unsigned mode = MODE_LATENCY; mode <= MODE_THROUGHPUT; mode <<= 1) {
        if (!(modes & mode))
            continue;
        char what[256];
        snprintf(what, sizeof what, "%s mode, median ns/ticks per call (* = noisy); %s",
                 lab_mode_name(mode), versus);
        lab_table_title(env, "lenalign (Herbert 2016)", what);
        lab_out("%-9s", "Len/Aln");
        for (size_t i = 0; i < env->n_subjects; i++)
            if (!env->subjects[i].refused)
                lab_out(" %*s", lab_col_width(env->subjects[i].name, 13), env->subjects[i].name);
        lab_out(" %8s %*s  %s\n", "% Improv", RANGE_WIDTH, "p10..p90", "case");

        for (size_t r = 0; r < N_ROWS; r++) {
            if (!row_selected(&rows[r], o->len, o->align))
                continue;
            lenalign_row(env, (enum lab_mode)mode, &rows[r], place(base, &rows[r]), new_s, old_s);
        }
    }
    lab_buffer_free(base, 65536 + 3 * 4096);
}
