/*
 * The summary a reader checks first: csum_partial (what users call) against the kernel's
 * algorithm (our linux-6.8 port) and every peer, at the headline lengths, in both modes, with
 * the ratios computed; then the targets a speed change is judged by: every length up to 256 B
 * against linux-6.8, % of the roofline, fused copy against memcpy, batch against a loop.
 * Everything is read from the result store (the sizes, copy and batch tables); a length or a
 * table that did not run is left out, never filled in, and so is a buffer off a 64-byte
 * boundary (-a, --dst-align): the targets are stated for aligned buffers.
 *
 * Ratios are csum_partial's time divided by the other's (< 1: csum_partial is faster).
 */
#include "lab.h"

#include <math.h>
#include <string.h>

static const size_t headline[] = { 40, 1500, 4096, 65536, 1048576 };
#define N_HEADLINE (sizeof headline / sizeof headline[0])
static const enum lab_mode modes[] = { MODE_LATENCY, MODE_THROUGHPUT };

static const struct lab_result *find(const char *table, const char *impl, const char *mode,
                                     size_t len, const char *variant)
{
    for (size_t i = 0; i < lab_result_count(); i++) {
        const struct lab_result *r = lab_result_get(i);
        if (!strcmp(r->table, table) && !strcmp(r->impl, impl) && !strcmp(r->mode, mode) &&
            r->len == len && r->align == 0 && (!variant || !strcmp(r->variant, variant)))
            return r;
    }
    return NULL;
}

/* Who csum_partial is compared with: linux-6.8, then every subject that is a peer. */
static size_t others(const char **out, size_t cap)
{
    size_t n = 0;
    out[n++] = "linux-6.8";
    for (size_t i = 0; lab_peers[i] && n < cap; i++)
        out[n++] = lab_peers[i]->name;
    return n;
}

static const char *len_label(size_t len, char *buf, size_t size)
{
    if (len >= 1048576 && len % 1048576 == 0)
        snprintf(buf, size, "%zu MiB", len >> 20);
    else if (len >= 4096 && len % 1024 == 0)
        snprintf(buf, size, "%zu KiB", len >> 10);
    else
        snprintf(buf, size, "%zu B", len);
    return buf;
}

/* The k-th headline row (length x mode, in order) that csum_partial was measured at; NULL past
 * the last. */
static const struct lab_result *headline_row(size_t k, size_t *len, const char **mode)
{
    for (size_t i = 0, seen = 0; i < 2 * N_HEADLINE; i++) {
        *len = headline[i / 2];
        *mode = lab_mode_name(modes[i % 2]);
        const struct lab_result *me = find("sizes", "csum_partial", *mode, *len, "");
        if (me && seen++ == k)
            return me;
    }
    return NULL;
}

/* a's ticks over b's; -1 when b has none to divide by (a median of 0 ticks). */
static double ticks_ratio(const struct lab_result *a, const struct lab_result *b)
{
    const double r = a->st.ticks_median / b->st.ticks_median;
    return b->st.ticks_median > 0 && isfinite(r) ? r : -1;
}

static void cell(FILE *f, const struct lab_result *r)
{
    if (!r)
        fprintf(f, " – |");
    else
        fprintf(f, " %.1f%s |", r->st.ticks_median, r->st.noisy ? "\\*" : "");
}

/* Worst (largest) csum_partial / linux-6.8 ratio over lengths 1..256 in one mode: from the
 * `short` table (every length) when it ran, else from sizes' lengths. */
static double worst_short(const char *mode, size_t *at, size_t *count)
{
    const char *table = find("short", "csum_partial", mode, 40, "") ? "short" : "sizes";
    double worst = -1;
    *count = 0;
    for (size_t i = 0; i < lab_result_count(); i++) {
        const struct lab_result *r = lab_result_get(i);
        if (strcmp(r->table, table) || strcmp(r->impl, "csum_partial") || strcmp(r->mode, mode) ||
            r->len < 1 || r->len > 256 || r->variant[0])
            continue;
        const struct lab_result *k = find(table, "linux-6.8", mode, r->len, "");
        const double ratio = k ? ticks_ratio(r, k) : -1;
        if (ratio < 0)
            continue;
        (*count)++;
        if (ratio > worst) {
            worst = ratio;
            *at = r->len;
        }
    }
    return worst;
}

static double copy_ratio(size_t len)
{
    const struct lab_result *c = find("copy", "csum_partial_copy", "throughput", len, "idle");
    const struct lab_result *m = find("copy", "memcpy", "throughput", len, "idle");
    return c && m && m->st.ns_median > 0 ? c->st.ns_median / m->st.ns_median : -1;
}

/* Over batch results with n >= 64: the worst batch/loop ratio and ticks per header. */
static void batch_worst(double *ratio, double *ticks)
{
    *ratio = *ticks = -1;
    for (size_t i = 0; i < lab_result_count(); i++) {
        const struct lab_result *b = lab_result_get(i);
        if (strcmp(b->table, "batch") || strcmp(b->impl, "csum_ipv4_header_batch") || b->len < 64)
            continue;
        const struct lab_result *l = find("batch", "csum_ipv4_header loop", b->mode, b->len, b->variant);
        if (l && ticks_ratio(b, l) > *ratio)
            *ratio = ticks_ratio(b, l);
        if (b->st.ticks_median > *ticks)
            *ticks = b->st.ticks_median;
    }
}

void lab_write_summary_md(FILE *f, const char *tick)
{
    const char *vs[8];
    const size_t n_vs = others(vs, 8);
    if (!find("sizes", "csum_partial", "latency", 40, NULL) &&
        !find("sizes", "csum_partial", "throughput", 40, NULL) &&
        !find("sizes", "csum_partial", "latency", 1500, NULL)) {
        fprintf(f, "No summary: the sizes table did not run with csum_partial at the headline "
                   "lengths (40 B, 1500 B, 4 KiB, 64 KiB, 1 MiB).\n\n");
    } else {
        /* The clock's own unit: TSC ticks on x86-64, CNTVCT ticks on arm64, else ns (this
         * said "TSC ticks" on every machine until 2026-11-27). */
        fprintf(f, "Median %s per call; ratio = csum_partial's median ÷ the other's (< 1: "
                   "csum_partial is faster). **latency**: each result is the next call's "
                   "initial sum (a chained `csum_partial(..., sum)`, one buffer in pieces); "
                   "**throughput**: independent calls (separate headers or packets). \\* = "
                   "spread over batches above the noise limit. %% of roofline: the same loads "
                   "with no arithmetic, from 256 B; † = above 100 %%, the sizes notes give the "
                   "measured cause.\n\n",
                tick);
        fprintf(f, "| length | mode | csum_partial |");
        for (size_t k = 0; k < n_vs; k++)
            fprintf(f, " %s | ratio |", vs[k]);
        fprintf(f, " %% of roofline |\n|---|---|---:|");
        for (size_t k = 0; k < n_vs; k++)
            fprintf(f, "---:|---:|");
        fprintf(f, "---:|\n");
        size_t len;
        const char *mode;
        const struct lab_result *me;
        int refused[8] = { 0 };
        for (size_t row = 0; (me = headline_row(row, &len, &mode)) != NULL; row++) {
            char label[24];
            fprintf(f, "| %s | %s |", len_label(len, label, sizeof label), mode);
            cell(f, me);
            for (size_t k = 0; k < n_vs; k++) {
                const struct lab_result *o = find("sizes", vs[k], mode, len, "");
                if (!o) {
                    const int wrong = lab_was_refused("sizes", vs[k], mode, len);
                    refused[k] |= wrong;
                    fprintf(f, " %s | |", wrong ? "refused (wrong sum)" : "not run");
                    continue;
                }
                cell(f, o);
                if (ticks_ratio(me, o) >= 0)
                    fprintf(f, " %.2f |", ticks_ratio(me, o));
                else
                    fprintf(f, " – |");
            }
            if (!isfinite(me->roofline_pct))
                fprintf(f, " – |\n");
            else if (me->roofline_pct > 100)
                fprintf(f, " %.0f %% † |\n", me->roofline_pct);
            else if (me->roofline_pct >= 0)
                fprintf(f, " %.0f %% |\n", me->roofline_pct);
            else
                fprintf(f, " – |\n");
        }
        fprintf(f, "\n");
        /* A refused cell says why, here and not only in the sizes notes far below: for a peer,
         * its own limit (vs[0] is linux-6.8, then lab_peers[] in order). */
        for (size_t k = 0; k < n_vs; k++) {
            if (!refused[k])
                continue;
            const struct lab_subject *peer = k > 0 ? lab_peers[k - 1] : NULL;
            fprintf(f, "%s refused (wrong sum): it disagreed with the oracle on that buffer, and "
                       "the lab times nothing that does%s%s.\n\n", vs[k],
                    peer && peer->limit ? "; " : "", peer && peer->limit ? peer->limit : "");
        }
    }

    /* The targets a speed change is judged by (each line only when its table ran). */
    int any = 0;
    for (size_t m = 0; m < 2; m++) {
        size_t at = 0, count = 0;
        double w = worst_short(lab_mode_name(modes[m]), &at, &count);
        if (w < 0)
            continue;
        if (!any++)
            fprintf(f, "Targets at a glance:\n\n");
        fprintf(f, "- 1..256 B, %s: worst csum_partial ÷ linux-6.8 = **%.2f** (at %zu B; %zu "
                   "length%s measured)\n", lab_mode_name(modes[m]), w, at, count,
                count == 1 ? "" : "s");
    }
    static const size_t copy_lens[] = { 1500, 65536 };
    for (size_t i = 0; i < 2; i++) {
        double r = copy_ratio(copy_lens[i]);
        if (r < 0)
            continue;
        if (!any++)
            fprintf(f, "Targets at a glance:\n\n");
        char label[24];
        fprintf(f, "- fused copy: csum_partial_copy ÷ memcpy at %s = **%.2f**\n",
                len_label(copy_lens[i], label, sizeof label), r);
    }
    double br, bt;
    batch_worst(&br, &bt);
    if (br >= 0) {
        if (!any++)
            fprintf(f, "Targets at a glance:\n\n");
        fprintf(f, "- batch: worst csum_ipv4_header_batch ÷ loop for n ≥ 64 = **%.2f**, worst "
                   "%.2f ticks per header\n", br, bt);
    }
    if (any)
        fprintf(f, "\n");
}

static void json_cell(FILE *f, const struct lab_result *r)
{
    if (!r) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"ticks\": %.6g, \"p10\": %.6g, \"p90\": %.6g, \"noisy\": %s}", r->st.ticks_median,
            r->st.ticks_p10, r->st.ticks_p90, r->st.noisy ? "true" : "false");
}

void lab_write_summary_json(FILE *f)
{
    const char *vs[8];
    const size_t n_vs = others(vs, 8);
    fprintf(f, "{\"ratio\": \"csum_partial ticks / other ticks\", \"against\": [");
    for (size_t k = 0; k < n_vs; k++)
        fprintf(f, "%s\"%s\"", k ? ", " : "", vs[k]);
    fprintf(f, "],\n    \"rows\": [");
    size_t len;
    const char *mode;
    const struct lab_result *me;
    for (size_t row = 0; (me = headline_row(row, &len, &mode)) != NULL; row++) {
        fprintf(f, "%s{\"len\": %zu, \"mode\": \"%s\", \"csum_partial\": ", row ? ",\n      " : "\n      ",
                len, mode);
        json_cell(f, me);
        fprintf(f, ", \"roofline_pct\": ");
        if (me->roofline_pct >= 0 && isfinite(me->roofline_pct))
            fprintf(f, "%.1f", me->roofline_pct);
        else
            fputs("null", f);
        for (size_t k = 0; k < n_vs; k++) {
            const struct lab_result *o = find("sizes", vs[k], mode, len, "");
            fprintf(f, ", \"%s\": ", vs[k]);
            json_cell(f, o);
            fprintf(f, ", \"ratio_%s\": ", vs[k]);
            /* 6 digits, here and in the targets below: rounded to 4 decimals and again by a
             * reader, 0.245017 became 0.24 where the report says 0.25 */
            if (o && ticks_ratio(me, o) >= 0)
                fprintf(f, "%.6g", ticks_ratio(me, o));
            else
                fputs("null", f);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n    \"targets\": {");
    for (size_t m = 0; m < 2; m++) {
        size_t at = 0, count = 0;
        double w = worst_short(lab_mode_name(modes[m]), &at, &count);
        fprintf(f, "\"short_%s\": ", lab_mode_name(modes[m]));
        if (w < 0)
            fputs("null, ", f);
        else
            fprintf(f, "{\"worst_ratio\": %.6g, \"at\": %zu, \"lengths\": %zu}, ", w, at, count);
    }
    double r1500 = copy_ratio(1500), r64k = copy_ratio(65536), br, bt;
    batch_worst(&br, &bt);
    const double vals[] = { r1500, r64k, br, bt };
    static const char *const names[] = { "copy_vs_memcpy_1500", "copy_vs_memcpy_65536",
                                         "batch_vs_loop_worst", "batch_ticks_per_header_worst" };
    for (size_t i = 0; i < 4; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "", names[i]);
        if (vals[i] < 0)
            fputs("null", f);
        else
            fprintf(f, "%.6g", vals[i]);
    }
    fprintf(f, "}}");
}
