/*
 * The lab's gatekeeping: an implementation that disagrees with the oracle is refused, with no
 * number printed or recorded for it — whether the quick self-check catches it, or only the
 * check on a table case's exact buffer does — and when it is libcsum's own code rather than a
 * peer's, the run fails.
 */
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csum_oracle.h"
#include "lab.h"

/* Wrong everywhere: forgets the last byte. */
static csum_wsum broken_everywhere(const void *buf, size_t len, csum_wsum sum)
{
    return csum_impl_find("generic")->partial(buf, len ? len - 1 : 0, sum);
}

/* Right everywhere the quick self-check looks, wrong at 32766 bytes (a lenalign row). */
static csum_wsum broken_at_32766(const void *buf, size_t len, csum_wsum sum)
{
    csum_wsum s = csum_impl_find("generic")->partial(buf, len, sum);
    return len == 32766 ? s + 1 : s;
}

/* Rows recorded for `impl`, in `table` (NULL: any) at `len` (0: any). */
static size_t rows_of(const char *table, const char *impl, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < lab_result_count(); i++) {
        const struct lab_result *r = lab_result_get(i);
        n += (!table || !strcmp(r->table, table)) && !strcmp(r->impl, impl) &&
             (len == 0 || r->len == len);
    }
    return n;
}

/* The group (the measurement's number) of the last result of table/impl/variant at len; 0
 * when there is none. */
static unsigned group_of(const char *table, const char *impl, const char *variant, size_t len)
{
    unsigned group = 0;
    for (size_t i = 0; i < lab_result_count(); i++) {
        const struct lab_result *r = lab_result_get(i);
        if (!strcmp(r->table, table) && !strcmp(r->impl, impl) && !strcmp(r->variant, variant) &&
            r->len == len)
            group = r->st.group;
    }
    return group;
}

static size_t results_for(const char *impl, size_t len)
{
    return rows_of(NULL, impl, len);
}

/* A table run quietly and quickly: two short batches, latency mode, every alignment and count
 * left to the table. */
static void quick_table_options(struct lab_options *o)
{
    memset(o, 0, sizeof *o);
    o->quick = 1;
    o->batches = 2;
    o->batch_ms = 0.02;
    o->align = -1;
    o->count = -1;
    o->modes = MODE_LATENCY;
}

/* Options for one lab_measure of a test: quick, `batches` batches of `batch_ms`, `repeats`. */
static void measure_options(struct lab_options *o, int batches, double batch_ms, int repeats)
{
    memset(o, 0, sizeof *o);
    o->quick = 1;
    o->batches = batches;
    o->batch_ms = batch_ms;
    o->count = -1;
    o->repeats = repeats;
}

void test_lab_refuses_wrong(struct test_ctx *t)
{
    struct lab_subject subjects[3];
    lab_subject_init(&subjects[0], "broken-everywhere", "test", broken_everywhere);
    lab_subject_init(&subjects[1], "broken-at-32766", "test", broken_at_32766);
    lab_subject_init(&subjects[2], "generic", "test", csum_impl_find("generic")->partial);
    CHECK(t, subjects[0].refused && strstr(subjects[0].why, "oracle"),
          "the self-check accepted an implementation that drops the last byte");
    CHECK(t, !subjects[1].refused, "broken-at-32766 should pass the quick self-check");
    CHECK(t, !subjects[2].refused, "the self-check refused generic: %s", subjects[2].why);

    /* Run the real lenalign table on the two 32 KiB-ish rows, quietly and quickly. */
    struct lab_options o;
    quick_table_options(&o);
    o.len = 32766;
    o.baseline = "generic";
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    struct lab_env env = { .o = &o, .clk = &clk, .subjects = subjects, .n_subjects = 3 };
    lab_machine_describe(&env.machine, &o);

    /* First as a peer's (another project's) limit: a note, and the run still succeeds. */
    subjects[1].peer = 1;
    table_lenalign(&env);
    lab_flush_notes();
    CHECK(t, results_for("broken-everywhere", 0) == 0, "numbers recorded for a refused subject");
    CHECK(t, results_for("broken-at-32766", 32766) == 0,
          "numbers recorded for a subject that is wrong on the case's buffer");
    CHECK(t, results_for("generic", 32766) == 1, "generic was not timed (%zu rows)",
          results_for("generic", 32766));
    CHECK(t, !lab_failed(), "a peer's wrong sum failed the run");

    /* Then as libcsum's own: a bug, and the run fails (csum bench exits 1). Its message to
     * stderr is expected here and kept out of the test log. */
    subjects[1].peer = 0;
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, 2);
    table_lenalign(&env);
    lab_flush_notes();
    fflush(stderr);
    if (saved >= 0 && null >= 0)
        dup2(saved, 2);
    if (saved >= 0)
        close(saved);
    if (null >= 0)
        close(null);
    CHECK(t, results_for("broken-at-32766", 32766) == 0, "numbers recorded for a wrong own subject");
    CHECK(t, lab_failed(), "a wrong sum from libcsum's own code did not fail the run");
}

/* Right at the self-check, then wrong on one table's case once `sabotage` is set: at one
 * length, or at odd addresses. Each table must check the exact buffers it times. */
static int sabotage;
static size_t sabotage_len;     /* wrong at this length (0: none) */
static int sabotage_odd_address; /* wrong at odd addresses */

static csum_wsum wrong_on_case(const void *buf, size_t len, csum_wsum sum)
{
    csum_wsum s = csum_impl_find("generic")->partial(buf, len, sum);
    int wrong = sabotage && ((sabotage_len && len == sabotage_len) ||
                             (sabotage_odd_address && ((uintptr_t)buf & 1)));
    return wrong ? s + 1 : s;
}

static size_t rows_in(const char *table, const char *impl)
{
    return rows_of(table, impl, 0);
}

/* sizes (an odd length), mixed (one length inside two ranges), thrash (its second case) and
 * h40 (the odd address): a subject wrong there gets no row in that table, the refusal is
 * recorded (the JSON's "refused" list, the summary's "refused (wrong sum)"), and the subject
 * it is timed beside still gets its rows. */
void test_lab_refuses_each_table(struct test_ctx *t)
{
    struct lab_subject subjects[2];
    sabotage = 0;
    lab_subject_init(&subjects[0], "wrong-on-case", "test", wrong_on_case);
    lab_subject_init(&subjects[1], "generic", "test", csum_impl_find("generic")->partial);
    CHECK(t, !subjects[0].refused && !subjects[1].refused, "the self-check refused: %s %s",
          subjects[0].why, subjects[1].why);
    subjects[0].peer = 1; /* a note, not a failed run: the refusal is what is tested here */
    sabotage = 1;

    struct lab_options o;
    quick_table_options(&o);
    o.only_impls = "wrong-on-case,generic";
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    struct lab_env env = { .o = &o, .clk = &clk, .subjects = subjects, .n_subjects = 2 };
    lab_machine_describe(&env.machine, &o);

    o.len = 1501;
    sabotage_len = 1501;
    sabotage_odd_address = 0;
    table_sizes(&env);
    CHECK(t, rows_in("sizes", "wrong-on-case") == 0 && rows_in("sizes", "generic") == 1,
          "sizes -l 1501: %zu rows for the wrong subject, %zu for generic",
          rows_in("sizes", "wrong-on-case"), rows_in("sizes", "generic"));
    CHECK(t, lab_was_refused("sizes", "wrong-on-case", "latency", 1501),
          "the refusal at 1501 bytes is not recorded");

    o.len = -1;
    sabotage_len = 100; /* in 1..256 and 64..1518, not in 1..64 */
    table_mixed(&env);
    CHECK(t, rows_in("mixed", "wrong-on-case") == 2 && rows_in("mixed", "generic") == 6,
          "mixed: %zu rows for a subject wrong at 100 bytes (want 1..64's two), %zu for generic",
          rows_in("mixed", "wrong-on-case"), rows_in("mixed", "generic"));

    sabotage_len = 24; /* thrash's second case */
    table_thrash(&env);
    CHECK(t, rows_in("thrash", "wrong-on-case") == 0 && rows_in("thrash", "generic") == 3,
          "thrash: %zu rows for a subject wrong on its 24-byte case, %zu for generic",
          rows_in("thrash", "wrong-on-case"), rows_in("thrash", "generic"));

    sabotage_len = 0;
    sabotage_odd_address = 1;
    table_h40(&env);
    size_t odd = 0;
    for (size_t i = 0; i < lab_result_count(); i++) {
        const struct lab_result *r = lab_result_get(i);
        odd += !strcmp(r->table, "h40") && !strcmp(r->impl, "wrong-on-case") && (r->align & 1);
    }
    CHECK(t, odd == 0 && rows_in("h40", "generic") >= 2,
          "h40: %zu odd-address rows for a subject wrong there, %zu rows for generic", odd,
          rows_in("h40", "generic"));
    CHECK(t, lab_was_refused("h40", "wrong-on-case", "latency", 40),
          "the refusal at h40's odd address is not recorded");
    lab_flush_notes();
    sabotage = 0;
}

/* Memory operations that get one byte wrong: the last one left alone, or (the fused copy) a
 * sum one off. */
static void zero_short(void *dst, const void *src, size_t len)
{
    (void)src;
    memset(dst, 0, len - 1);
}

static void copy_short(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len - 1);
}

static csum_wsum fused_sum_off(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return csum_add(csum_partial_copy(dst, src, len, sum), 1);
}

static csum_wsum fused_copy_short(void *dst, const void *src, size_t len, csum_wsum sum)
{
    csum_wsum r = csum_partial(src, len, sum);
    memcpy(dst, src, len - 1);
    return r;
}

/* memops and copy time an operation only once it did its job on the buffer it is timed on
 * (lab_memop_is_correct): every operation of the lab passes, each way of being wrong fails. */
void test_lab_memops_checked(struct test_ctx *t)
{
    enum { LEN = 1501, ROOM = LEN + 64 };
    static unsigned char src[ROOM], dst[ROOM];
    for (size_t i = 0; i < ROOM; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    const unsigned char *s = src + 3;
    const uint16_t want = oracle_checksum(s, LEN, 0);
    lab_registry_init();
    size_t n = 0;
    for (size_t i = 0; lab_memops[i]; i++, n++)
        CHECK(t, lab_memop_is_correct(lab_memops[i], dst + 5, s, LEN, want),
              "the lab's %s refused", lab_memops[i]->name);
    CHECK(t, n > 0, "no memory operations to check");
    const struct lab_memop wrong[] = {
        { "zero-short", "test", MEMOP_ZERO, zero_short, NULL },
        { "copy-short", "test", MEMOP_COPY, copy_short, NULL },
        { "fused-sum-off", "test", MEMOP_CSUM_COPY, NULL, fused_sum_off },
        { "fused-copy-short", "test", MEMOP_CSUM_COPY, NULL, fused_copy_short },
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
        CHECK(t, !lab_memop_is_correct(&wrong[i], dst + 5, s, LEN, want), "%s was not refused",
              wrong[i].name);
}

/* The summary from results with known numbers: each ratio is csum_partial's ticks over the
 * other's, a noisy median carries its \*, % of roofline is the row's, and the unit is the
 * run's clock (it said TSC ticks on arm64 too); the targets at a glance take the worst ratio
 * over the lengths each names. */
void test_lab_summary(struct test_ctx *t)
{
    struct lab_stats me, k;
    memset(&me, 0, sizeof me);
    memset(&k, 0, sizeof k);
    me.ticks_median = 30;
    me.noisy = 1;
    me.batches = k.batches = 5;
    k.ticks_median = 120;
    struct lab_result *r = lab_result_add("sizes", "csum_partial", "", MODE_LATENCY, 1500, 0, &me);
    if (r)
        r->roofline_pct = 62;
    lab_result_add("sizes", "linux-6.8", "", MODE_LATENCY, 1500, 0, &k);
    /* The batch target: the worst batch ÷ loop ratio and the worst ticks per header over
     * n >= 64 only (n = 16 is worse in both here and must not count). */
    static const struct { size_t n; double loop, batch; } batch_rows[] = {
        { 16, 10, 40 }, { 64, 10, 15 }, { 128, 40, 20 }, { 256, 10, 5 },
    };
    for (size_t i = 0; i < sizeof batch_rows / sizeof batch_rows[0]; i++) {
        struct lab_stats lst = k, bst = k;
        lst.ticks_median = batch_rows[i].loop;
        bst.ticks_median = batch_rows[i].batch;
        lab_result_add("batch", "csum_ipv4_header loop", "mbuf, ihl 5", MODE_THROUGHPUT,
                       batch_rows[i].n, 0, &lst);
        lab_result_add("batch", "csum_ipv4_header_batch", "mbuf, ihl 5", MODE_THROUGHPUT,
                       batch_rows[i].n, 0, &bst);
    }
    /* The 1..256 B target: the worst csum_partial ÷ linux-6.8 over the short table's lengths
     * when it ran (sizes' 64 B, worse, is not one of them), 256 included, 257 not. */
    static const struct { const char *table; size_t len; double me, them; } short_rows[] = {
        { "short", 1, 10, 20 }, { "short", 40, 18, 20 }, { "short", 256, 24, 20 },
        { "short", 257, 60, 20 }, { "sizes", 64, 40, 20 },
    };
    for (size_t i = 0; i < sizeof short_rows / sizeof short_rows[0]; i++) {
        struct lab_stats mst = k, lst = k;
        mst.ticks_median = short_rows[i].me;
        lst.ticks_median = short_rows[i].them;
        lab_result_add(short_rows[i].table, "csum_partial", "", MODE_LATENCY, short_rows[i].len, 0,
                       &mst);
        lab_result_add(short_rows[i].table, "linux-6.8", "", MODE_LATENCY, short_rows[i].len, 0,
                       &lst);
    }
    /* ... and in throughput mode over one length (-l): "1 length", not "1 lengths" */
    struct lab_stats one_me = k, one_them = k;
    one_me.ticks_median = 10;
    one_them.ticks_median = 20;
    lab_result_add("short", "csum_partial", "", MODE_THROUGHPUT, 40, 0, &one_me);
    lab_result_add("short", "linux-6.8", "", MODE_THROUGHPUT, 40, 0, &one_them);
    char text[8192] = "";
    FILE *f = tmpfile();
    if (f) {
        lab_write_summary_md(f, "CNTVCT ticks"); /* an arm64 run's clock */
        fputc('\n', f);
        lab_write_summary_json(f);
        rewind(f);
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    const char *row = strstr(text, "| 1500 B | latency |");
    char line[256] = "";
    if (row)
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row, "\n"), row);
    CHECK(t, strstr(line, "| 1500 B | latency | 30.0\\* | 120.0 | 0.25 |") == line,
          "summary row: '%s', want csum_partial 30.0\\* (noisy), linux-6.8 120.0, ratio 0.25", line);
    CHECK(t, strstr(line, "| 62 % |") != NULL, "summary row: '%s', want 62 %% of roofline", line);
    CHECK(t, strstr(text, "Median CNTVCT ticks per call") && !strstr(text, "TSC"),
          "summary of a run timed in CNTVCT ticks: '%.80s'", text);
    const char *ratio = strstr(text, "\"ratio_linux-6.8\": 0.25");
    const char after = ratio ? ratio[strlen("\"ratio_linux-6.8\": 0.25")] : '0';
    CHECK(t, (after == ',' || after == '}') && /* 0.25 exactly, not 0.2500 */
                 strstr(text, "\"ticks\": 30, \"p10\": 0, \"p90\": 0, \"noisy\": true") != NULL,
          "summary JSON: %s", strstr(text, "{\"ratio\"") ? strstr(text, "{\"ratio\"") : text);
    CHECK(t, strstr(text, "worst csum_ipv4_header_batch ÷ loop for n ≥ 64 = **1.50**, worst 20.00 "
                          "ticks per header") != NULL &&
                 strstr(text, "\"batch_vs_loop_worst\": 1.5, "
                              "\"batch_ticks_per_header_worst\": 20}") != NULL,
          "summary batch target: want 1.50 (n = 64) and 20 ticks (n = 128): %s",
          strstr(text, "- batch:") ? strstr(text, "- batch:") : text);
    CHECK(t, strstr(text, "- 1..256 B, latency: worst csum_partial ÷ linux-6.8 = **1.20** (at 256 B; "
                          "3 lengths measured)\n") != NULL,
          "summary short target: want 1.20 at 256 B over 3 lengths: %s",
          strstr(text, "- 1..256") ? strstr(text, "- 1..256") : text);
    CHECK(t, strstr(text, "- 1..256 B, throughput: worst csum_partial ÷ linux-6.8 = **0.50** (at "
                          "40 B; 1 length measured)\n") != NULL,
          "summary short target over one length: %s",
          strstr(text, "- 1..256 B, throughput") ? strstr(text, "- 1..256 B, throughput") : text);
}

/* Whether `text` has a number that is not one: nan or inf after a ':' (JSON) or a ',' (CSV). */
static const char *non_finite(const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p != ':' && *p != ',')
            continue;
        const char *v = p + 1 + (p[1] == ' ');
        v += *v == '-';
        if (!strncmp(v, "nan", 3) || !strncmp(v, "inf", 3))
            return p;
    }
    return NULL;
}

/* A median of 0 ticks (a clock coarser than the call: arm64's 24 MHz CNTVCT under -c 1) and
 * what is computed from it: the JSON stays JSON (null, not nan or inf), the CSV leaves the
 * cell empty, in the results and the summary alike. */
void test_lab_output_finite(struct test_ctx *t)
{
    struct lab_stats zero;
    memset(&zero, 0, sizeof zero);
    zero.batches = 3;
    lab_result_add("sizes", "csum_partial", "", MODE_THROUGHPUT, 40, 0, &zero);
    lab_result_add("sizes", "linux-6.8", "", MODE_THROUGHPUT, 40, 0, &zero);
    struct lab_result *r = lab_result_add("sizes", "zero-ticks", "", MODE_THROUGHPUT, 4096, 0, &zero);
    if (r) {
        r->roofline_pct = 100.0 * 26.0 / r->st.ticks_median; /* as table_sizes computes it */
        r->bytes_per_tick = 4096.0 / r->st.ticks_median;
        r->gbps = 0.0 / r->st.ns_median;
    }
    struct lab_options o;
    memset(&o, 0, sizeof o);
    o.batches = 3;
    o.batch_ms = 1;
    struct lab_clock clk;
    memset(&clk, 0, sizeof clk);
    clk.tick_name = "TSC ticks";
    clk.ticks_per_ns = 1;
    clk.granularity = 1;
    clk.cycles_per_tick = 1;
    static char text[1 << 20];
    for (int csv = 0; csv < 2; csv++) {
        text[0] = '\0';
        FILE *f = tmpfile();
        if (f) {
            if (csv)
                lab_write_csv(f, &o, &clk);
            else
                lab_write_json(f, &o, &clk);
            rewind(f);
            text[fread(text, 1, sizeof text - 1, f)] = '\0';
            fclose(f);
        }
        const char *bad = non_finite(text);
        CHECK(t, text[0] && !bad, "%s: a number that is not one: '%.60s'", csv ? "CSV" : "JSON",
              bad ? bad : "(no output)");
    }
}

/* Records the initial sum of every call; returns something new each time. */
static csum_wsum seen[4];
static size_t n_seen;
static csum_wsum record_sum(const void *buf, size_t len, csum_wsum sum)
{
    (void)buf;
    (void)len;
    if (n_seen < 4)
        seen[n_seen++] = sum;
    return sum * 3 + 1;
}

/* Latency mode chains each call's result into the next call's sum (else it times
 * throughput); throughput and fenced calls are independent (else they time latency). */
void test_lab_bodies(struct test_ctx *t)
{
    unsigned char buf[8] = { 0 };
    struct lab_csum_case c = { record_sum, buf, sizeof buf, 5 };
    n_seen = 0;
    lab_csum_body(MODE_LATENCY)(&c, 4);
    CHECK(t, n_seen == 4 && seen[0] == 5 && seen[1] == 16 && seen[2] == 49 && seen[3] == 148,
          "latency: the calls' sums were %u %u %u %u, want 5 16 49 148 (each the last result)",
          (unsigned)seen[0], (unsigned)seen[1], (unsigned)seen[2], (unsigned)seen[3]);
    static const enum lab_mode independent[] = { MODE_THROUGHPUT, MODE_FENCED };
    for (size_t m = 0; m < 2; m++) {
        n_seen = 0;
        lab_csum_body(independent[m])(&c, 4);
        CHECK(t, n_seen == 4 && seen[0] == 5 && seen[1] == 5 && seen[2] == 5 && seen[3] == 5,
              "%s: the calls' sums were %u %u %u %u, want 5 every time", lab_mode_name(independent[m]),
              (unsigned)seen[0], (unsigned)seen[1], (unsigned)seen[2], (unsigned)seen[3]);
    }
}

/* Fixed work for a test body: n increments the compiler must do one by one. */
static uint64_t count_to(uint64_t n)
{
    volatile uint64_t x = 0;
    for (uint64_t i = 0; i < n; i++)
        x = x + 1;
    return x;
}

/* A body whose calls alternate between 1 and 4 units of work: batch times 4x apart. */
static unsigned long uneven_calls;
static uint64_t body_uneven(const void *ctx, uint64_t iters)
{
    (void)ctx;
    const uint64_t units = (uneven_calls++ & 1) ? 4 : 1;
    return count_to(iters * units * 16);
}

/* The noise flag: set when the spread stays above the limit after the repeats, every repeat
 * made; not set under a limit (--noise) wider than the spread. */
void test_lab_noise_flag(struct test_ctx *t)
{
    struct lab_options o;
    measure_options(&o, 9, 0.05, 2);
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    struct lab_stats st;
    lab_measure(&o, &clk, body_uneven, NULL, &st);
    CHECK(t, st.spread > 0.5 && st.noisy && st.attempts == 3,
          "batches 4x apart: spread %g, noisy %d after %d attempts (want noisy after 3)", st.spread,
          st.noisy, st.attempts);
    o.noise_limit = 1000; /* 100,000 %: wider than any spread here */
    lab_measure(&o, &clk, body_uneven, NULL, &st);
    CHECK(t, !st.noisy && st.attempts == 1, "under a limit of 100000 %%: noisy %d, %d attempts",
          st.noisy, st.attempts);
}

/* A subject of test_lab_best_attempt: attempt k's three batches (through the test seam
 * lab_test_batch_ticks) are 1000 k x (1 - w[k], 1, 1 + w[k]) ticks: a median of 1000 k names
 * the attempt, and the spread, (p90 - p10) / median, is 1.6 w[k]. */
enum { FAKE_BATCHES = 3, FAKE_ATTEMPTS = 3 };
static struct fake_subject {
    double w[FAKE_ATTEMPTS];
    int calls;
} fake[2];
static double fake_batch_ticks(const void *ctx)
{
    struct fake_subject *f = &fake[(const struct fake_subject *)ctx - fake]; /* not const */
    const int attempt = f->calls / FAKE_BATCHES, batch = f->calls % FAKE_BATCHES;
    f->calls++;
    const double median = 1000.0 * (attempt + 1), w = f->w[attempt < FAKE_ATTEMPTS ? attempt : 0];
    return median * (1 + (batch - 1) * w);
}
static uint64_t body_cheap(const void *ctx, uint64_t iters)
{
    (void)ctx;
    return count_to(iters);
}

/* A group repeated for noise keeps the attempt whose widest spread is the smallest (not the
 * first, nor the last, nor the widest), and every subject's numbers come from that attempt,
 * even a subject whose own spread was smaller in another one. */
void test_lab_best_attempt(struct test_ctx *t)
{
    struct lab_options o;
    measure_options(&o, FAKE_BATCHES, 0.01, FAKE_ATTEMPTS - 1);
    o.noise_limit = 0.05; /* below every spread here: all three attempts are made */
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    /* Widest spread per attempt: 0.8, 0.48, 1.6; subject 1 alone would pick attempt 3. */
    fake[0] = (struct fake_subject){ { 0.5, 0.3, 1.0 }, 0 };
    fake[1] = (struct fake_subject){ { 0.2, 0.25, 0.1 }, 0 };
    const lab_body_fn body[2] = { body_cheap, body_cheap };
    const void *const ctx[2] = { &fake[0], &fake[1] };
    struct lab_stats st[2];
    lab_test_batch_ticks = fake_batch_ticks;
    lab_measure_group(&o, &clk, 2, body, ctx, st);
    lab_test_batch_ticks = NULL;
    CHECK(t, fake[0].calls == FAKE_BATCHES * FAKE_ATTEMPTS && fake[1].calls == fake[0].calls,
          "%d and %d batches timed, want %d each (3 attempts)", fake[0].calls, fake[1].calls,
          FAKE_BATCHES * FAKE_ATTEMPTS);
    for (int j = 0; j < 2; j++)
        CHECK(t, st[j].ticks_median == 2000 && st[j].attempts == 3 && st[j].noisy,
              "subject %d: median %g (attempt %g kept, want 2: its widest spread is the "
              "smallest), %d attempts, noisy %d", j, st[j].ticks_median,
              st[j].ticks_median / 1000, st[j].attempts, st[j].noisy);
    CHECK(t, st[0].spread > 0.479 && st[0].spread < 0.481 && st[1].spread > 0.399 &&
                 st[1].spread < 0.401,
          "spreads %g and %g, want 0.48 and 0.4 (attempt 2's)", st[0].spread, st[1].spread);
}

/* The spread statistics every result carries: p10, median, p90 over the batches. */
void test_lab_spread(struct test_ctx *t)
{
    double v[11] = { 10, 19, 11, 12, 13, 14, 15, 16, 17, 18, 30 }; /* unsorted, one outlier */
    struct lab_stats st;
    memset(&st, 0, sizeof st);
    lab_stats_from_batches(v, 11, &st);
    CHECK(t, st.batches == 11 && st.ticks_min == 10 && st.ticks_median == 15,
          "min/median: %g/%g over %d", st.ticks_min, st.ticks_median, st.batches);
    CHECK(t, st.ticks_p10 == 11 && st.ticks_p90 == 19, "p10/p90: %g/%g", st.ticks_p10, st.ticks_p90);
    CHECK(t, st.spread > 0.533 && st.spread < 0.534, "spread %g, want (19 - 11) / 15", st.spread);

    double even[4] = { 4, 1, 3, 2 };
    lab_stats_from_batches(even, 4, &st);
    CHECK(t, st.ticks_median == 2.5 && st.ticks_p10 > 1.29 && st.ticks_p10 < 1.31,
          "interpolated: median %g p10 %g", st.ticks_median, st.ticks_p10);

    /* Single-call distributions (copy) take the same quantiles: of an even count, the median
     * is the mean of the middle two. */
    double calls[4] = { 40, 10, 30, 20 };
    struct lab_distribution d;
    lab_distribution_from(calls, 4, &d);
    CHECK(t, d.min == 10 && d.max == 40 && d.avg == 25 && d.p50 == 25,
          "distribution min/max/avg/p50: %g/%g/%g/%g", d.min, d.max, d.avg, d.p50);
    CHECK(t, d.p99 > 39.6 && d.p99 < 39.8 && d.p999 > 39.96 && d.p999 < 39.98,
          "distribution p99/p99.9 interpolated: %g/%g", d.p99, d.p999);
    /* The pcap table's median of two runs of a command: their mean. */
    CHECK(t, lab_quantile((const double[]){ 1.0, 3.0 }, 2, 0.5) == 2.0 &&
                 lab_quantile((const double[]){ 5.0 }, 1, 0.5) == 5.0,
          "lab_quantile: median of two, of one");

    /* A real measurement: the quantiles bracket the median, every batch is counted. */
    struct lab_options o;
    measure_options(&o, 7, 0.02, 1);
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    unsigned char buf[256];
    memset(buf, 0x5a, sizeof buf);
    struct lab_csum_case c = { csum_impl_find("generic")->partial, buf, sizeof buf, 0 };
    lab_measure(&o, &clk, lab_csum_body(MODE_THROUGHPUT), &c, &st);
    CHECK(t, st.batches == 7 && st.attempts >= 1 && st.attempts <= 2, "batches %d attempts %d",
          st.batches, st.attempts);
    CHECK(t, st.ticks_p10 <= st.ticks_median && st.ticks_median <= st.ticks_p90 && st.ticks_min > 0,
          "p10 %g median %g p90 %g", st.ticks_p10, st.ticks_median, st.ticks_p90);
    CHECK(t, st.noisy == (st.spread > LAB_NOISE_LIMIT), "noisy flag %d for spread %g", st.noisy,
          st.spread);
}

/* Simulated clocks for the calibration: 2.5 ticks per ns, each read costing 20 ns, and one
 * delay (a preemption) of 3 ms right after read number `delay_after` of either clock. */
static double sim_ns;
static long sim_reads, delay_after;

static void sim_read_done(void)
{
    sim_ns += 20;
    if (++sim_reads == delay_after)
        sim_ns += 3e6;
}

static double sim_clock_ns(void)
{
    double v = sim_ns;
    sim_read_done();
    return v;
}

static uint64_t sim_ticks(void)
{
    uint64_t v = (uint64_t)(sim_ns * 2.5);
    sim_read_done();
    return v;
}

/* A preemption at any point of the calibration, at the edges of a window above all, must not
 * move ticks per ns: the lab keeps the smallest rate of three windows, so a delay may only
 * ever raise a window's rate. */
void test_lab_clock(struct test_ctx *t)
{
    /* Reads 1 and 2 start the first window (one of each clock); it ends after 10 ms / 20 ns =
     * 500,000 more reads, so 500,002-500,005 are its end and the second window's start. */
    static const long delays[] = { 0, 1, 2, 3, 250000, 500002, 500003, 500004, 500005 };
    for (size_t i = 0; i < sizeof delays / sizeof delays[0]; i++) {
        sim_ns = 1e9;
        sim_reads = 0;
        delay_after = delays[i];
        double v = lab_calibrate_ticks_per_ns(sim_clock_ns, sim_ticks, 10e6, 3);
        CHECK(t, v > 2.5 * 0.9999 && v < 2.5 * 1.0001,
              "a preemption after read %ld: %.6f ticks per ns, want 2.5", delays[i], v);
    }
}

/* The machine's CPU as /proc/cpuinfo gives it, written to a temporary file. */
static void cpu_from(struct lab_machine *m, const char *cpuinfo)
{
    FILE *f = tmpfile();
    if (f) {
        fputs(cpuinfo, f);
        rewind(f);
    }
    memset(m, 0, sizeof *m);
    lab_machine_cpu(m, f);
    if (f)
        fclose(f);
}

/* Every run names the core it ran on (a report's machine line, the folder `make results`
 * files it under): x86 by name, family and model; arm64 Linux prints no name at all for a
 * 64-bit process, only the MIDR fields (arch/arm64/kernel/cpuinfo.c), which must pin it. */
void test_lab_cpuinfo(struct test_ctx *t)
{
    struct lab_machine m;
    cpu_from(&m, "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
                 "model name\t: AMD EPYC 9R14\nflags\t\t: fpu avx2\n");
    CHECK(t, !strcmp(m.cpu, "AMD EPYC 9R14 (family 25 model 17)") && m.family == 25 &&
                 m.model == 17 && !strcmp(m.vendor, "AuthenticAMD"),
          "x86-64: cpu '%s', vendor '%s', family %d, model %d", m.cpu, m.vendor, m.family, m.model);
    static const char neoverse_v1[] =
        "processor\t: 0\nBogoMIPS\t: 2100.00\nFeatures\t: fp asimd evtstrm aes pmull sha1\n"
        "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd40\n"
        "CPU revision\t: 1\n\n"
        "processor\t: 1\nBogoMIPS\t: 2100.00\nFeatures\t: fp asimd evtstrm aes pmull sha1\n"
        "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd40\n"
        "CPU revision\t: 1\n\n";
    cpu_from(&m, neoverse_v1);
    CHECK(t, strstr(m.cpu, "implementer 0x41 part 0xd40") != NULL,
          "arm64: cpu '%s' does not name the core (implementer 0x41, part 0xd40)", m.cpu);
    CHECK(t, m.family == -1 && m.model == -1, "arm64: family %d model %d, want none", m.family,
          m.model);
    char other[sizeof neoverse_v1]; /* the same listing for a Neoverse N1: part 0xd0c */
    snprintf(other, sizeof other, "%s", neoverse_v1);
    for (char *p = other; (p = strstr(p, "0xd40")) != NULL; p++)
        memcpy(p + 3, "0c", 2);
    struct lab_machine n1;
    cpu_from(&n1, other);
    CHECK(t, strcmp(m.cpu, n1.cpu) != 0, "arm64: two different cores both called '%s'", m.cpu);
}

/* csum tune's choice, from made-up measurements of two rows over its whole ladder: row 0 takes
 * `a` ticks per call in each mode, row 1 the same times `late` from point `from` on and
 * `early` before it (latency), with `tp` applied to its throughput instead where tp > 0. */
static int tune_choice(double early, double late, size_t from, double tp, double spread,
                       size_t *row, size_t *len)
{
    const size_t *ladder;
    const size_t n = lab_tune_ladder(&ladder);
    static double median[64 * 2 * 2], spreads[64 * 2 * 2];
    for (size_t l = 0; l < n && l < 64; l++)
        for (size_t m = 0; m < 2; m++) {
            const double a = 100 + (double)l; /* ticks: one cycle is far below 3 % of it */
            median[(l * 2 + 0) * 2 + m] = a;
            median[(l * 2 + 1) * 2 + m] = a * (m == 1 && tp > 0 ? tp : l >= from ? late : early);
            spreads[(l * 2 + 0) * 2 + m] = spreads[(l * 2 + 1) * 2 + m] = spread;
        }
    return lab_tune_choose(median, spreads, 2, 1.0, row, len);
}

/* A range is kept only for a win beyond the noise (3 %, or the measured spread), and a row's
 * cost at a length is its worse mode; a win beyond both gives a second range. */
void test_lab_tune_choice(struct test_ctx *t)
{
    size_t row[4], len[4];
    const size_t *ladder;
    const size_t points = lab_tune_ladder(&ladder);
    /* A point on each side of the step in x86-scalar's cost where its inline path ends: a cut
     * at the next point above 256 would leave the lengths before it to the slower loop. */
    size_t at256 = 0;
    while (at256 + 1 < points && ladder[at256] != 256)
        at256++;
    CHECK(t, ladder[at256] == 256 && ladder[at256 + 1] == 257,
          "the ladder has 256 and 257 next to each other (found %zu, %zu)", ladder[at256],
          ladder[at256 + 1 < points ? at256 + 1 : at256]);
    int n = tune_choice(1.10, 0.50, 20, 0, 0.01, row, len);
    CHECK(t, n == 2 && row[0] == 0 && row[1] == 1 && len[0] == 0 && len[1] == ladder[20],
          "row 1 twice as fast from %zu bytes: %d ranges, first %zu@%zu", ladder[20], n, row[0], len[0]);
    n = tune_choice(1.10, 0.98, 20, 0, 0.01, row, len);
    CHECK(t, n == 1 && row[0] == 0, "a 2 %% win (under 3 %%): %d ranges, row %zu first", n, row[0]);
    n = tune_choice(1.10, 0.90, 20, 0, 0.20, row, len);
    CHECK(t, n == 1 && row[0] == 0, "a 10 %% win under a 20 %% spread: %d ranges, row %zu first", n,
          row[0]);
    n = tune_choice(0.60, 0.60, 0, 3.0, 0.01, row, len);
    CHECK(t, n == 1 && row[0] == 0,
          "row 1 faster in latency, 3x slower in throughput: %d ranges, row %zu first", n, row[0]);
}

/* csum tune --write's refusal: a new plan is called slower only beyond the noise of both plans'
 * measurements (at least 3 %) and by more than one core cycle, and then always (a verdict that
 * called every length SLOWER, or none, passed every other test). */
void test_lab_tune_slower(struct test_ctx *t)
{
    static const struct {
        double now[3], candidate[3], one_cycle;
        int slower;
        const char *what;
    } cases[] = {
        { { 100, 100, 100 }, { 100, 100, 100 }, 1, 0, "the same times" },
        { { 100, 101, 99 }, { 99, 100, 101 }, 1, 0, "the same within 2 %" },
        { { 100, 100, 100 }, { 90, 90, 90 }, 1, 0, "faster" },
        { { 100, 100, 100 }, { 110, 110, 110 }, 1, 1, "10 % slower, no spread" },
        { { 100, 101, 100 }, { 110, 111, 110 }, 1, 1, "10 % slower, 1 % spread" },
        { { 100, 100, 100 }, { 102, 102, 102 }, 1, 0, "2 % slower (under 3 %)" },
        { { 100, 100, 100 }, { 104, 104, 104 }, 1, 1, "4 % slower (over 3 %)" },
        { { 100, 80, 120 }, { 110, 110, 110 }, 1, 0, "10 % slower, the plan in force's 40 % spread" },
        { { 100, 100, 100 }, { 95, 110, 125 }, 1, 0, "10 % slower, the new plan's 27 % spread" },
        { { 100, 100, 100 }, { 130, 130, 130 }, 40, 0, "30 ticks slower, under one cycle of 40" },
        { { 10, 10, 10 }, { 12, 12, 12 }, 1, 1, "2 ticks slower at 10, over one cycle" },
        { { 10, 10, 10 }, { 10.8, 10.8, 10.8 }, 1, 0, "8 % slower at 10, under one cycle" },
        { { 100, 100, 100 }, { 100, 100, 200 }, 1, 0, "one outlier: the median is the same" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = lab_tune_slower(cases[i].now, cases[i].candidate, 3, cases[i].one_cycle);
        CHECK(t, got == cases[i].slower, "%s: slower %d, want %d", cases[i].what, got,
              cases[i].slower);
    }
    const double one[1] = { 100 }, other[1] = { 200 };
    CHECK(t, lab_tune_slower(one, other, 1, 1) == 1, "one measurement each, twice as slow");
    CHECK(t, lab_tune_slower(one, other, 0, 1) == -1 && lab_tune_slower(one, other, 4, 1) == -1,
          "n out of 1..3 is refused");
}

/* csum tune --write's check before the timing makes no directory (it made ~/.config/csum even
 * when the plan was then refused): a directory not there yet is judged by the nearest one
 * that is; one under a file, or in a directory this user may not write, is refused. */
void test_lab_tune_plan_dir(struct test_ctx *t)
{
    char top[256], path[512], sub[300];
    const char *why;
    if (!mkdtemp(test_temp_template(top, sizeof top, "csum-test-plan-dir"))) {
        CHECK(t, 0, "mkdtemp: %s", strerror(errno));
        return;
    }
    struct stat st;
    snprintf(path, sizeof path, "%s/a/b/plan", top);
    snprintf(sub, sizeof sub, "%s/a", top);
    CHECK(t, lab_tune_plan_dir_writable(path, &why) == 0, "%s: writable, got %s", path,
          strerror(errno));
    CHECK(t, stat(sub, &st) != 0 && errno == ENOENT, "%s was made by the check", sub);
    snprintf(path, sizeof path, "%s/plan", top);
    CHECK(t, lab_tune_plan_dir_writable(path, &why) == 0, "%s: writable", path);
    snprintf(sub, sizeof sub, "%s/file", top);
    int fd = open(sub, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        close(fd);
    snprintf(path, sizeof path, "%s/file/a/plan", top);
    errno = 0;
    CHECK(t, lab_tune_plan_dir_writable(path, &why) == -1 && errno == ENOTDIR,
          "%s: want ENOTDIR, got %s", path, strerror(errno));
    unlink(sub);
    /* A link that cannot be followed is refused before the timing, saying why (the check let
     * it through, and tune refused it only after minutes of timing). */
    snprintf(path, sizeof path, "%s/loop", top);
    if (symlink("loop", path) == 0) {
        errno = 0;
        why = NULL;
        CHECK(t, lab_tune_plan_dir_writable(path, &why) == -1 && errno == ELOOP && why &&
              !strcmp(why, strerror(ELOOP)), "%s: want ELOOP, got %s (%s)", path,
              strerror(errno), why ? why : "no reason");
        unlink(path);
    }
    snprintf(sub, sizeof sub, "%s/ro", top);
    if (geteuid() != 0 && mkdir(sub, 0555) == 0) { /* root may write anyway */
        snprintf(path, sizeof path, "%s/ro/a/plan", top);
        errno = 0;
        CHECK(t, lab_tune_plan_dir_writable(path, &why) == -1 && errno == EACCES,
              "%s: want EACCES, got %s", path, strerror(errno));
        rmdir(sub);
    }
    rmdir(top);
}

/* The words and percentages beside the tables' ratios agree with their digits: a ratio that
 * prints as 1.00 is not "slower" (the short table said "1.00 slower" for 1.004), a ratio the
 * batches' spread can explain is no verdict (it said "1.01 slower" with the two subjects'
 * batches overlapping), and a % Improv that rounds to zero is 0, not -0 (lenalign printed
 * "-0%"). */
void test_lab_ratio_words(struct test_ctx *t)
{
    /* b: 10 ticks, batches 9.9..10.1; a: the ratio's median, batches a_p10..+0.2 */
    static const struct { double ratio, a_p10; const char *word; } words[] = {
        { 0.5, 4.9, "" }, { 0.999, 9.9, "" }, { 1.0, 9.9, "" }, { 1.004, 10.2, "" },
        { 1.0049, 10.2, "" }, { 1.0051, 10.2, " slower" }, { 1.01, 10.2, " slower" },
        { 1.45, 14.4, " slower" }, { 1.01, 10.1, " (within spread)" },
        { 1.45, 10.0, " (within spread)" },
    };
    const struct lab_stats b = { .ticks_median = 10, .ticks_p10 = 9.9, .ticks_p90 = 10.1 };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const struct lab_stats a = { .ticks_median = 10 * words[i].ratio,
                                     .ticks_p10 = words[i].a_p10,
                                     .ticks_p90 = words[i].a_p10 + 0.2 };
        const char *word = lab_ratio_word(words[i].ratio, &a, &b);
        CHECK(t, !strcmp(word, words[i].word),
              "ratio %.4f (a's p10 %.1f, b's p90 10.1) printed '%.2f%s', want the word '%s'",
              words[i].ratio, words[i].a_p10, words[i].ratio, word, words[i].word);
    }
    static const struct { double old_ns, new_ns; long pct; } pcts[] = {
        { 27.0, 27.1, 0 }, { 100.0, 100.4, 0 }, { 100.0, 99.6, 0 }, { 100.0, 100.6, -1 },
        { 2.6, 4.6, -77 }, { 3.6, 2.6, 28 }, { 10.0, 5.0, 50 },
    };
    for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
        long got = lab_improv_pct(pcts[i].old_ns, pcts[i].new_ns);
        char printed[32];
        snprintf(printed, sizeof printed, "%ld%%", got);
        CHECK(t, got == pcts[i].pct, "old %.1f new %.1f: %s, want %ld%%", pcts[i].old_ns,
              pcts[i].new_ns, printed, pcts[i].pct);
    }
    /* The range pairs new's slowest batches with old's fastest for its low end, and the
     * reverse for its high end: the % Improv the spread cannot rule out. */
    static const struct { double old_p10, old_p90, new_p10, new_p90; long lo, hi; } ranges[] = {
        { 100, 100, 50, 50, 50, 50 },    /* no spread: the % Improv itself */
        { 90, 110, 45, 55, 39, 59 },     /* (90 - 55) / 90, (110 - 45) / 110 */
        { 10, 12, 9, 13, -30, 25 },      /* a sign the spread cannot decide */
        { 20, 20, 30, 40, -100, -50 },   /* slower throughout */
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        const struct lab_stats old_st = { .ticks_p10 = ranges[i].old_p10,
                                          .ticks_p90 = ranges[i].old_p90 };
        const struct lab_stats new_st = { .ticks_p10 = ranges[i].new_p10,
                                          .ticks_p90 = ranges[i].new_p90 };
        long lo, hi;
        lab_improv_range(&old_st, &new_st, &lo, &hi);
        CHECK(t, lo == ranges[i].lo && hi == ranges[i].hi,
              "old %g..%g, new %g..%g: %% Improv range %ld..%ld, want %ld..%ld",
              ranges[i].old_p10, ranges[i].old_p90, ranges[i].new_p10, ranges[i].new_p90, lo, hi,
              ranges[i].lo, ranges[i].hi);
    }
}

/* The batch table's results are per header: the spread's p10 and p90 as well as the median and
 * the minimum (they were left per call, n times the median, in the JSON and the CSV). */
void test_lab_batch_per_header(struct test_ctx *t)
{
    struct lab_options o;
    quick_table_options(&o);
    o.batches = 3;
    o.modes = 0;
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    struct lab_env env = { .o = &o, .clk = &clk };
    lab_machine_describe(&env.machine, &o);
    const size_t first = lab_result_count();
    table_batch(&env);
    lab_flush_notes();
    size_t seen = 0, wrong = 0, p90_per_call = 0;
    for (size_t i = first; i < lab_result_count(); i++) {
        const struct lab_result *r = lab_result_get(i);
        if (strcmp(r->table, "batch") || r->len < 16)
            continue;
        seen++;
        const struct lab_stats *st = &r->st;
        /* Per call, p90 is at least n (16 or more) times the per-header median; per header,
         * only a preempted batch takes it past 4 times (so: in most results, not all). */
        p90_per_call += st->ticks_p90 > 4 * st->ticks_median;
        if (st->ticks_min <= st->ticks_p10 && st->ticks_p10 <= st->ticks_median &&
            st->ticks_median <= st->ticks_p90)
            continue;
        if (!wrong++)
            CHECK(t, 0, "%s (%s) n = %zu: min %g p10 %g median %g p90 %g ticks per header", r->impl,
                  r->variant, r->len, st->ticks_min, st->ticks_p10, st->ticks_median, st->ticks_p90);
    }
    CHECK(t, seen >= 8 && !wrong, "%zu of %zu batch results (n >= 16) with a spread not per header",
          wrong, seen);
    CHECK(t, p90_per_call * 2 < seen, "%zu of %zu batch results (n >= 16) with a p90 above 4 times "
          "the median: per call, not per header", p90_per_call, seen);
}

/* A body of fixed work per operation whose first run is slow (a cold start) and whose second
 * is stretched past a batch (a preemption, a stolen vCPU): the sizing must not stop there. */
static unsigned long stall_calls;
static double stall_ticks; /* a batch's length in ticks */
static void spin_ticks(double ticks)
{
    const uint64_t end = lab_ticks() + (uint64_t)ticks;
    while (lab_ticks() < end)
        ;
}
static uint64_t body_stalled(const void *ctx, uint64_t iters)
{
    (void)ctx;
    const unsigned long call = ++stall_calls;
    if (call == 1)
        spin_ticks(stall_ticks / 4); /* a few operations are sized from it */
    else if (call == 2)
        spin_ticks(stall_ticks * 3);
    return count_to(iters * 16);
}

/* Batches last at least the batch time when one sizing run was disturbed (the sizing ended on
 * any run that lasted a batch: here, a batch of 5 operations). */
void test_lab_batch_sizing(struct test_ctx *t)
{
    struct lab_options o;
    measure_options(&o, 3, 1.0, 0);
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    stall_ticks = o.batch_ms * 1e6 * clk.ticks_per_ns;
    stall_calls = 0;
    struct lab_stats st;
    lab_measure(&o, &clk, body_stalled, NULL, &st);
    const double batch = (double)st.iters * st.ticks_min;
    CHECK(t, batch >= 0.5 * stall_ticks,
          "a batch of %llu operations lasted %.0f ticks at the fastest, the batch time is %.0f",
          (unsigned long long)st.iters, batch, stall_ticks);
}

/* A body of fixed work that adds up the ticks spent in it. */
static double body_ticks_spent;
static uint64_t body_timed(const void *ctx, uint64_t iters)
{
    (void)ctx;
    const uint64_t start = lab_ticks();
    const uint64_t x = count_to(iters * 16);
    body_ticks_spent += (double)(lab_ticks() - start);
    return x;
}

/* The sizing is also the warm-up: it goes on past two runs of a batch until the warm-up time
 * (2 ms with --quick) is spent, so that the first timed batch finds caches, predictors and the
 * clock frequency settled. One batch of 0.05 ms is timed here: everything else is warm-up. */
void test_lab_warm_up(struct test_ctx *t)
{
    struct lab_options o;
    measure_options(&o, 1, 0.05, 0);
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    const double warm_ticks = 2e6 * clk.ticks_per_ns;
    body_ticks_spent = 0;
    struct lab_stats st;
    lab_measure(&o, &clk, body_timed, NULL, &st);
    CHECK(t, body_ticks_spent >= 0.9 * warm_ticks,
          "%.0f ticks spent in the body in all, the warm-up alone is %.0f", body_ticks_spent,
          warm_ticks);
}

/* Right with any initial sum but 0. */
static csum_wsum wrong_with_sum_0(const void *buf, size_t len, csum_wsum sum)
{
    csum_wsum s = csum_impl_find("generic")->partial(buf, len, sum);
    return sum == 0 ? s + 1 : s;
}

/* h40's seed-after column calls each subject with an initial sum of 0: it is checked with 0
 * there (it was checked with 0x5a5a and 0xffffffff only, and the 40-byte kernels have no
 * self-check that tries 0). */
void test_lab_h40_seed_after_checked(struct test_ctx *t)
{
    struct lab_subject s;
    memset(&s, 0, sizeof s); /* by hand: the self-check would refuse it before any table */
    s.name = "wrong-with-sum-0";
    s.origin = "test";
    s.fn = wrong_with_sum_0;
    s.peer = 1; /* a note, not a failed run */
    struct lab_options o;
    quick_table_options(&o);
    o.only_impls = "wrong-with-sum-0";
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    struct lab_env env = { .o = &o, .clk = &clk, .subjects = &s, .n_subjects = 1 };
    lab_machine_describe(&env.machine, &o);
    table_h40(&env);
    lab_flush_notes();
    size_t seed_after = 0, chained = 0;
    for (size_t i = 0; i < lab_result_count(); i++) {
        const struct lab_result *r = lab_result_get(i);
        if (strcmp(r->table, "h40") || strcmp(r->impl, s.name))
            continue;
        seed_after += strstr(r->variant, "seed-after") != NULL;
        chained += strstr(r->variant, "seed-after") == NULL;
    }
    CHECK(t, seed_after == 0 && chained == 2,
          "h40: %zu seed-after rows for a subject wrong with a sum of 0 (want none), %zu latency "
          "rows (want even and odd)", seed_after, chained);
}

/* Steal time: the cpuN line's eighth value (not the "cpu" total's, nor another CPU's); none in
 * a line of seven (kernels before 2.6.11) or without the line. 1 % of the run stolen makes a
 * run busy, as 1 % of waiting does: a guest's scheduler never sees the hypervisor's. */
void test_lab_load_steal(struct test_ctx *t)
{
    static const char stat[] = "cpu  7770670 310030 3088062 6216528 24734 0 11801 30685 0 0\n"
                               "cpu0 3261668 162356 1661369 3607455 7998 0 2504 15400 0 0\n"
                               "cpu1 4509002 147673 1426693 2609073 16735 0 9296 15284 0 0\n"
                               "cpu10 1 2 3 4 5 6 7 99 0 0\n"
                               "cpu2 1 2 3 4 5 6 7\n"
                               "intr 123 0 0\n";
    static const struct { int cpu; int64_t want; } cases[] = {
        { 0, 15400 }, { 1, 15284 }, { 10, 99 }, { 2, -1 }, { 3, -1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = tmpfile();
        if (!f) {
            t->skip_reason = "no temporary file";
            return;
        }
        fputs(stat, f);
        rewind(f);
        const int64_t got = lab_proc_stat_steal(f, cases[i].cpu);
        fclose(f);
        CHECK(t, got == cases[i].want, "cpu%d: steal %lld, want %lld", cases[i].cpu, (long long)got,
              (long long)cases[i].want);
    }
    CHECK(t, lab_proc_stat_steal(NULL, 0) == -1, "no /proc/stat: steal unknown");
    /* Ticks are USER_HZ (sysconf(_SC_CLK_TCK)): 250 ticks at 100 a second are 2.5 s. */
    CHECK(t, lab_steal_ns(15400, 15650, 100) == 2.5e9 && lab_steal_ns(15400, 15650, 250) == 1e9,
          "250 ticks of steal: %g ns at 100 Hz (want 2.5e9), %g at 250 Hz (want 1e9)",
          lab_steal_ns(15400, 15650, 100), lab_steal_ns(15400, 15650, 250));
    CHECK(t, lab_steal_ns(-1, 15650, 100) == 0 && lab_steal_ns(15400, -1, 100) == 0 &&
                 lab_steal_ns(15400, 15300, 100) == 0 && lab_steal_ns(15400, 15650, 0) == 0,
          "steal unknown at either end, gone back, or no clock rate: none counted");
    struct lab_load l;
    memset(&l, 0, sizeof l);
    l.elapsed_ns = 10e9;
    l.steal_known = 1;
    l.steal_ns = 10e6; /* 0.1 % */
    CHECK(t, !lab_load_busy(&l), "0.1 %% stolen: called busy");
    l.steal_ns = 0.2e9; /* 2 % */
    CHECK(t, lab_load_busy(&l), "2 %% stolen: not called busy");
    char text[LAB_LOAD_TEXT_MAX];
    l.busy = lab_load_busy(&l);
    lab_load_describe(&l, text, sizeof text);
    CHECK(t, strstr(text, "BUSY: ") == text &&
                 strstr(text, "the hypervisor took 200 ms of its CPU (steal, 2.00 %)"),
          "load text: '%s'", text);
}

/* The busy rule at its three thresholds, each alone: waiting for the CPU over 1 % of the run,
 * steal over 1 %, more than 5 % (1 in 20) of the timed batches preempted; just under each is
 * idle. The results README (scripts/results.py) says why by the same rule. */
void test_lab_load_busy(struct test_ctx *t)
{
    static const struct {
        double wait_ns, steal_ns;
        long batches, preempted;
        int busy;
        const char *what;
    } cases[] = {
        { 0, 0, 0, 0, 0, "nothing" },
        { 0.09e9, 0, 0, 0, 0, "0.9 % waited" },
        { 0.11e9, 0, 0, 0, 1, "1.1 % waited" },
        { 0, 0.09e9, 0, 0, 0, "0.9 % stolen" },
        { 0, 0.11e9, 0, 0, 1, "1.1 % stolen" },
        { 0, 0, 100, 5, 0, "5 of 100 batches preempted" },
        { 0, 0, 100, 6, 1, "6 of 100 batches preempted" },
        { 0, 0, 1000, 51, 1, "51 of 1000 batches preempted" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_load l;
        memset(&l, 0, sizeof l);
        l.elapsed_ns = 10e9;
        l.schedstat = l.steal_known = 1;
        l.wait_ns = cases[i].wait_ns;
        l.steal_ns = cases[i].steal_ns;
        l.batches = cases[i].batches;
        l.preempted = cases[i].preempted;
        CHECK(t, lab_load_busy(&l) == cases[i].busy, "%s in 10 s: busy %d, want %d", cases[i].what,
              lab_load_busy(&l), cases[i].busy);
    }
}

/* A file of a fake sysfs tree under `root`, its directories made. */
static int put_sysfs(const char *root, const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *s = path + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(path, 0700);
            *s = '/';
        }
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Which CPU the lab pins to without --cpu, and how it names its kind, on machines with two
 * kinds of core: an Intel hybrid part (P-cores numbered first, so the last CPU was an E-core)
 * and Arm big.LITTLE (the largest cpu_capacity, which need not be the last CPUs'). An arm64
 * server gives every CPU the same capacity (1024), some none: one kind, named nothing (not
 * "capacity 1024 of 1024: the fastest kind"), and the machine line says "CPU N" alone. */
void test_lab_core_kind(struct test_ctx *t)
{
    static const struct { const char *list; int cpu, want; } lists[] = {
        { "0-7,16,18-19\n", 16, 1 }, { "0-7,16,18-19\n", 17, 0 }, { "0-7,16,18-19\n", 19, 1 },
        { "0-7,16,18-19\n", 20, 0 }, { "0-7,16,18-19\n", 0, 1 }, { "5", 5, 1 }, { "", 0, 0 },
        { "x", 0, 0 },
    };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        CHECK(t, lab_cpulist_has(lists[i].list, lists[i].cpu) == lists[i].want,
              "cpu %d in list '%s': want %d", lists[i].cpu, lists[i].list, lists[i].want);

    char hybrid[] = "/tmp/csum-sysfs-XXXXXX", arm[] = "/tmp/csum-sysfs-XXXXXX",
         plain[] = "/tmp/csum-sysfs-XXXXXX", even[] = "/tmp/csum-sysfs-XXXXXX";
    if (!mkdtemp(hybrid) || !mkdtemp(arm) || !mkdtemp(plain) || !mkdtemp(even)) {
        t->skip_reason = "no temporary directory";
        return;
    }
    put_sysfs(hybrid, "devices/cpu_core/cpus", "0-7\n");
    put_sysfs(hybrid, "devices/cpu_atom/cpus", "8-15\n");
    for (int cpu = 0; cpu < 8; cpu++) { /* three kinds: 446 (0-3), 1024 (4-5), 871 (6-7) */
        char rel[96];
        snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cpu_capacity", cpu);
        put_sysfs(arm, rel, cpu < 4 ? "446\n" : cpu < 6 ? "1024\n" : "871\n");
        if (cpu < 7) /* one kind (an arm64 server: 1024 everywhere); CPU 7 gives none */
            put_sysfs(even, rel, "1024\n");
    }
    unsigned char all[16], only_e[16] = { 0 }, mixed[16] = { 0 }, none[16] = { 0 };
    memset(all, 1, sizeof all);
    memset(only_e + 8, 1, 8);
    mixed[3] = mixed[12] = 1;
    CHECK(t, lab_default_cpu_in(hybrid, all, 16) == 7, "hybrid: pinned to %d, want 7 (the last P-core)",
          lab_default_cpu_in(hybrid, all, 16));
    CHECK(t, lab_default_cpu_in(hybrid, only_e, 16) == 15, "hybrid, E-cores allowed: %d, want 15",
          lab_default_cpu_in(hybrid, only_e, 16));
    CHECK(t, lab_default_cpu_in(hybrid, mixed, 16) == 3, "hybrid, CPUs 3 and 12 allowed: %d, want 3",
          lab_default_cpu_in(hybrid, mixed, 16));
    CHECK(t, lab_default_cpu_in(arm, all, 8) == 5, "big.LITTLE: pinned to %d, want 5 (capacity 1024)",
          lab_default_cpu_in(arm, all, 8));
    CHECK(t, lab_default_cpu_in(plain, all, 4) == 3, "one kind: pinned to %d, want 3 (the last)",
          lab_default_cpu_in(plain, all, 4));
    CHECK(t, lab_default_cpu_in(plain, none, 4) == -1, "no CPU allowed: want -1");

    static const struct { const char *root_of; int cpu; const char *want; } kinds[] = {
        { "hybrid", 7, "a P-core" },
        { "hybrid", 12, "an E-core, not the fastest kind here" },
        { "arm", 2, "capacity 446 of 1024, not the fastest kind here" },
        { "arm", 4, "capacity 1024 of 1024: the fastest kind" },
        { "plain", 1, "" },
        { "even", 1, "" },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const char *root = !strcmp(kinds[i].root_of, "hybrid") ? hybrid
                           : !strcmp(kinds[i].root_of, "arm") ? arm
                           : !strcmp(kinds[i].root_of, "even") ? even : plain;
        char kind[64] = "unset";
        lab_core_kind(root, kinds[i].cpu, 8, kind, sizeof kind);
        CHECK(t, !strcmp(kind, kinds[i].want), "%s CPU %d: '%s', want '%s'", kinds[i].root_of,
              kinds[i].cpu, kind, kinds[i].want);
    }
    /* The machine line's "pinned to": the kind in parentheses, none with one kind. */
    struct lab_machine m;
    memset(&m, 0, sizeof m);
    m.pinned_cpu = 3;
    CHECK(t, !strcmp(lab_pinned_text(&m), "CPU 3"), "one kind: pinned to '%s', want 'CPU 3'",
          lab_pinned_text(&m));
    snprintf(m.core_kind, sizeof m.core_kind, "a P-core");
    CHECK(t, !strcmp(lab_pinned_text(&m), "CPU 3 (a P-core)"),
          "hybrid: pinned to '%s', want 'CPU 3 (a P-core)'", lab_pinned_text(&m));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' '%s' '%s'", hybrid, arm, plain, even);
    if (system(cmd) != 0)
        fprintf(stderr, "lab-core-kind: could not remove %s, %s, %s, %s\n", hybrid, arm, plain, even);
}

/* Runs `table` with stdout sent to a temporary file; its text goes to `text`. */
static void table_text(void (*table)(const struct lab_env *), const struct lab_env *env,
                       char *text, size_t size)
{
    text[0] = '\0';
    FILE *f = tmpfile();
    fflush(stdout);
    int saved = dup(1);
    if (!f || saved < 0) {
        if (f)
            fclose(f);
        if (saved >= 0)
            close(saved);
        return;
    }
    dup2(fileno(f), 1);
    table(env);
    lab_flush_notes();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    text[fread(text, 1, size - 1, f)] = '\0';
    fclose(f);
}

/* The line of `text` that starts with `start`, copied to `line` ("" if none). */
static void line_starting(const char *text, const char *start, char *line, size_t size)
{
    line[0] = '\0';
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, start, strlen(start)) == 0) {
            const char *end = strchr(p, '\n');
            size_t n = end ? (size_t)(end - p) : strlen(p);
            n = n < size - 1 ? n : size - 1;
            memcpy(line, p, n);
            line[n] = '\0';
            return;
        }
    }
}

/* A row evaluated under a name longer than the tables' columns (Evaluating a change:
 * linux-6.8-mine and the like) is named in full, and every column stays under its header: the
 * names were cut to 12 or 13 characters (two rows sharing a prefix could not be told apart) and
 * thrash's and mixed's rows slid right of their headers. */
void test_lab_long_names(struct test_ctx *t)
{
    static const char long_name[] = "generic-under-a-long-name";
    struct lab_subject subjects[2];
    lab_subject_init(&subjects[0], long_name, "test", csum_impl_find("generic")->partial);
    lab_subject_init(&subjects[1], "generic", "test", csum_impl_find("generic")->partial);
    struct lab_options o;
    quick_table_options(&o);
    o.only_impls = "generic-under-a-long-name,generic";
    o.baseline = "generic";
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    struct lab_env env = { .o = &o, .clk = &clk, .subjects = subjects, .n_subjects = 2 };
    lab_machine_describe(&env.machine, &o);

    static const struct {
        const char *table;
        void (*fn)(const struct lab_env *);
        long len;
        const char *header, *row; /* how the header line and a row of the table start */
        const char *last;         /* the header's last column: a row must end under it */
    } tables[] = {
        { "short", table_short, 40, "len ", "40 ", "ratio" },
        { "sizes", table_sizes, 400, "len ", "400 ", "%roof" },
        { "lenalign", table_lenalign, 40, "Len/Aln", "40/0 ", "p10..p90" },
        { "thrash", table_thrash, -1, "impl ", "generic-under-a-long-name ", "rnd/grp" },
    };
    static char text[1 << 16];
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
        o.len = tables[k].len;
        table_text(tables[k].fn, &env, text, sizeof text);
        char header[512], row[512];
        line_starting(text, tables[k].header, header, sizeof header);
        line_starting(text, tables[k].row, row, sizeof row);
        const char *last = strstr(header, tables[k].last);
        CHECK(t, strstr(header, long_name) || !strcmp(tables[k].table, "thrash"),
              "%s: the header cuts the name %s: '%s'", tables[k].table, long_name, header);
        /* The row's cell under the last header ends where the header does (thrash's and
         * short's last cell is right-aligned; lenalign's is followed by the case). */
        const size_t end = last ? (size_t)(last - header) + strlen(tables[k].last) : 0;
        CHECK(t, last && row[0] && strlen(row) >= end && row[end - 1] != ' ' &&
                 (row[end] == '\0' || row[end] == ' '),
              "%s: a row's last column is not under '%s':\n%s\n%s", tables[k].table,
              tables[k].last, header, row);
    }
}

/* A peer refused for a wrong sum says why where it is refused: its limit (DPDK's 32-bit sum of
 * 16-bit words) follows the table's refusal note, and the summary's "refused (wrong sum)" cells
 * are explained under the summary. Both said only "disagrees with the oracle" before, which
 * reads as a bug of either project. */
void test_lab_peer_limit(struct test_ctx *t)
{
    struct lab_subject subjects[2];
    sabotage = 0;
    lab_subject_init(&subjects[0], "wrong-on-case", "test", wrong_on_case);
    lab_subject_init(&subjects[1], "generic", "test", csum_impl_find("generic")->partial);
    subjects[0].peer = 1;
    subjects[0].limit = "a limit of the peer under test";
    struct lab_options o;
    quick_table_options(&o);
    o.only_impls = "wrong-on-case,generic";
    o.len = 1503; /* a length of its own: notes are said once a run */
    struct lab_clock clk;
    lab_clock_init(&clk, 1);
    struct lab_env env = { .o = &o, .clk = &clk, .subjects = subjects, .n_subjects = 2 };
    lab_machine_describe(&env.machine, &o);
    sabotage = 1;
    sabotage_len = 1503;
    sabotage_odd_address = 0;
    static char text[1 << 16];
    table_text(table_sizes, &env, text, sizeof text);
    sabotage = 0;
    CHECK(t, strstr(text, "wrong-on-case refused at len 1503") &&
                 strstr(text, "why the peer is refused: a limit of the peer under test"),
          "sizes: a peer's refusal does not say its limit:\n%s", text);

    if (!lab_peers[0] || !lab_peers[0]->limit)
        return; /* no peer built in (no DPDK): no summary column to explain */
    struct lab_stats st;
    memset(&st, 0, sizeof st);
    st.ticks_median = 1000;
    st.batches = 5;
    lab_result_add("sizes", "csum_partial", "", MODE_THROUGHPUT, 40, 0, &st); /* a summary */
    lab_result_add("sizes", "csum_partial", "", MODE_THROUGHPUT, 1048576, 0, &st);
    lab_refusal_add("sizes", lab_peers[0]->name, MODE_THROUGHPUT, 1048576);
    text[0] = '\0';
    FILE *f = tmpfile();
    if (f) {
        lab_write_summary_md(f, "TSC ticks");
        rewind(f);
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    char want[512];
    snprintf(want, sizeof want, "%s refused (wrong sum): it disagreed with the oracle on that "
             "buffer, and the lab times nothing that does; %s.", lab_peers[0]->name,
             lab_peers[0]->limit);
    CHECK(t, strstr(text, "| refused (wrong sum) |") && strstr(text, want),
          "summary: the refused cell is not explained (want '%s'):\n%s", want, text);
}

/* Which of the pair ran last (0 or 1; -1: none yet) and how often that changed: the two a
 * ratio compares, timed together, alternate batch by batch; timed one after the other they
 * change once per case. A third subject is timed alone and counts for nothing. */
static int pair_last = -1;
static unsigned pair_switches;

static csum_wsum pair_log(int who, const void *buf, size_t len, csum_wsum sum)
{
    if (who >= 0 && who != pair_last) {
        pair_switches += pair_last >= 0;
        pair_last = who;
    }
    return csum_impl_find("generic")->partial(buf, len, sum);
}

static csum_wsum pair_first(const void *buf, size_t len, csum_wsum sum)
{
    return pair_log(0, buf, len, sum);
}

static csum_wsum pair_second(const void *buf, size_t len, csum_wsum sum)
{
    return pair_log(1, buf, len, sum);
}

static csum_wsum pair_neither(const void *buf, size_t len, csum_wsum sum)
{
    return pair_log(-1, buf, len, sum);
}

/* The lab of the pair tests: `n` subjects, quick tables of 4 batches at -l 40 against
 * linux-6.8, the real clock. */
struct pair_lab {
    struct lab_options o;
    struct lab_clock clk;
    struct lab_env env;
};

static void pair_lab_init(struct pair_lab *lab, struct lab_subject *subjects, size_t n)
{
    quick_table_options(&lab->o);
    lab->o.batches = 4;
    lab->o.len = 40;
    lab->o.baseline = "linux-6.8";
    lab_clock_init(&lab->clk, 1);
    lab->env = (struct lab_env){ .o = &lab->o, .clk = &lab->clk, .subjects = subjects,
                                 .n_subjects = n };
    lab_machine_describe(&lab->env.machine, &lab->o);
}

/* The pairs behind the summary's ratios are timed together, their batches interleaved:
 * csum_partial and linux-6.8 (sizes, and lenalign's % Improv), copy's memcpy rows and
 * csum_partial_copy, batch's loop and batch. Until 2026-11-27 sizes, copy and batch timed them
 * one after the other, so their ratios compared two moments of a shared machine. */
void test_lab_pairs_interleaved(struct test_ctx *t)
{
    struct lab_subject subjects[3];
    lab_subject_init(&subjects[0], "csum_partial", "test", pair_first);
    lab_subject_init(&subjects[1], "other", "test", pair_neither);
    lab_subject_init(&subjects[2], "linux-6.8", "test", pair_second);
    struct pair_lab lab;
    pair_lab_init(&lab, subjects, 3);
    struct lab_options *const o = &lab.o;
    const struct lab_env env = lab.env;
    static const struct {
        const char *table;
        void (*fn)(const struct lab_env *);
        unsigned cases; /* at -l 40, in latency mode */
    } tables[] = { { "sizes", table_sizes, 1 }, { "lenalign", table_lenalign, 2 } };
    static char text[1 << 16];
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
        pair_last = -1;
        pair_switches = 0;
        table_text(tables[k].fn, &env, text, sizeof text);
        /* one after the other: 2 x cases - 1 switches; interleaved: at least one a round */
        CHECK(t, pair_switches >= (unsigned)o->batches * tables[k].cases,
              "%s: csum_partial and linux-6.8 alternated %u times over %u case(s) of %d batches: "
              "not timed together", tables[k].table, pair_switches, tables[k].cases, o->batches);
    }
    CHECK(t, group_of("sizes", "csum_partial", "", 40) == group_of("sizes", "linux-6.8", "", 40) &&
             group_of("sizes", "other", "", 40) != group_of("sizes", "csum_partial", "", 40),
          "sizes: the JSON's group does not tell the pair timed together from the subject alone");

    /* copy's and batch's ratios come from library code the test cannot log: their results'
     * group (the JSON's) says they were one measurement, interleaved. */
    o->len = 1500;
    o->count = 1000;
    lab_registry_init();
    table_text(table_copy, &env, text, sizeof text);
    const unsigned memcpy_group = group_of("copy", "memcpy", "idle", 1500);
    CHECK(t, memcpy_group && group_of("copy", "memcpy+csum_partial", "idle", 1500) == memcpy_group &&
             group_of("copy", "csum_partial_copy", "idle", 1500) == memcpy_group &&
             group_of("copy", "generic", "idle", 1500) != memcpy_group,
          "copy: memcpy, memcpy+csum_partial and csum_partial_copy not timed together (groups "
          "%u, %u, %u; generic's %u)", memcpy_group,
          group_of("copy", "memcpy+csum_partial", "idle", 1500),
          group_of("copy", "csum_partial_copy", "idle", 1500), group_of("copy", "generic", "idle", 1500));
    table_text(table_batch, &env, text, sizeof text);
    const unsigned loop_group = group_of("batch", "csum_ipv4_header loop", "mbuf, ihl 5", 64);
    CHECK(t, loop_group && group_of("batch", "csum_ipv4_header_batch", "mbuf, ihl 5", 64) == loop_group,
          "batch: the loop and csum_ipv4_header_batch not timed together (groups %u, %u)",
          loop_group, group_of("batch", "csum_ipv4_header_batch", "mbuf, ihl 5", 64));
}

/* Does any of the LAB_STACK_HOT + 1 bytes from `top` down, less `shift`, share a page offset
 * with the first len bytes of p? Byte by byte, as plainly as it can be said. */
static int stack_meets(size_t top, size_t shift, uintptr_t p, size_t len)
{
    for (size_t below = 0; below <= LAB_STACK_HOT; below++) {
        const size_t x = (top + 2 * LAB_PAGE - shift - below) % LAB_PAGE;
        for (size_t k = 0; k < len && k < LAB_PAGE; k++)
            if ((p + k) % LAB_PAGE == x)
                return 1;
    }
    return 0;
}

/* The lab moves its timed loops' stack off the page offsets of their buffers (4K
 * aliasing, lab.h): the shift it picks leaves the stack's hot bytes clear of both, is the
 * smallest multiple of 64 that does, and is 0 only when none does. */
void test_lab_stack_shift(struct test_ctx *t)
{
    uint64_t rng = 0x57ac;
    for (int i = 0; i < 120; i++) {
        const size_t top = (size_t)(testdata_next(&rng) % LAB_PAGE) & ~(size_t)15;
        const uintptr_t a = 0x100000 + (uintptr_t)(testdata_next(&rng) % LAB_PAGE);
        const uintptr_t b = i % 3 ? 0x200000 + (a & (LAB_PAGE - 1)) /* the table's layout */
                                  : 0x200000 + (uintptr_t)(testdata_next(&rng) % LAB_PAGE);
        static const size_t lens[] = { 0, 1, 32, 1024, 1500, 2000, 3000, 4096, 9000 };
        const size_t len = lens[i % (sizeof lens / sizeof lens[0])];
        const size_t got = lab_stack_shift((const void *)(uintptr_t)(0x7ff000000000 + top),
                                           (const unsigned char *)a, (const unsigned char *)b, len);
        size_t want = 0;
        for (size_t s = 0; s < LAB_PAGE; s += 64)
            if (!stack_meets(top, s, a, len) && !stack_meets(top, s, b, len)) {
                want = s;
                break;
            }
        CHECK(t, got == want, "stack at page offset %zu, buffers at %zu and %zu, %zu bytes: shift "
              "%zu, want %zu (the smallest that clears both, 0 when none does)", top,
              (size_t)(a & (LAB_PAGE - 1)), (size_t)(b & (LAB_PAGE - 1)), len, got, want);
    }
}

/* lab-improv-zero-ticks: the baseline's batches through the test seam, half of them 0 ticks
 * (-c 1 on a clock coarser than a call); the new subject's 5 ticks each. */
static unsigned zero_old_batches;

static double zero_ticks_batch(const void *ctx)
{
    const struct lab_csum_case *c = ctx;
    if (c->fn == pair_second) /* linux-6.8, the baseline */
        return zero_old_batches++ % 2 ? 10.0 : 0.0;
    return 5.0;
}

/* lenalign's p10..p90 range divides by the baseline's p10: 0 ticks gives no range ("-"), where
 * it gave an infinite percentage cast to a long (undefined; LONG_MIN printed on x86-64). */
void test_lab_improv_zero_ticks(struct test_ctx *t)
{
    const struct lab_stats old_st = { .ticks_p10 = 0, .ticks_p90 = 10 };
    const struct lab_stats new_st = { .ticks_p10 = 5, .ticks_p90 = 5 };
    long lo = 1, hi = 1;
    CHECK(t, lab_improv_range(&old_st, &new_st, &lo, &hi) == -1,
          "old p10 0 ticks: range %ld..%ld given, want none", lo, hi);

    struct lab_subject subjects[2];
    lab_subject_init(&subjects[0], "csum_partial", "test", pair_first);
    lab_subject_init(&subjects[1], "linux-6.8", "test", pair_second);
    struct pair_lab lab;
    pair_lab_init(&lab, subjects, 2);
    lab.o.align = 0;
    const struct lab_env env = lab.env;
    static char text[1 << 14];
    zero_old_batches = 0;
    lab_test_batch_ticks = zero_ticks_batch;
    table_text(table_lenalign, &env, text, sizeof text);
    lab_test_batch_ticks = NULL;
    const char *row = strstr(text, "\n40/0 ");
    const char *end = row ? strchr(row + 1, '\n') : NULL;
    const char *dots = row ? strstr(row + 1, "..") : NULL;
    CHECK(t, row && end && (!dots || dots > end) && memchr(row, '%', (size_t)(end - row)),
          "lenalign's 40/0 row, old p10 0 ticks: want a %% Improv and no range:\n%s", text);
}
