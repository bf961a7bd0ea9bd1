/*
 * csum tune: measure this host and say which implementation should handle which lengths.
 *
 * 1. Measure. Every supported product row (the automatic plan never uses reference rows) is
 *    timed at a ladder of lengths from 1 byte to 64 KiB, in latency and in throughput mode
 *    (the lab's method), REPEATS times, interleaved, so each time has a median and a spread.
 *    Each row is timed through csum_partial with a plan of that row alone: what a plan that
 *    uses it gives, dispatch included (x86-scalar's short path runs inline in the dispatcher,
 *    so its own function would look slower than it is).
 * 2. Choose. The plan minimises, over the whole curve, the sum of each length's slowdown
 *    against the best row at that length (the worse of the two modes), with at most four
 *    ranges (what the dispatcher holds): an exact dynamic program over the ladder, not a
 *    greedy walk. A plan with more ranges is kept only when it wins by more than the measured
 *    noise.
 * 3. Verify. The chosen plan is set and the public csum_partial is timed under it and under
 *    the plan in force before (for `--write FILE`, the plan a program reading FILE runs:
 *    lab_tune_plan_in), interleaved, at least three times, at every ladder length (those
 *    --quick skipped in step 1 too) and at 256 KiB and 1 MiB beyond it (a plan covers every
 *    length), in both modes. If the new plan is slower anywhere by more than the noise (and
 *    3 %, and one core cycle), `--write` refuses (exit 1) unless `--force`; it never makes
 *    things worse silently.
 *
 * `--write` stores the plan in the file the library reads at startup (csum_dispatch_file()),
 * replaced at once; `--reset` removes that file, so the compiled-in plan applies again; only a
 * file that `--write` made, never whatever else CSUM_DISPATCH_FILE may name. The plan file is
 * bench/tune_file.c's.
 */
#define _GNU_SOURCE
#include "lab.h"
#include "cpu_features.h"
#include "plan.h"
#include "stdout_error.h" /* cli/ */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A cut at a ladder point leaves the lengths below it, down to the point before, to the row
 * before, so the ladder has a point on each side of a step in a row's cost: 256 and 257, where
 * x86-scalar's inline short path ends (CSUM_ARCH_SHORT_MAX) and its out-of-line loop costs
 * 2-4 ticks more. With 320 as the next point after 256, tune on Zen 5 with AVX-512 hidden
 * proposed avx2 from 320, and 257..319 ran on x86-scalar at 10.4-13.7 ticks against avx2's
 * 8.9-10.1 (the lab's sizes table, 2026-11-26). */
static const size_t ladder[] = { 1, 2, 3, 4, 6, 8, 12, 14, 16, 20, 24, 32, 40, 48, 64, 96, 128,
                                 160, 192, 256, 257, 320, 384, 512, 768, 1024, 1500, 2048, 3072,
                                 4096, 8192, 16384, 65536 };
enum { N_LADDER = sizeof ladder / sizeof ladder[0], MAX_ROWS = 16, MAX_RANGES = CSUM_DISPATCH_MAX_RANGES, REPEATS = 3 };
enum { N_MODES = 2 };
/* The check of step 3 also times lengths above the ladder: a plan applies to every length,
 * and two plans can differ only there (the last range's row, where it starts). */
static const size_t beyond_ladder[] = { 262144, 1048576 };
enum { N_BEYOND = sizeof beyond_ladder / sizeof beyond_ladder[0], BUF_BYTES = 1048576 };
static const enum lab_mode modes[N_MODES] = { MODE_LATENCY, MODE_THROUGHPUT };
/* A difference smaller than this is never called a win or a loss, whatever the spread says:
 * 3 %, and one core cycle (at short lengths 3 % is a fraction of one, below what repeated
 * medians on a shared machine resolve: an unchanged plan was once called slower by that). */
static const double MIN_MARGIN = 0.03;

static double dmin(double a, double b) { return a < b ? a : b; }
static double dmax(double a, double b) { return a > b ? a : b; }

struct timing {
    double median; /* ticks per call, median of the repeats' medians */
    double spread; /* (max - min) / median over the repeats */
};

static void usage(FILE *f)
{
    fprintf(f, "Usage: csum tune [--quick] [-M IMPL[,IMPL...]] [--write [FILE]] [--force]\n"
               "                 [--cpu N]\n"
               "       csum tune --reset\n"
               "Time every product implementation this CPU supports at lengths 1 B..64 KiB in\n"
               "latency and throughput mode, choose the plan (up to four length ranges) that is\n"
               "best over the whole curve, and check it against the plan in force now.\n"
               "  --write [FILE]  store the plan where libcsum reads it at startup (default: the\n"
               "                  file csum_dispatch_file() names: $CSUM_DISPATCH_FILE, else\n"
               "                  $XDG_CONFIG_HOME/csum/dispatch, else ~/.config/csum/dispatch);\n"
               "                  refused (exit 1) when the new plan is slower than the current\n"
               "                  one at some length by more than the measured noise, and\n"
               "                  (exit 2) under CSUM_DISPATCH or a CSUM_CPU_DISABLE that hides\n"
               "                  a feature: this process's plan is not every program's then;\n"
               "                  a FILE that is not the plan file is checked against its own\n"
               "                  plan (or the compiled-in one when it holds none); replaces\n"
               "                  only a plan file or an empty file (anything else: exit 1,\n"
               "                  nothing timed)\n"
               "  --force         with --write: write the plan even when it is refused\n"
               "                  (slower, a row gave wrong sums, under CSUM_DISPATCH or\n"
               "                  CSUM_CPU_DISABLE)\n"
               "  --reset         remove that file: the compiled-in plan applies again (only a\n"
               "                  file that --write wrote; anything else is left alone, exit 1;\n"
               "                  through a symbolic link, the file it names: the link stays)\n"
               "  -M IMPL,...     only these implementations (each name once, none empty)\n"
               "  --quick         fewer lengths and batches (noisier)\n"
               "  --cpu N         pin to CPU N (default: the last CPU it may run on, of the\n"
               "                  fastest kind of core)\n");
}

/* -M: every name a product row this CPU runs (tune chooses among those only). 0, or -1 with
 * a message. */
static int check_names(const char *list)
{
    char name[LAB_NAME_SIZE];
    if (lab_list_refuse("tune", list) != 0)
        return -1;
    for (const char *p = list; (p = lab_list_next(p, name, sizeof name));) {
        const struct csum_impl *impl = csum_impl_find(name);
        const char *why = !impl                         ? "unknown implementation '%s' (see 'csum impls')"
                          : impl->reference             ? "'%s' is a reference row: the plans choose "
                                                          "among product rows only"
                          : !csum_impl_supported(impl) && csum_cpu_features_hidden()
                              ? "'%s' cannot run here: this CPU lacks, or CSUM_CPU_DISABLE "
                                "hides, what it needs (see 'csum impls')"
                          : !csum_impl_supported(impl) ? "this CPU cannot run '%s'"
                                                        : NULL;
        if (why) {
            fprintf(stderr, "csum: tune: -M: ");
            fprintf(stderr, why, name);
            fprintf(stderr, "\nTry 'csum tune --help'.\n");
            return -1;
        }
    }
    return 0;
}

/* One measurement of fn at `len` in each mode (callers repeat it, interleaving subjects). */
static void measure_once(const struct lab_options *o, const struct lab_clock *clk, csum_partial_fn fn,
                         unsigned char *buf, size_t len, double out[N_MODES])
{
    for (int m = 0; m < N_MODES; m++) {
        struct lab_csum_case c = { fn, buf, len, 0x5a5a };
        struct lab_stats st;
        lab_measure(o, clk, lab_csum_body(modes[m]), &c, &st);
        out[m] = st.ticks_median;
    }
}

static struct timing summarize(const double *v, int n)
{
    double sorted[REPEATS];
    memcpy(sorted, v, (size_t)n * sizeof *v);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    const double median = lab_quantile(sorted, (size_t)n, 0.5);
    struct timing t = { median, (sorted[n - 1] - sorted[0]) / median };
    return t;
}

/*
 * The best plan over ladder points [0, n_points) with at most `k` ranges: cost[i][r] is the
 * cost of row r at point i. Fills range_row/range_start (ladder indices), returns the total.
 */
static double best_plan(double cost[][MAX_ROWS], size_t n_points, size_t n_rows, int k,
                        size_t *range_row, size_t *range_start, int *n_ranges)
{
    /* best[j][i][r]: least cost of points [0, i] with j + 1 ranges, the last one row r. */
    static double best[MAX_RANGES][N_LADDER][MAX_ROWS];
    static int from_row[MAX_RANGES][N_LADDER][MAX_ROWS];
    for (int j = 0; j < k; j++)
        for (size_t i = 0; i < n_points; i++)
            for (size_t r = 0; r < n_rows; r++) {
                double stay = i ? best[j][i - 1][r] : (j == 0 ? 0 : INFINITY);
                int prev = (int)r;
                if (j > 0 && i > 0)
                    for (size_t q = 0; q < n_rows; q++)
                        if (q != r && best[j - 1][i - 1][q] < stay) {
                            stay = best[j - 1][i - 1][q];
                            prev = (int)q;
                        }
                best[j][i][r] = stay + cost[i][r];
                from_row[j][i][r] = prev;
            }
    double total = INFINITY;
    int j_best = 0;
    size_t r_best = 0;
    for (int j = 0; j < k; j++)
        for (size_t r = 0; r < n_rows; r++)
            if (best[j][n_points - 1][r] < total) {
                total = best[j][n_points - 1][r];
                j_best = j;
                r_best = r;
            }
    /* Walk back: a range starts where the row changes. */
    int j = j_best;
    size_t r = r_best;
    *n_ranges = j_best + 1;
    for (size_t i = n_points; i-- > 0;) {
        int prev = from_row[j][i][r];
        if (prev != (int)r || i == 0) {
            range_row[j] = r;
            range_start[j] = i;
            if (i == 0)
                break;
            j--;
            r = (size_t)prev;
        }
    }
    return total;
}

/* The plan text of ranges k = 0..n-1: row range_row[k] from ladder[range_start[k]]. */
static void plan_text(char *out, size_t size, const struct lab_subject *rows, const size_t *range_row,
                      const size_t *range_start, int n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < n && len < size; k++)
        len += (size_t)snprintf(out + len, size - len, "%s%s@%zu", k ? "," : "",
                                rows[range_row[k]].name, k ? ladder[range_start[k]] : 0);
}

/* Step 3's verdict at one length in one mode, from `n` (1..REPEATS) measurements of each plan,
 * ticks per call: whether the new plan is slower than the plan in force by more than the noise
 * (the wider spread of the two, at least MIN_MARGIN) and by more than one core cycle. 1 or 0;
 * -1 for an n out of range. */
int lab_tune_slower(const double *now, const double *candidate, int n, double one_cycle)
{
    if (n < 1 || n > REPEATS)
        return -1;
    const struct timing a = summarize(now, n), b = summarize(candidate, n);
    const double margin = dmax(MIN_MARGIN, dmax(a.spread, b.spread));
    return b.median > a.median * (1 + margin) && b.median - a.median > one_cycle;
}

/*
 * Step 3 for one candidate: csum_partial under `plan` and under `current`, interleaved, at every
 * ladder length and beyond it, `checks` times each. Prints the table; 1 when the candidate is
 * slower somewhere by more than the noise (and 3 %, and one core cycle), 0 when not, -1 when
 * the library rejects a plan.
 */
static int slower_somewhere(const struct lab_options *o, const struct lab_clock *clk,
                            unsigned char *buf, int checks, const char *current,
                            const char *current_source, const char *plan, double one_cycle)
{
    printf("\nchecking %s against the plan in force, %s (%s): csum_partial, %s\n"
           "%-7s %21s %21s\n",
           plan, current, current_source, clk->tick_name, "len", "latency now / new",
           "throughput now / new");
    int worse = 0;
    for (size_t l = 0; l < N_LADDER + N_BEYOND; l++) {
        const size_t at = l < N_LADDER ? ladder[l] : beyond_ladder[l - N_LADDER];
        double v[2][N_MODES][REPEATS];
        for (int k = 0; k < checks; k++)
            for (int which = 0; which < 2; which++) {
                double m2[N_MODES];
                if (csum_dispatch_set(which ? plan : current) != 0) {
                    fprintf(stderr, "csum: tune: the library rejects the plan '%s'\n",
                            which ? plan : current);
                    return -1;
                }
                measure_once(o, clk, csum_partial, buf, at, m2);
                for (int m = 0; m < N_MODES; m++)
                    v[which][m][k] = m2[m];
            }
        printf("%-7zu", at);
        for (int m = 0; m < N_MODES; m++) {
            struct timing now = summarize(v[0][m], checks), new = summarize(v[1][m], checks);
            int slower = lab_tune_slower(v[0][m], v[1][m], checks, one_cycle) == 1;
            worse |= slower;
            printf(" %9.1f /%9.1f%s", now.median, new.median, slower ? " SLOWER" : "");
        }
        printf("\n");
        fflush(stdout);
        stdout_error_errno(); /* why, for main(): measuring goes on */
    }
    csum_impl_select("auto"); /* the plan in force was the automatic one */
    return worse;
}

/*
 * Step 2: cost[l][r] = row r's slowdown at ladder point l against the best row there, the worse
 * of the two modes; the best plan with up to four ranges, then the fewest ranges that are
 * nowhere worse than it by more than that length's noise (its measurements' widest spread, at
 * least 3 % and one core cycle): a range is kept only for a win beyond noise. Fills
 * range_row/range_start (ladder indices) and totals[k] (the best plan's cost with k ranges);
 * returns the number of ranges.
 */
static int choose_plan(const struct timing t[][MAX_ROWS][N_MODES], size_t n_points, size_t n_rows,
                       double one_cycle, double cost[][MAX_ROWS], size_t *range_row,
                       size_t *range_start, double totals[MAX_RANGES + 1])
{
    double noise[N_LADDER]; /* per length: the widest spread of its measurements, at least 3 % */
    for (size_t l = 0; l < n_points; l++) {
        double fastest = INFINITY;
        for (size_t r = 0; r < n_rows; r++)
            for (int m = 0; m < N_MODES; m++)
                fastest = dmin(fastest, t[l][r][m].median);
        noise[l] = dmax(MIN_MARGIN, one_cycle / fastest);
        for (size_t r = 0; r < n_rows; r++) {
            double c = 0;
            for (int m = 0; m < N_MODES; m++) {
                double best = INFINITY;
                for (size_t q = 0; q < n_rows; q++)
                    best = dmin(best, t[l][q][m].median);
                c = dmax(c, t[l][r][m].median / best);
                noise[l] = dmax(noise[l], t[l][r][m].spread);
            }
            cost[l][r] = c;
        }
    }
    size_t best_row[MAX_RANGES], best_start[MAX_RANGES];
    int n_ranges = 1, n_best;
    totals[MAX_RANGES] = best_plan(cost, n_points, n_rows, MAX_RANGES, best_row, best_start, &n_best);
    for (int k = 1; k <= MAX_RANGES; k++) {
        totals[k] = best_plan(cost, n_points, n_rows, k, range_row, range_start, &n_ranges);
        int within_noise = 1;
        for (size_t l = 0, a = 0, b = 0; l < n_points; l++) {
            while (a + 1 < (size_t)n_ranges && range_start[a + 1] <= l)
                a++;
            while (b + 1 < (size_t)n_best && best_start[b + 1] <= l)
                b++;
            within_noise &= cost[l][range_row[a]] <= cost[l][best_row[b]] * (1 + noise[l]);
        }
        if (within_noise)
            break;
    }
    return n_ranges;
}

int lab_tune_choose(const double *median, const double *spread, size_t n_rows, double one_cycle,
                    size_t *range_row, size_t *range_len)
{
    static struct timing t[N_LADDER][MAX_ROWS][N_MODES];
    static double cost[N_LADDER][MAX_ROWS];
    if (n_rows == 0 || n_rows > MAX_ROWS)
        return -1;
    for (size_t l = 0; l < N_LADDER; l++)
        for (size_t r = 0; r < n_rows; r++)
            for (int m = 0; m < N_MODES; m++) {
                size_t i = (l * n_rows + r) * N_MODES + (size_t)m;
                t[l][r][m] = (struct timing){ median[i], spread[i] };
            }
    size_t start[MAX_RANGES];
    double totals[MAX_RANGES + 1];
    int n = choose_plan(t, N_LADDER, n_rows, one_cycle, cost, range_row, start, totals);
    for (int k = 0; k < n; k++)
        range_len[k] = k ? ladder[start[k]] : 0;
    return n;
}

size_t lab_tune_ladder(const size_t **lengths)
{
    *lengths = ladder;
    return N_LADDER;
}

/*
 * --write stores a plan for every program, and is refused when it is slower than the plan in
 * force: a check that means something only if this process has the plan and the CPU features
 * those programs have. Under CSUM_DISPATCH the plan in force is the variable's, not the one the
 * file replaces (a plan that only beat CSUM_DISPATCH=generic@0 was written over a faster file or
 * the compiled-in plan); under CSUM_CPU_DISABLE the rows it hides are neither timed nor in the
 * plan, which every program would then run without them. 0, or -1 after saying why.
 */
static int refuse_write_here(const char *write_to)
{
    const char *source = csum_dispatch_source();
    const size_t n = strlen("CSUM_DISPATCH");
    if (strncmp(source, "CSUM_DISPATCH", n) == 0 && (source[n] == '\0' || source[n] == ' ')) {
        fprintf(stderr, "csum: tune: not writing %s: CSUM_DISPATCH sets the plan in force for this "
                        "process only (it overrides the plan file), so a new plan checked "
                        "against it may be slower than the plan the file gives every other "
                        "program; unset CSUM_DISPATCH, or --force to write it anyway\n", write_to);
        return -1;
    }
    const uint32_t hidden = csum_cpu_features_hidden();
    if (hidden) {
        char names[160] = "";
        size_t used = 0;
        for (unsigned bit = 0; bit < CSUM_CPU_FEATURE_COUNT; bit++)
            if ((hidden >> bit & 1) && used < sizeof names)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                         used ? "," : "", csum_cpu_feature_name(bit));
        fprintf(stderr, "csum: tune: not writing %s: CSUM_CPU_DISABLE hides %s from this process "
                        "only, so the plan would leave out rows that every other program can "
                        "run; unset CSUM_CPU_DISABLE, or --force to write it anyway\n",
                write_to, names);
        return -1;
    }
    return 0;
}

enum { GO_ON = -1 };

/* The command line into o, *write_to (path holds the plan file's name when --write names
 * none) and *force: GO_ON, or the exit status (0 after --help, --reset's, 2 after saying what
 * is wrong). */
static int parse_args(int argc, char **argv, struct lab_options *o, const char **write_to,
                      int *force, char *path, size_t path_size)
{
    int cpu_given = 0;
    for (int i = 1; i < argc; i++) {
        /* An option with a value given twice: the first would be dropped without a word. */
        const int twice = (!strcmp(argv[i], "-M") && o->only_impls) ||
                          (!strcmp(argv[i], "--cpu") && cpu_given) ||
                          (!strcmp(argv[i], "--write") && *write_to);
        if (twice) {
            fprintf(stderr, "csum: tune: option %s given twice: it takes one value%s\n"
                            "Try 'csum tune --help'.\n", argv[i],
                    strcmp(argv[i], "-M") ? "" : " (a list: -M IMPL,IMPL)");
            return 2;
        }
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--reset")) {
            if (argc != 2) {
                fprintf(stderr, "csum: tune: --reset takes no other option\nTry 'csum tune --help'.\n");
                return 2;
            }
            return lab_tune_reset();
        } else if (!strcmp(argv[i], "--quick")) {
            o->quick = 1;
        } else if (!strcmp(argv[i], "--force")) {
            *force = 1;
        } else if ((!strcmp(argv[i], "-M") || !strcmp(argv[i], "--cpu")) &&
                   (i + 1 == argc || !argv[i + 1][0])) {
            fprintf(stderr, "csum: tune: option %s needs a value\nTry 'csum tune --help'.\n",
                    argv[i]);
            return 2;
        } else if (!strcmp(argv[i], "-M")) {
            o->only_impls = argv[++i];
            if (check_names(o->only_impls) != 0)
                return 2;
        } else if (!strcmp(argv[i], "--cpu")) {
            char *end;
            const long online = sysconf(_SC_NPROCESSORS_ONLN);
            errno = 0;
            long v = strtol(argv[++i], &end, 10);
            /* digits only: strtol also takes leading blanks and a '+' */
            if (argv[i][0] < '0' || argv[i][0] > '9' || errno || end == argv[i] || *end || v < 0 ||
                v >= online) {
                fprintf(stderr, "csum: tune: option --cpu takes a CPU number from 0 to %ld "
                                "(online CPUs), not '%s'\nTry 'csum tune --help'.\n",
                        online - 1, argv[i]);
                return 2;
            }
            o->cpu = (int)v;
            cpu_given = 1;
        } else if (!strcmp(argv[i], "--write")) {
            if (i + 1 < argc && !argv[i + 1][0]) {
                fprintf(stderr, "csum: tune: --write takes a FILE, or nothing for the plan file, "
                                "not ''\nTry 'csum tune --help'.\n");
                return 2;
            } else if (i + 1 < argc && argv[i + 1][0] != '-') {
                *write_to = argv[++i];
            } else {
                /* The file the library reads: one rule, csum_dispatch_file(). */
                size_t n = csum_dispatch_file(path, path_size);
                if (n == 0 || n >= path_size) {
                    fprintf(stderr, "csum: tune: the library reads no plan file (CSUM_DISPATCH_FILE "
                                    "is empty, or no absolute HOME): give --write a FILE\n");
                    return 2;
                }
                *write_to = path;
            }
        } else {
            fprintf(stderr, "csum: tune: unknown argument '%s'\nTry 'csum tune --help'.\n", argv[i]);
            return 2;
        }
    }
    if (*force && !*write_to) {
        /* Alone it changes nothing: a script that meant --write --force wrote nothing. */
        fprintf(stderr, "csum: tune: --force goes with --write (it writes a refused plan)\n"
                        "Try 'csum tune --help'.\n");
        return 2;
    }
    return GO_ON;
}

/* The candidates: supported product rows that -M leaves and that pass the oracle self-check,
 * into rows; *n_wrong counts those that failed it (said on stderr). Returns how many. */
static size_t candidate_rows(const struct lab_options *o, struct lab_subject rows[MAX_ROWS],
                             size_t *n_wrong)
{
    size_t n_rows = 0;
    *n_wrong = 0;
    for (size_t i = 0; i < csum_impl_count() && n_rows < MAX_ROWS; i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        if (impl->reference || !csum_impl_supported(impl) || !lab_wanted(o, impl->name))
            continue;
        lab_subject_init(&rows[n_rows], impl->name, impl->description, impl->partial);
        if (rows[n_rows].refused) {
            fprintf(stderr, "csum: tune: %s refused: %s (a wrong checksum from libcsum: a bug, "
                            "please report it)\n", impl->name, rows[n_rows].why);
            (*n_wrong)++;
        } else {
            n_rows++;
        }
    }
    return n_rows;
}

/* Step 1: every row at ladder points [0, n_points), `repeats` times, the rows interleaved
 * within each repeat, into t; prints the table as it goes. 0, or -1 when the library refuses
 * to run a row. */
static int measure_rows(const struct lab_options *o, const struct lab_clock *clk,
                        const struct lab_subject *rows, size_t n_rows, unsigned char *buf,
                        size_t n_points, int repeats, struct timing t[][MAX_ROWS][N_MODES])
{
    static double raw[N_LADDER][MAX_ROWS][N_MODES][REPEATS];
    printf("csum tune: %s per call, median of %d measurements of %d batches; "
           "latency / throughput\n%-7s", clk->tick_name, repeats, o->batches, "len");
    for (size_t r = 0; r < n_rows; r++)
        printf(" %17.17s", rows[r].name);
    printf("  best\n");
    for (size_t l = 0; l < n_points; l++) {
        for (int k = 0; k < repeats; k++)
            for (size_t r = 0; r < n_rows; r++) {
                /* Through csum_partial with this row for every length: what a plan that uses
                 * it gives, dispatch included (x86-scalar's short path runs inline there). */
                double v[N_MODES];
                if (csum_dispatch_set(rows[r].name) != 0) {
                    fprintf(stderr, "csum: tune: the library refuses to run %s\n", rows[r].name);
                    return -1;
                }
                measure_once(o, clk, csum_partial, buf, ladder[l], v);
                for (int m = 0; m < N_MODES; m++)
                    raw[l][r][m][k] = v[m];
            }
        size_t best = 0;
        printf("%-7zu", ladder[l]);
        for (size_t r = 0; r < n_rows; r++) {
            for (int m = 0; m < N_MODES; m++)
                t[l][r][m] = summarize(raw[l][r][m], repeats);
            printf(" %8.1f /%7.1f", t[l][r][0].median, t[l][r][1].median);
            if (t[l][r][0].median + t[l][r][1].median < t[l][best][0].median + t[l][best][1].median)
                best = r;
        }
        printf("  %s\n", rows[best].name);
        fflush(stdout);
    }
    csum_impl_select("auto"); /* back to the plan in force */
    return 0;
}

/* Step 3: `plan` against the plan in force, through the public entry point. Each row was timed
 * as a plan of its own, where csum_partial reaches it by its quickest path; in a plan of
 * several ranges an inner range costs a compare or two more, so a plan can measure slower than
 * its parts: then the best plans with fewer ranges are checked in turn, and the first that is
 * nowhere slower is the one proposed (left in plan). The plan in force is, for --write FILE
 * (`write_to`) when FILE is not the file this process read, FILE's (lab_tune_plan_in). Returns
 * 1 when even the simplest plan is slower somewhere, 0 when not, -1 when the library rejects a
 * plan. */
static int verify(const struct lab_options *o, const struct lab_clock *clk, unsigned char *buf,
                  int checks, const char *write_to, const struct lab_subject *rows, size_t n_rows,
                  double cost[][MAX_ROWS], size_t n_points, int n_ranges, double one_cycle,
                  char *plan, size_t plan_size)
{
    size_t range_row[MAX_RANGES], range_start[MAX_RANGES];
    char current[256], current_source[4096 + 400], read_here[4096];
    const size_t read_len = csum_dispatch_file(read_here, sizeof read_here);
    if (write_to && !(read_len > 0 && read_len < sizeof read_here && !strcmp(read_here, write_to))) {
        lab_tune_plan_in(write_to, current, sizeof current, current_source, sizeof current_source);
    } else {
        csum_dispatch_describe(current, sizeof current);
        snprintf(current_source, sizeof current_source, "%s", csum_dispatch_source());
    }
    int worse = 0;
    if (strcmp(current, plan) == 0) {
        printf("\nthe plan in force is already this one (%s)\n", current_source);
    } else {
        worse = slower_somewhere(o, clk, buf, checks, current, current_source, plan, one_cycle);
        for (int k = n_ranges - 1; worse == 1 && k >= 1; k--) {
            char simpler[256];
            int n;
            best_plan(cost, n_points, n_rows, k, range_row, range_start, &n);
            plan_text(simpler, sizeof simpler, rows, range_row, range_start, n);
            if (n != k)
                continue; /* the best with at most k ranges has fewer: checked already */
            printf("\nthe best plan with %d range%s instead: %s\n", k, k == 1 ? "" : "s", simpler);
            if (strcmp(simpler, current) == 0) {
                printf("that is the plan in force: nothing to change\n");
                snprintf(plan, plan_size, "%s", current);
                worse = 0;
                break;
            }
            int w = slower_somewhere(o, clk, buf, checks, current, current_source, simpler,
                                     one_cycle);
            if (w == 0)
                snprintf(plan, plan_size, "%s", simpler);
            if (w != 1)
                worse = w;
        }
    }
    if (worse == 0 && strcmp(current, plan) != 0)
        printf("\nproposed: %s\n", plan);
    return worse;
}

/* The end of a run that measured: what it found wrong, and the plan proposed, printed or
 * written to `write_to` (unless slower somewhere, or a row gave wrong sums, without `force`).
 * The exit status. */
static int conclude(const char *write_to, const char *plan, int worse, size_t n_wrong, int force)
{
    if (n_wrong)
        fprintf(stderr, "csum: tune: %zu product implementation%s gave wrong checksums on this CPU "
                        "and %s left out of the plan (see above)\n",
                n_wrong, n_wrong == 1 ? "" : "s", n_wrong == 1 ? "is" : "are");
    if (!write_to) {
        printf("%s(use it now with CSUM_DISPATCH='%s', or store it with 'csum tune --write')\n",
               worse ? "the new plan is slower than the current one somewhere (SLOWER above)\n" : "",
               plan);
        return n_wrong ? 1 : 0;
    }
    if (n_wrong && !force) {
        fprintf(stderr, "csum: tune: not writing %s: an implementation gave wrong checksums (above); "
                        "--force writes the plan without it anyway\n", write_to);
        return 1;
    }
    if (worse && !force) {
        fprintf(stderr, "csum: tune: not writing %s: the new plan is slower than the plan in force "
                        "at the lengths marked SLOWER (beyond the measured noise); run again on an "
                        "idle machine, or --force to write it anyway\n", write_to);
        return 1;
    }
    const char *why;
    if (lab_tune_write_plan(write_to, plan, &why) != 0) {
        fprintf(stderr, "csum: tune: cannot write %s: %s\n", write_to, why);
        return 1;
    }
    /* --reset removes the plan file, not FILE: its hint for another FILE names it, or the
     * hint would remove the plan file every program reads instead. */
    char read_here[4096];
    const size_t n = csum_dispatch_file(read_here, sizeof read_here);
    if (n > 0 && n < sizeof read_here && !strcmp(read_here, write_to))
        printf("wrote %s (read by libcsum at startup; CSUM_DISPATCH overrides it; undo with "
               "'csum tune --reset')\n", write_to);
    else
        printf("wrote %s (read by programs whose CSUM_DISPATCH_FILE names it; undo with "
               "'CSUM_DISPATCH_FILE=%s csum tune --reset')\n", write_to, write_to);
    return 0;
}

int lab_tune_main(int argc, char **argv)
{
    struct lab_options o;
    memset(&o, 0, sizeof o);
    o.cpu = lab_default_cpu();
    o.len = o.align = o.count = -1;
    const char *write_to = NULL;
    int force = 0;
    char path[4096];
    const int status = parse_args(argc, argv, &o, &write_to, &force, path, sizeof path);
    if (status != GO_ON)
        return status;
    /* The plan in force that a new plan is printed with and checked against is the automatic
     * one: CSUM_IMPL names one row for this process, and tune times every row itself. */
    csum_impl_select("auto");
    if (write_to && !force && refuse_write_here(write_to) != 0)
        return 2;
    const char *why_not;
    if (write_to && lab_tune_plan_dir_writable(write_to, &why_not) != 0) {
        fprintf(stderr, "csum: tune: cannot write %s: %s (nothing timed)\n", write_to, why_not);
        return 1;
    }
    if (write_to && lab_tune_plan_replaceable(write_to, &why_not) != 0) {
        fprintf(stderr, "csum: tune: not replacing %s: %s; remove it, or give --write another "
                        "FILE (nothing timed)\n", write_to, why_not);
        return 1;
    }
    if (lab_pin_cpu(o.cpu) != 0) {
        fprintf(stderr, "csum: tune: cannot pin to CPU %d: %s\n", o.cpu, strerror(errno));
        return 2;
    }
    o.batches = o.quick ? 5 : 9;
    o.batch_ms = o.quick ? 0.3 : 1.0;
    struct lab_clock clk;
    lab_clock_init(&clk, o.quick);
    const int repeats = o.quick ? 2 : REPEATS;

    struct lab_subject rows[MAX_ROWS];
    size_t n_wrong;
    const size_t n_rows = candidate_rows(&o, rows, &n_wrong);
    unsigned char *buf = lab_buffer(BUF_BYTES);
    if (!buf || n_rows == 0) {
        fprintf(stderr, "csum: tune: nothing to measure (-M names no supported product "
                        "implementation?)\n");
        lab_buffer_free(buf, BUF_BYTES);
        return 1;
    }

    /* 1. Measure. What the output was measured on comes first, so that a saved copy
     * (docs/results/<cpu>/tune/) says it. */
    static struct timing t[N_LADDER][MAX_ROWS][N_MODES];
    const size_t n_points = o.quick ? N_LADDER - 3 : N_LADDER; /* --quick stops at 4 KiB */
    struct lab_machine machine;
    lab_machine_describe(&machine, &o);
    printf("csum tune: %s, pinned to %s, %s; %s; plan in force: %s (%s)\n", machine.cpu,
           lab_pinned_text(&machine), machine.date, machine.compiler, machine.dispatch,
           machine.dispatch_source);
    if (measure_rows(&o, &clk, rows, n_rows, buf, n_points, repeats, t) != 0) {
        lab_buffer_free(buf, BUF_BYTES);
        return 1;
    }

    /* 2. Choose. */
    static double cost[N_LADDER][MAX_ROWS];
    const double one_cycle = clk.cycles_per_tick > 0 ? 1 / clk.cycles_per_tick : 1; /* ticks */
    size_t range_row[MAX_RANGES], range_start[MAX_RANGES];
    double totals[MAX_RANGES + 1];
    const int n_ranges = choose_plan(t, n_points, n_rows, one_cycle, cost, range_row, range_start,
                                     totals);
    char plan[256];
    plan_text(plan, sizeof plan, rows, range_row, range_start, n_ranges);
    printf("\nplan: %s  (cost %.2f over %zu lengths; 1.00 per length = the best row everywhere)\n",
           plan, totals[n_ranges], n_points);
    for (int k = 0; k < n_ranges; k++)
        if (k + 1 < n_ranges)
            printf("  %-12s for %zu..%zu bytes\n", rows[range_row[k]].name,
                   k ? ladder[range_start[k]] : 0, ladder[range_start[k + 1]] - 1);
        else
            printf("  %-12s from %zu bytes\n", rows[range_row[k]].name, k ? ladder[range_start[k]] : 0);

    /* 3. Verify, at least three times even with --quick: slower_somewhere keeps its times in
     * arrays of REPEATS. */
    _Static_assert(REPEATS >= 3, "slower_somewhere's arrays hold the verification's checks");
    const int checks = repeats < 3 ? 3 : repeats;
    const int worse = verify(&o, &clk, buf, checks, write_to, rows, n_rows, cost, n_points,
                             n_ranges, one_cycle, plan, sizeof plan);
    lab_buffer_free(buf, BUF_BYTES);
    if (worse < 0)
        return 1;

    return conclude(write_to, plan, worse, n_wrong, force);
}
