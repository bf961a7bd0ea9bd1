/*
 * The result store and its writers: JSON (one document: machine, method, results), CSV, and
 * the Markdown report that `make bench` leaves in bench-results/.
 */
#define _GNU_SOURCE
#include "lab.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static struct lab_result *results;
static size_t n_results, cap_results;

struct lab_result *lab_result_add(const char *table, const char *impl, const char *variant,
                                  enum lab_mode mode, size_t len, size_t align,
                                  const struct lab_stats *st)
{
    if (n_results == cap_results) {
        size_t cap = cap_results ? cap_results * 2 : 256;
        struct lab_result *r = realloc(results, cap * sizeof *r);
        if (!r)
            return NULL;
        results = r;
        cap_results = cap;
    }
    struct lab_result *r = &results[n_results++];
    memset(r, 0, sizeof *r);
    snprintf(r->table, sizeof r->table, "%s", table);
    snprintf(r->impl, sizeof r->impl, "%s", impl);
    snprintf(r->variant, sizeof r->variant, "%s", variant ? variant : "");
    snprintf(r->mode, sizeof r->mode, "%s", lab_mode_name(mode));
    r->len = len;
    r->align = align;
    if (st)
        r->st = *st;
    r->bytes_per_tick = st && st->ticks_median > 0 ? (double)len / st->ticks_median : -1;
    r->gbps = st && st->ns_median > 0 ? (double)len / st->ns_median : -1;
    r->roofline_pct = -1;
    return r;
}

size_t lab_result_count(void)
{
    return n_results;
}

struct lab_result *lab_result_get(size_t i)
{
    return i < n_results ? &results[i] : NULL;
}

const char *lab_mode_name(enum lab_mode mode)
{
    switch ((int)mode) {
    case MODE_LATENCY: return "latency";
    case MODE_THROUGHPUT: return "throughput";
    case MODE_FENCED: return "fenced";
    case 0: return "distribution";
    }
    return "?";
}

/* ---- refusals: which subject was not timed at which case ------------------------------------ */

struct refusal {
    char table[16], impl[40], mode[16];
    size_t len;
};
static struct refusal *refusals;
static size_t n_refusals, cap_refusals;

void lab_refusal_add(const char *table, const char *impl, enum lab_mode mode, size_t len)
{
    if (n_refusals == cap_refusals) {
        size_t cap = cap_refusals ? cap_refusals * 2 : 64;
        struct refusal *r = realloc(refusals, cap * sizeof *r);
        if (!r)
            return;
        refusals = r;
        cap_refusals = cap;
    }
    struct refusal *r = &refusals[n_refusals++];
    snprintf(r->table, sizeof r->table, "%s", table);
    snprintf(r->impl, sizeof r->impl, "%s", impl);
    snprintf(r->mode, sizeof r->mode, "%s", lab_mode_name(mode));
    r->len = len;
}

int lab_was_refused(const char *table, const char *impl, const char *mode, size_t len)
{
    for (size_t i = 0; i < n_refusals; i++)
        if (!strcmp(refusals[i].table, table) && !strcmp(refusals[i].impl, impl) &&
            !strcmp(refusals[i].mode, mode) && refusals[i].len == len)
            return 1;
    return 0;
}

/* ---- notes -------------------------------------------------------------------------------- */

struct note {
    char table[16];
    char text[512];
};
static struct note notes[256];
static size_t n_notes, n_notes_printed;

/* Notes are printed after the table they belong to, not in the middle of a row. */
void lab_flush_notes(void)
{
    for (; n_notes_printed < n_notes; n_notes_printed++)
        lab_out("   note: %s\n", notes[n_notes_printed].text);
}

void lab_note(const char *table, const char *fmt, ...)
{
    if (n_notes == sizeof notes / sizeof notes[0])
        return;
    struct note *n = &notes[n_notes];
    snprintf(n->table, sizeof n->table, "%s", table);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof n->text, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < n_notes; i++) /* say each thing once */
        if (!strcmp(notes[i].table, n->table) && !strcmp(notes[i].text, n->text))
            return;
    n_notes++;
}

/* ---- the run: its command line and subjects, for the writers ----------------------------- */

static const struct lab_subject *run_subjects;
static size_t n_run_subjects;
static char run_command[1024] = "csum bench";

/* Appends n bytes of s to run_command, as many as fit. */
static void command_append(const char *s, size_t n)
{
    const size_t used = strlen(run_command), room = sizeof run_command - 1 - used;
    memcpy(run_command + used, s, n < room ? n : room);
    run_command[used + (n < room ? n : room)] = '\0';
}

void lab_record_command(int argc, char **argv)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                "-_.,/@=:+%";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        command_append(" ", 1);
        if (a[0] && strspn(a, plain) == strlen(a)) {
            command_append(a, strlen(a));
            continue;
        }
        /* Anything else in single quotes, as a shell reads it back. */
        command_append("'", 1);
        for (; *a; a++)
            command_append(*a == '\'' ? "'\\''" : a, *a == '\'' ? 4 : 1);
        command_append("'", 1);
    }
}

void lab_record_subjects(const struct lab_subject *s, size_t n)
{
    run_subjects = s;
    n_run_subjects = n;
}

/* ---- writers -------------------------------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* `, "key": "value"` */
static void json_field(FILE *f, const char *key, const char *value)
{
    fprintf(f, ", \"%s\": ", key);
    json_string(f, value);
}

/* Negative: not applicable or not available; not finite (a ratio to a median of 0 ticks,
 * which a clock coarser than one call gives): no number either. JSON has neither nan nor inf. */
static void json_number(FILE *f, double v)
{
    if (!(v >= 0) || !isfinite(v))
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

void lab_write_json(FILE *f, const struct lab_options *o, const struct lab_clock *clk)
{
    struct lab_machine m;
    lab_machine_describe(&m, o);
    fprintf(f, "{\n  \"machine\": {\"cpu\": ");
    json_string(f, m.cpu);
    fprintf(f, ", \"host\": ");
    json_string(f, m.host);
    fprintf(f, ", \"kernel\": ");
    json_string(f, m.kernel);
    fprintf(f, ", \"compiler\": ");
    json_string(f, m.compiler);
    fprintf(f, ", \"date\": ");
    json_string(f, m.date);
    json_field(f, "vendor", m.vendor);
    fprintf(f, ", \"family\": %d, \"model\": %d", m.family, m.model);
    json_field(f, "features", m.features);
    json_field(f, "dispatch", m.dispatch);
    json_field(f, "dispatch_source", m.dispatch_source);
    json_field(f, "copy_dispatch", m.copy_dispatch);
    json_field(f, "copy_dispatch_source", m.copy_source);
    json_field(f, "batch_dispatch", m.batch_dispatch);
    json_field(f, "batch_dispatch_source", m.batch_source);
    json_field(f, "build_type", lab_build_type());
    json_field(f, "source_revision", lab_build_source());
    json_field(f, "lib_flags", lab_build_lib_flags());
    json_field(f, "isa_flags", lab_build_isa_flags());
    json_field(f, "core_kind", m.core_kind);
    fprintf(f, ", \"cpus\": %d, \"pinned_cpu\": %d, \"l1d_bytes\": %ld, \"l2_bytes\": %ld, "
               "\"l3_bytes\": %ld,\n    \"tick\": ",
            m.cpus, m.pinned_cpu, m.l1d, m.l2, m.l3);
    json_string(f, clk->tick_name);
    fprintf(f, ", \"ticks_per_ns\": %.6f, \"tick_granularity\": %llu, \"cycles_per_tick\": %.4f, "
               "\"cycles\": ",
            clk->ticks_per_ns, (unsigned long long)clk->granularity, clk->cycles_per_tick);
    json_string(f, clk->cycles_measured ? "perf_event" : "estimated (1-cycle add chain)");
    fprintf(f, ", \"counters\": %s},\n  \"command\": ", clk->counters ? "true" : "false");
    json_string(f, run_command);
    fprintf(f, ",\n  \"method\": {\"batches\": %d, \"batch_ms\": %g, "
               "\"quick\": %s, \"noise_limit_pct\": %g, \"repeats\": %d, \"text\": [",
            o->batches, o->batch_ms, o->quick ? "true" : "false",
            100 * (o->noise_limit > 0 ? o->noise_limit : LAB_NOISE_LIMIT), o->repeats);
    for (int i = 0; lab_method_lines[i]; i++) {
        fputs(i ? ",\n    " : "\n    ", f);
        json_string(f, lab_method_lines[i]);
    }
    const struct lab_load *load = lab_load_now();
    char load_text[LAB_LOAD_TEXT_MAX];
    lab_load_describe(load, load_text, sizeof load_text);
    char steal[32] = "null";
    if (load->steal_known)
        snprintf(steal, sizeof steal, "%.1f", load->steal_ns / 1e6);
    fprintf(f, "]},\n  \"load\": {\"busy\": %s, \"wait_ms\": %.1f, \"steal_ms\": %s, "
               "\"elapsed_s\": %.1f, \"batches\": %ld, \"preempted\": %ld, \"others_running\": %.2f, "
               "\"loadavg1\": %.2f, \"text\": ",
            load->busy ? "true" : "false", load->wait_ns / 1e6, steal, load->elapsed_ns / 1e9,
            load->batches, load->preempted, load->others_running, load->loadavg1);
    json_string(f, load_text);
    fprintf(f, "},\n  \"subjects\": [");
    for (size_t i = 0; i < n_run_subjects; i++) {
        const struct lab_subject *sj = &run_subjects[i];
        fprintf(f, "%s{\"name\": ", i ? ",\n    " : "\n    ");
        json_string(f, sj->name);
        json_field(f, "origin", sj->origin);
        json_field(f, "compiler", m.compiler);
        json_field(f, "flags", sj->flags ? sj->flags : "");
        fprintf(f, ", \"refused\": %s}", sj->refused ? "true" : "false");
    }
    fprintf(f, "],\n  \"summary\": ");
    lab_write_summary_json(f);
    fprintf(f, ",\n  \"notes\": [");
    for (size_t i = 0; i < n_notes; i++) {
        fprintf(f, "%s{\"table\": ", i ? ",\n    " : "\n    ");
        json_string(f, notes[i].table);
        fprintf(f, ", \"text\": ");
        json_string(f, notes[i].text);
        fputc('}', f);
    }
    fprintf(f, "],\n  \"results\": [");
    for (size_t i = 0; i < n_results; i++) {
        const struct lab_result *r = &results[i];
        fprintf(f, "%s{\"table\": ", i ? ",\n    " : "\n    ");
        json_string(f, r->table);
        fprintf(f, ", \"impl\": ");
        json_string(f, r->impl);
        fprintf(f, ", \"variant\": ");
        json_string(f, r->variant);
        fprintf(f, ", \"mode\": ");
        json_string(f, r->mode);
        fprintf(f, ", \"len\": %zu, \"align\": %zu, \"ns_min\": ", r->len, r->align);
        json_number(f, r->st.ns_min);
        fprintf(f, ", \"ns_median\": ");
        json_number(f, r->st.ns_median);
        fprintf(f, ", \"ticks_min\": ");
        json_number(f, r->st.ticks_min);
        fprintf(f, ", \"ticks_median\": ");
        json_number(f, r->st.ticks_median);
        fprintf(f, ", \"cycles_est_median\": ");
        json_number(f, r->st.cycles_est_median);
        fprintf(f, ", \"bytes_per_tick\": ");
        json_number(f, r->bytes_per_tick);
        fprintf(f, ", \"gbps\": ");
        json_number(f, r->gbps);
        fprintf(f, ", \"roofline_pct\": ");
        json_number(f, r->roofline_pct);
        fprintf(f, ", \"instructions\": ");
        json_number(f, r->st.instructions);
        fprintf(f, ", \"branch_misses\": ");
        json_number(f, r->st.branch_misses);
        fprintf(f, ", \"ticks_p10\": ");
        json_number(f, r->st.batches ? r->st.ticks_p10 : -1);
        fprintf(f, ", \"ticks_p90\": ");
        json_number(f, r->st.batches ? r->st.ticks_p90 : -1);
        fprintf(f, ", \"spread_pct\": ");
        json_number(f, r->st.batches ? 100.0 * r->st.spread : -1);
        fprintf(f, ", \"noisy\": %s, \"batches\": %d, \"preempted\": %d, \"attempts\": %d",
                r->st.noisy ? "true" : "false", r->st.batches, r->st.preempted, r->st.attempts);
        fprintf(f, ", \"iters\": %llu, \"group\": %u", (unsigned long long)r->st.iters,
                r->st.group);
        if (r->has_dist)
            fprintf(f, ", \"dist_ns\": {\"min\": %.1f, \"avg\": %.1f, \"max\": %.1f, \"p50\": %.1f, "
                       "\"p99\": %.1f, \"p999\": %.1f}",
                    r->dist.min, r->dist.avg, r->dist.max, r->dist.p50, r->dist.p99, r->dist.p999);
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"refused\": [");
    for (size_t i = 0; i < n_refusals; i++) {
        fprintf(f, "%s{\"table\": ", i ? ",\n    " : "\n    ");
        json_string(f, refusals[i].table);
        json_field(f, "impl", refusals[i].impl);
        json_field(f, "mode", refusals[i].mode);
        fprintf(f, ", \"len\": %zu}", refusals[i].len);
    }
    fprintf(f, "\n  ]\n}\n");
}

static void csv_number(FILE *f, double v)
{
    if (v >= 0 && isfinite(v))
        fprintf(f, "%.6g", v);
}

/* A text field, quoted when it holds a comma, quote or line break (RFC 4180): the batch
 * table's variants ("mbuf, ihl 5") have commas. */
static void csv_string(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* One row per result. The machine, the clock and the date close every row (the same in all): a
 * CSV saved from `--csv` alone, or a file of several runs concatenated, still says what it was
 * measured on and in which ticks, as results.json does beside it. */
void lab_write_csv(FILE *f, const struct lab_options *o, const struct lab_clock *clk)
{
    struct lab_machine m;
    lab_machine_describe(&m, o);
    fprintf(f, "table,impl,variant,mode,len,align,ns_min,ns_median,ticks_min,ticks_median,"
               "cycles_est_median,bytes_per_tick,gbps,roofline_pct,instructions,branch_misses,"
               "dist_min_ns,dist_avg_ns,dist_max_ns,dist_p50_ns,dist_p99_ns,dist_p999_ns,"
               "ticks_p10,ticks_p90,spread_pct,noisy,cpu,clock,date\n");
    for (size_t i = 0; i < n_results; i++) {
        const struct lab_result *r = &results[i];
        const char *const text[] = { r->table, r->impl, r->variant, r->mode };
        for (size_t k = 0; k < sizeof text / sizeof text[0]; k++) {
            csv_string(f, text[k]);
            fputc(',', f);
        }
        fprintf(f, "%zu,%zu,", r->len, r->align);
        const double v[] = { r->st.ns_min, r->st.ns_median, r->st.ticks_min, r->st.ticks_median,
                             r->st.cycles_est_median, r->bytes_per_tick, r->gbps, r->roofline_pct,
                             r->st.instructions, r->st.branch_misses };
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
            csv_number(f, v[k]);
            fputc(',', f);
        }
        if (r->has_dist)
            fprintf(f, "%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,", r->dist.min, r->dist.avg, r->dist.max,
                    r->dist.p50, r->dist.p99, r->dist.p999);
        else
            fputs(",,,,,,", f);
        if (r->st.batches)
            fprintf(f, "%.6g,%.6g,%.3g,%d,", r->st.ticks_p10, r->st.ticks_p90,
                    100.0 * r->st.spread, r->st.noisy);
        else
            fputs(",,,,", f);
        const char *const about[] = { m.cpu, clk->tick_name, m.date };
        for (size_t k = 0; k < sizeof about / sizeof about[0]; k++) {
            csv_string(f, about[k]);
            fputc(k + 1 < sizeof about / sizeof about[0] ? ',' : '\n', f);
        }
    }
}

void lab_write_report(FILE *f, const struct lab_options *o, const struct lab_clock *clk,
                      const char *tables_text)
{
    struct lab_machine m;
    lab_machine_describe(&m, o);
    char load[LAB_LOAD_TEXT_MAX];
    lab_load_describe(lab_load_now(), load, sizeof load);
    fprintf(f, "# csum lab report: %s, %s run, %s\n\n", m.cpu, o->quick ? "--quick" : "full", m.date);
    /* The machine line: what a reader needs to compare this run with another. */
    fprintf(f, "**Machine:** %s · **ISA used:** csum_partial's dispatch `%s` (%s) on a CPU with "
               "%s · **compiler:** %s · **flags:** `%s` (per-file ISA flags: %s) · "
               "**build type:** %s · **source:** %s\n\n",
            m.cpu, m.dispatch, m.dispatch_source, m.features, m.compiler, lab_build_lib_flags(),
            lab_build_isa_flags(), lab_build_type(), lab_build_source());
    fprintf(f, "**Command:** `%s` · **csum_partial_copy's dispatch:** `%s` (%s) · "
               "**csum_ipv4_header_batch's:** `%s` (%s)\n\n",
            run_command, m.copy_dispatch, m.copy_source, m.batch_dispatch, m.batch_source);
    fprintf(f, "**Load:** %s%s\n\n", load,
            lab_load_now()->busy ? " — numbers from a busy machine: slower and noisier than an "
                                   "idle one (docs/METHOD.md, \"On a busy machine\")" : "");
    fprintf(f, "## Summary\n\n");
    lab_write_summary_md(f, clk->tick_name);

    fprintf(f, "## Run\n\n");
    fprintf(f, "- **Date:** %s\n- **Host:** %s (%s)\n- **CPU:** %s, %d online, pinned to %s\n",
            m.date, m.host, m.kernel, m.cpu, m.cpus, lab_pinned_text(&m));
    fprintf(f, "- **Caches:** L1d %ld KiB, L2 %ld KiB, L3 %ld KiB\n", m.l1d >> 10, m.l2 >> 10,
            m.l3 >> 10);
    fprintf(f, "- **Clock:** %s at %.3f GHz (calibrated); core ≈ %.2f GHz, %.3f cycles per tick "
               "(%s)\n",
            clk->tick_name, clk->ticks_per_ns, clk->ticks_per_ns * clk->cycles_per_tick,
            clk->cycles_per_tick, clk->cycles_measured ? "perf_event" : "est. from a 1-cycle add chain");
    fprintf(f, "- **Tick granularity:** %llu ticks (%.1f ns): the shortest step between two reads; "
               "single-call distributions are this coarse, batch timings are not\n",
            (unsigned long long)clk->granularity, (double)clk->granularity / clk->ticks_per_ns);
    fprintf(f, "- **Counters:** %s\n", clk->counters ? "perf_event (instructions, branch-misses)"
                                                      : "n/a on this machine");
    fprintf(f, "- **Run:** %s, %d batches of ≥ %g ms per measurement; a result whose p10..p90 "
               "spread exceeds %.0f %% of its median is measured again (up to %d time%s) and "
               "marked * if it stays that wide\n\n",
            o->quick ? "--quick" : "full", o->batches, o->batch_ms,
            100 * (o->noise_limit > 0 ? o->noise_limit : LAB_NOISE_LIMIT), o->repeats,
            o->repeats == 1 ? "" : "s");
    fprintf(f, "## Subjects\n\nAll compiled by %s.\n\n| subject | flags | what |\n|---|---|---|\n",
            m.compiler);
    for (size_t i = 0; i < n_run_subjects; i++) {
        const struct lab_subject *s = &run_subjects[i];
        fprintf(f, "| %s | `%s` | %s%s |\n", s->name, s->flags ? s->flags : "", s->refused ? "REFUSED: " : "",
                s->refused ? s->why : s->origin);
    }
    fprintf(f, "\nLibrary rows run the code of the build above; rows for an instruction set are "
               "compiled for exactly the CPU features it requires, shown as target(...).\n\n");
    fprintf(f, "## Method\n\n");
    for (int i = 0; lab_method_lines[i]; i++)
        fprintf(f, "- %s\n", lab_method_lines[i]);
    fprintf(f, "\n## Tables\n\n```\n%s```\n", tables_text ? tables_text : "");
}

/* The word follows the two decimals the tables print, not the unrounded ratio. */
const char *lab_ratio_word(double ratio, const struct lab_stats *a, const struct lab_stats *b)
{
    char printed[32];
    snprintf(printed, sizeof printed, "%.2f", ratio);
    if (strtod(printed, NULL) <= 1.0)
        return "";
    return a->ticks_p10 > b->ticks_p90 ? " slower" : " (within spread)";
}

int lab_col_width(const char *name, int min)
{
    const size_t n = strlen(name);
    return n > (size_t)min ? (int)n : min;
}

int lab_name_width(const struct lab_env *env, int min)
{
    int w = min;
    for (size_t i = 0; i < env->n_subjects; i++)
        if (!env->subjects[i].refused)
            w = lab_col_width(env->subjects[i].name, w);
    return w;
}

long lab_improv_pct(double old_ns, double new_ns)
{
    const double pct = 100.0 * (old_ns - new_ns) / old_ns;
    return (long)(pct < 0 ? pct - 0.5 : pct + 0.5); /* to nearest; a long has no -0 */
}

/* Ticks and ns are one clock apart (per call, the same factor), so the ticks' p10 and p90 give
 * the ns percentages too. Old's p10 is 0 when its fastest batches took no tick (-c 1 on a
 * clock coarser than a call, as ARM's generic timer is): no percentage of it. */
int lab_improv_range(const struct lab_stats *old_st, const struct lab_stats *new_st, long *lo,
                     long *hi)
{
    if (!(old_st->ticks_p10 > 0))
        return -1;
    *lo = lab_improv_pct(old_st->ticks_p10, new_st->ticks_p90);
    *hi = lab_improv_pct(old_st->ticks_p90, new_st->ticks_p10);
    return 0;
}
