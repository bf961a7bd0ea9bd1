/*
 * csum bench: option parsing and what it refuses, the table registry, where output goes, and
 * the run itself.
 */
#define _GNU_SOURCE
#include "lab.h"
#include "stdout_error.h" /* cli/: the reason csum gives for output it could not write */
#include "text_wrap.h" /* cli/: csum impls' word wrapping */

#include "csum_version.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a table honours besides the options every table takes. A table named on the command
 * line with an option it ignores is refused (the user would get numbers for other cases,
 * subjects or modes than the ones asked for), and so is an option that belongs to one table
 * when tables are named but not that one (it would do nothing). */
enum {
    TAKES_LEN = 1,          /* -l */
    TAKES_ALIGN = 2,        /* -a */
    TAKES_IMPLS = 4,        /* -M */
    TAKES_DST_ALIGN = 8,    /* --dst-align */
    TAKES_INTERLEAVE = 16,  /* -I */
    TAKES_ZERO_SUM = 32,    /* --zero-sum */
    TAKES_BUSY = 64,        /* --busy */
    TAKES_BASELINE = 128,   /* --baseline */
};

/* The kinds of -M name a table times: a name no table named times is refused. */
enum {
    NAMES_CSUM = 1, /* csum_partial subjects: the rows, csum_partial, peers ('csum bench --list') */
    NAMES_H40 = 2,  /* h40's 40-byte kernels and inline-40 */
    NAMES_COPY = 4, /* the copy rows, csum_partial_copy (and csum_partial, which picks it) */
};

struct lab_table {
    const char *name;
    lab_table_fn run;
    const char *what; /* lines of at most 68 columns (80 under "  NAME      "), '\n' between */
    unsigned takes;
    unsigned modes; /* MODE_*: what it can time (--latency / --throughput choose among these) */
    unsigned names; /* NAMES_*: whose names -M may give it */
};

enum { LAT = MODE_LATENCY, TPUT = MODE_THROUGHPUT };

static const struct lab_table tables[] = {
    { "lenalign", table_lenalign, "Herbert 2016's Len/Aln table and the reviewers' cases,\n% vs a baseline",
      TAKES_LEN | TAKES_ALIGN | TAKES_IMPLS | TAKES_BASELINE, LAT | TPUT, NAMES_CSUM },
    { "thrash", table_thrash, "Herbert 2016's branch-prediction experiment: grouped vs\ninterleaved calls",
      TAKES_LEN | TAKES_ALIGN | TAKES_IMPLS | TAKES_INTERLEAVE, LAT, NAMES_CSUM },
    { "mixed", table_mixed, "lengths drawn at random every call (1..64, 1..256, 64..1518)\nvs the mean",
      TAKES_IMPLS, LAT | TPUT, NAMES_CSUM },
    { "sizes", table_sizes, "every length 1..64, powers of two, packet sizes, L2/L3/DRAM;\nroofline",
      TAKES_LEN | TAKES_ALIGN | TAKES_IMPLS, LAT | TPUT, NAMES_CSUM },
    { "short", table_short, "every length 1..256 B: csum_partial vs linux-6.8\n(and the short-path row)",
      TAKES_LEN | TAKES_IMPLS, LAT | TPUT, NAMES_CSUM },
    { "h40", table_h40, "van de Ven 2021: 40 bytes, even/odd address, seed first/last,\nthree modes",
      TAKES_IMPLS | TAKES_ZERO_SUM, LAT | TPUT | MODE_FENCED, NAMES_CSUM | NAMES_H40 },
    { "copy", table_copy, "Gerum 2021: fused copy+checksum vs memcpy+checksum;\nmin/avg/max, p99.9",
      TAKES_LEN | TAKES_ALIGN | TAKES_IMPLS | TAKES_DST_ALIGN | TAKES_BUSY, TPUT, NAMES_COPY },
    { "memops", table_memops, "Evans 2003: zero/copy variants, cached 4 KiB vs uncached 400 MiB", 0, TPUT, 0 },
    { "iov", table_iov, "Viro/Laight 2020: checksum over 16 iovec segments of 1..1024 bytes", 0, LAT, 0 },
    { "batch", table_batch, "IPv4 header checksums: csum_ipv4_header_batch vs a loop, per header", 0, TPUT, 0 },
    { "pcap", table_pcap, "csum pcap verify throughput on a generated capture (GB/s)", 0, TPUT, 0 },
};
#define N_TABLES (sizeof tables / sizeof tables[0])

/* ---- output: visible text, captured for the report ------------------------------------------ */

static FILE *visible;
static char *captured;
static size_t captured_len;
static FILE *capture;
/* The text tables are all the run gives (no --out, no --json/--csv): when they cannot be
 * written, the run stops. With SIGPIPE ignored (a parent that ignores it passes that on),
 * 'csum bench | head -1' measured every table for no reader, for as long as a full run takes. */
static int stop_unwritten;

/* Only cut short when nothing else is to come of the run. */
static void stop_if_unwritten(void)
{
    if (!stop_unwritten || !ferror(visible))
        return;
    const int e = errno;
    fprintf(stderr, "csum: bench: cannot write output: %s (the run stops)\n",
            e ? strerror(e) : "write error");
    exit(1);
}

void lab_out(const char *fmt, ...)
{
    va_list ap;
    if (!visible)
        visible = stdout;
    va_start(ap, fmt);
    vfprintf(visible, fmt, ap);
    va_end(ap);
    if (capture) {
        va_start(ap, fmt);
        vfprintf(capture, fmt, ap);
        va_end(ap);
    }
    fflush(visible);
    if (visible == stdout)
        stdout_error_errno(); /* why, for main(): with --out the run measures on */
    stop_if_unwritten();
}

void lab_table_title(const struct lab_env *env, const char *title, const char *what)
{
    /* The clock, named as such: the title says the unit (ticks, ns, B/s), and a bare "(TSC
     * ticks; ...)" under the copy table's nanoseconds read as the unit of its numbers. */
    lab_out("\n== %s: %s\n", title, what);
    lab_out("   (clock: %s%s; %d batches of >= %g ms; median per call unless stated)\n",
            env->clk->tick_name, strcmp(env->clk->tick_name, "ns") ? ", not core cycles" : "",
            env->o->batches, env->o->batch_ms);
}

/* ---- options ----------------------------------------------------------------------------------- */

/* The tables that honour an option (a TAKES_ flag), or time a mode (mode: a MODE_ bit), from
 * the table above, so that --help and the refusals say what the code does. */
static void print_tables_with(FILE *f, unsigned flag, unsigned mode, int help)
{
    /* In --help, lines of at most 80 columns under "                    tables: ". */
    const char *sep = "";
    size_t column = 28;
    for (size_t t = 0; t < N_TABLES; t++) {
        if ((tables[t].takes & flag) || (tables[t].modes & mode)) {
            const size_t width = strlen(sep) + strlen(tables[t].name);
            if (help && *sep && column + width + 1 > 80) {
                fprintf(f, ",\n%28s%s", "", tables[t].name);
                column = 28 + strlen(tables[t].name);
            } else {
                fprintf(f, "%s%s", sep, tables[t].name);
                column += width;
            }
            sep = ", ";
        }
    }
}

static void print_tables_taking(FILE *f, unsigned flag)
{
    print_tables_with(f, flag, 0, 0);
}

/* An option given that some tables ignore: its name, and the TAKES_ flag of those that don't. */
struct table_option {
    const char *name;
    unsigned flag;
    int given;
    int one_table; /* an option of one table (it only changes what that table does) */
};

/* Refuse what the tables named on the command line would ignore (see TAKES_ above), and
 * --zero-sum with --latency alone (h40 would time nothing); 0 when nothing is, else 2 after
 * saying why. With no table named every option is taken: tables that do not take one run
 * their own cases, as documented. */
static int refuse_ignored_options(const struct lab_options *o, const int *selected, int any_selected)
{
    /* h40's latency columns chain each result into the next call's sum: with --zero-sum they
     * have nothing to time, and --latency alone would leave a table of dashes. */
    if (o->zero_sum && o->modes == MODE_LATENCY) {
        fprintf(stderr, "csum: bench: --zero-sum times no latency column (each result is the "
                        "next call's initial sum, never 0): add --throughput, or leave out "
                        "--latency\nTry 'csum bench --help'.\n");
        return 2;
    }
    if (!any_selected)
        return 0;
    const struct table_option opts[] = {
        { "-l", TAKES_LEN, o->len >= 0, 0 },
        { "-a", TAKES_ALIGN, o->align >= 0, 0 },
        { "-M", TAKES_IMPLS, o->only_impls != NULL, 0 },
        { "--dst-align", TAKES_DST_ALIGN, o->dst_align >= 0, 1 },
        { "-I", TAKES_INTERLEAVE, o->interleave, 1 },
        { "--zero-sum", TAKES_ZERO_SUM, o->zero_sum, 1 },
        { "--busy", TAKES_BUSY, o->busy, 1 },
        { "--baseline", TAKES_BASELINE, o->baseline != NULL, 1 },
    };
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        if (!opts[k].given)
            continue;
        int taken = 0;
        for (size_t t = 0; t < N_TABLES; t++) {
            if (!selected[t])
                continue;
            taken |= (tables[t].takes & opts[k].flag) != 0;
            if (!opts[k].one_table && !(tables[t].takes & opts[k].flag)) {
                fprintf(stderr, "csum: bench: %s does not take %s (it measures its own %s); "
                                "tables that do: ", tables[t].name, opts[k].name,
                        opts[k].flag == TAKES_IMPLS ? "subjects" : "cases");
                print_tables_taking(stderr, opts[k].flag);
                fprintf(stderr, "\nTry 'csum bench --help'.\n");
                return 2;
            }
        }
        if (!taken) {
            fprintf(stderr, "csum: bench: %s is the ", opts[k].name);
            print_tables_taking(stderr, opts[k].flag);
            fprintf(stderr, " table's: name it too (or no table)\nTry 'csum bench --help'.\n");
            return 2;
        }
    }
    /* --latency / --throughput: a table that times neither of the modes asked for. */
    for (size_t t = 0; t < N_TABLES; t++) {
        if (!selected[t] || !o->modes || (o->modes & tables[t].modes))
            continue;
        const unsigned asked = o->modes & (MODE_LATENCY | MODE_THROUGHPUT);
        fprintf(stderr, "csum: bench: %s times %s mode only, not %s; tables that do: ",
                tables[t].name, lab_mode_name((enum lab_mode)(tables[t].modes & (LAT | TPUT))),
                asked == (LAT | TPUT) ? "latency or throughput" : lab_mode_name((enum lab_mode)asked));
        print_tables_with(stderr, 0, o->modes, 0);
        fprintf(stderr, "\nTry 'csum bench --help'.\n");
        return 2;
    }
    return 0;
}

/* The tables, each with what it times, a description's later lines under its first (--help
 * and --list). */
static void print_table_list(FILE *f)
{
    for (size_t i = 0; i < N_TABLES; i++) {
        fprintf(f, "  %-9s ", tables[i].name);
        for (const char *c = tables[i].what; *c; c++) {
            fputc(*c, f);
            if (*c == '\n')
                fprintf(f, "%12s", "");
        }
        fputc('\n', f);
    }
}

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: csum bench [TABLE...] [OPTIONS]\n"
            "The lab: time every implementation side by side with one stated method.\n"
            "\nTables (default: all):\n");
    print_table_list(f);
    fprintf(f,
            "\nOptions:\n"
            "  -l LEN            only this length, 0..1073741824; must be allocatable\n"
            "                    (thrash: its first combination)\n"
            "                    tables: ");
    print_tables_with(f, TAKES_LEN, 0, 1);
    fprintf(f,
            "\n"
            "  -a ALIGN          only this alignment, 0..63 (offset from a 64-byte\n"
            "                    boundary; copy: of the source and, unless --dst-align,\n"
            "                    the destination)\n"
            "                    tables: ");
    print_tables_with(f, TAKES_ALIGN, 0, 1);
    fprintf(f,
            "\n"
            "  --dst-align N     copy: the destination at this offset, 0..63\n"
            "                    (default: -a's, or 0)\n"
            "  -c COUNT          calls per batch (or iterations per distribution) instead of\n"
            "                    auto, 1..1000000000; refused if one measurement would take\n"
            "                    more than 60 s (thrash: a multiple of 1048576, whole passes\n"
            "                    over its schedule; one pass without -c)\n"
            "  --noise PCT       repeat, then flag, results whose p10-p90 spread exceeds\n"
            "                    PCT %% of the median, 1..100 (default 10)\n"
            "  --repeats N       how often a noisy measurement is repeated, 0..5 (default 2;\n"
            "                    1 with --quick)\n"
            "  -M IMPL[,IMPL...] only these implementations (names from 'csum impls', plus\n"
            "                    csum_partial = the public entry point, peers such as dpdk,\n"
            "                    and for h40 the 40-byte kernels 40:... and inline-40;\n"
            "                    copy: its rows by name, csum_partial's copy with it,\n"
            "                    memcpy always); each name once, none empty\n"
            "                    tables: ");
    print_tables_with(f, TAKES_IMPLS, 0, 1);
    fprintf(f,
            "\n"
            "  --baseline IMPL   lenalign's %% column: first -M implementation vs IMPL\n"
            "                    (default: csum_partial vs linux-6.8, else generic)\n"
            "  -I                thrash: interleaved calls only\n"
            "  --latency         latency mode only (each result feeds the next call)\n"
            "                    tables: ");
    print_tables_with(f, 0, MODE_LATENCY, 1);
    fprintf(f,
            "\n"
            "  --throughput      throughput mode only (independent calls)\n"
            "                    tables: ");
    print_tables_with(f, 0, MODE_THROUGHPUT, 1);
    fprintf(f,
            "\n"
            "  --zero-sum        h40: initial sum 0\n"
            "  --busy            copy: also run with a cache-thrashing thread on another CPU\n"
            "  --json | --csv    results on stdout as JSON or CSV (tables go to stderr)\n"
            "  --out DIR         also write DIR/report.md, results.json, results.csv (a new\n"
            "                    directory: an earlier run is never overwritten)\n"
            "  --cpu N           pin to CPU N, 0..(online CPUs - 1) (default: the last one it\n"
            "                    may run on, taskset's set kept, of the fastest kind of core)\n"
            "  --quick           fewer batches and cases: a check run, not for publishing\n"
            "  --list            list tables and the implementations that would be timed\n"
            "  --                the options end: only tables after it\n"
            "  -h, --help        this help\n"
            "A table named with an option it does not take, or an option of one table (-I,\n"
            "--zero-sum, --busy, --baseline, --dst-align) without that table, is refused.\n"
            "Method: docs/METHOD.md. Ticks are the TSC (x86) or CNTVCT (arm64), not cycles.\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "csum: bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'csum bench --help'.\n");
    return 2;
}

/* --cpu's range is the online CPUs', whatever was wrong with the value (a word, -1, 4096, one
 * past the last): it said "from 0 to 4095" for all but the last, which --help does not say. */
static int bad_cpu(const char *val)
{
    fprintf(stderr, "csum: bench: option --cpu takes a CPU number from 0 to %ld (online CPUs), "
                    "not '%s'\nTry 'csum bench --help'.\n", sysconf(_SC_NPROCESSORS_ONLN) - 1, val);
    return 2;
}

/* Decimal digits only (a '-' first gets the range in the message): strtol alone also took
 * leading blanks and a '+' ('-l " 5"', '-l +5'), which no documented form has. */
static int parse_long(const char *s, long min, long max, long *out)
{
    if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* One numeric option: its name, its range, and where it goes. */
struct numeric_option {
    const char *name;
    long min, max;
    const char *what; /* for the message: "a length", "a count", ... */
};

static const struct numeric_option numeric_options[] = {
    { "-l", 0, LAB_MAX_LEN, "a length in bytes" },
    { "-a", 0, 63, "an alignment (offset from a 64-byte boundary)" },
    { "--dst-align", 0, 63, "an alignment (offset from a 64-byte boundary)" },
    { "-c", 1, LAB_MAX_COUNT, "a count" },
    { "--cpu", 0, 4095, "a CPU number" },
    { "--noise", 1, 100, "a percentage" },
    { "--repeats", 0, 5, "a number of repeats" },
};

static const struct numeric_option *numeric_option(const char *name)
{
    for (size_t i = 0; i < sizeof numeric_options / sizeof *numeric_options; i++)
        if (!strcmp(numeric_options[i].name, name))
            return &numeric_options[i];
    return NULL;
}

/* ---- the --out directory of a run that has not written its files yet ------------------------ */

/* run() creates the --out directory first (so that no other run takes the name while this one
 * measures) and writes its files last. A run that ends before that (Ctrl-C, kill, a closed
 * terminal or pipe, a count refused after the warm-up) removes the directory and whatever it
 * wrote of its files: an empty directory left behind made the same --out "already exist", and
 * the rerun was refused although no run had written anything there. Only our three names are
 * unlinked, and rmdir removes only an empty directory: nothing else is touched. */
static char out_paths[4][4096]; /* results.json, results.csv, report.md, then the directory */
static volatile sig_atomic_t out_pending;
static const int out_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
enum { N_OUT_SIGNALS = sizeof out_signals / sizeof out_signals[0] };
static struct sigaction out_old[N_OUT_SIGNALS];
static int out_caught[N_OUT_SIGNALS];

/* Only what is safe in a signal handler: unlink and rmdir. */
static void remove_unwritten_out(void)
{
    if (!out_pending)
        return;
    out_pending = 0;
    for (int k = 0; k < 3; k++)
        unlink(out_paths[k]);
    rmdir(out_paths[3]);
}

static void remove_out_and_die(int sig)
{
    remove_unwritten_out();
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the death the signal would have caused */
}

void lab_catch_signals(void (*handler)(int), const int *signals, int n, struct sigaction *old,
                       int *caught)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < n; k++)
        sigaddset(&sa.sa_mask, signals[k]); /* one clean-up, then the first signal's death */
    for (int k = 0; k < n; k++) {
        caught[k] = 0;
        if (sigaction(signals[k], NULL, &old[k]) == 0 && old[k].sa_handler != SIG_IGN)
            caught[k] = sigaction(signals[k], &sa, NULL) == 0;
    }
}

void lab_restore_signals(const int *signals, int n, const struct sigaction *old, const int *caught)
{
    for (int k = 0; k < n; k++)
        if (caught[k])
            sigaction(signals[k], &old[k], NULL);
}

/* `dir` was just created by this run: remove it if the run stops before writing its files. */
static void arm_out_removal(const char *dir)
{
    static const char *const names[3] = { "results.json", "results.csv", "report.md" };
    for (int k = 0; k < 3; k++)
        snprintf(out_paths[k], sizeof out_paths[k], "%s/%s", dir, names[k]);
    snprintf(out_paths[3], sizeof out_paths[3], "%s", dir);
    out_pending = 1;
    lab_catch_signals(remove_out_and_die, out_signals, N_OUT_SIGNALS, out_old, out_caught);
}

/* The files are written (or could not be, said on stderr): what is there stays. */
static void disarm_out_removal(void)
{
    lab_restore_signals(out_signals, N_OUT_SIGNALS, out_old, out_caught);
    out_pending = 0;
}

void lab_refuse_option(const char *fmt, ...)
{
    va_list ap;
    remove_unwritten_out(); /* refused after the warm-up: the run wrote nothing */
    fflush(stdout);
    fprintf(stderr, "csum: bench: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'csum bench --help'.\n");
    exit(2);
}

static int failed;

void lab_fail(const char *table, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    lab_note(table, "%s", text);
    fprintf(stderr, "csum: bench: %s: %s\n", table, text);
    failed = 1;
}

void lab_wrong_sum(const char *table, int peer, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    static char last[200]; /* a table that refuses per column says it once on stderr */
    if (peer) {
        lab_note(table, "%s", text);
    } else if (strcmp(text, last) != 0) {
        snprintf(last, sizeof last, "%s", text);
        lab_fail(table, "%s (a wrong checksum from libcsum: a bug, please report it)", text);
    }
}

int lab_failed(void)
{
    return failed;
}

/* Whether `bytes` can be had at all (a length that cannot be allocated is refused up front,
 * not discovered half-way through a run). */
static int can_allocate(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    munmap(p, bytes);
    return 1;
}

static int write_file(const char *dir, const char *name, void (*writer)(FILE *, void *), void *arg)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "csum: bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    writer(f, arg);
    if (fclose(f) != 0) {
        fprintf(stderr, "csum: bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

struct writer_args {
    const struct lab_options *o;
    const struct lab_clock *clk;
};

static void write_json_cb(FILE *f, void *a)
{
    struct writer_args *w = a;
    lab_write_json(f, w->o, w->clk);
}

static void write_csv_cb(FILE *f, void *a)
{
    struct writer_args *w = a;
    lab_write_csv(f, w->o, w->clk);
}

static void write_report_cb(FILE *f, void *a)
{
    struct writer_args *w = a;
    fflush(capture);
    lab_write_report(f, w->o, w->clk, captured);
}

/*
 * Same address layout every run: code and data addresses feed branch predictors and cache
 * indexing, so under ASLR a loop-heavy function can be fast in one process and 30% slower in
 * the next (seen with DPDK's rte_raw_cksum). Re-execute once with ASLR off (what `setarch -R`
 * does), keeping the whole original command line. Returns 0 if the layout is now fixed.
 */
static int fix_address_layout(void)
{
    int current = personality(0xffffffff);
    if (current == -1)
        return -1;
    if (current & ADDR_NO_RANDOMIZE)
        return 0;
    if (getenv("CSUM_BENCH_NO_REEXEC") || personality((unsigned long)current | ADDR_NO_RANDOMIZE) == -1)
        return -1;
    static char cmdline[1 << 16];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t n = f ? fread(cmdline, 1, sizeof cmdline - 1, f) : 0;
    if (f)
        fclose(f);
    char *args[512];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 511; i += strlen(cmdline + i) + 1)
        args[k++] = cmdline + i;
    args[k] = NULL;
    if (k == 0 || n == sizeof cmdline - 1)
        return -1;
    setenv("CSUM_BENCH_NO_REEXEC", "1", 1); /* never loop, whatever happens */
    execv("/proc/self/exe", args);
    return -1; /* exec failed: carry on with ASLR */
}

/* An option that takes a value, given twice, is refused: the first value would be dropped
 * without a word ('-l 40 -l 100' timed 100 bytes only). Records `name`'s value; 0, or 2 after
 * saying so. */
static int refuse_twice(const char *name, const char *value)
{
    static const char *const valued[] = { "-l", "-a", "--dst-align", "-c", "--cpu", "--noise",
                                          "--repeats", "-M", "--baseline", "--out" };
    static const char *first[sizeof valued / sizeof valued[0]];
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
        if (strcmp(valued[k], name) != 0)
            continue;
        if (first[k]) {
            fprintf(stderr, "csum: bench: option %s given twice ('%s', then '%s'): it takes one "
                            "value%s\nTry 'csum bench --help'.\n", name, first[k], value,
                    strcmp(name, "-M") ? "" : " (a list: -M IMPL,IMPL)");
            return 2;
        }
        first[k] = value;
    }
    return 0;
}

/* What the command line asks for besides struct lab_options: the tables, --list, --repeats. */
struct request {
    int selected[N_TABLES], any_selected;
    int list;
    int repeats; /* -1: the default */
};

enum { GO_ON = -1 };

/* Select the table called `name`: 1, or 0 when there is none. */
static int table_named(const char *name, struct request *r)
{
    for (size_t t = 0; t < N_TABLES; t++)
        if (!strcmp(tables[t].name, name)) {
            r->selected[t] = r->any_selected = 1;
            return 1;
        }
    return 0;
}

/* The command line into o and r: GO_ON, or the exit status (0 after --help, 2 after saying
 * what is wrong). */
static int parse_args(int argc, char **argv, struct lab_options *o, struct request *r)
{
    long v;
    int tables_only = 0; /* after "--", as csum sum, verify and pcap take it: tables alone */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (tables_only) {
            /* An option there is not read as one: named, as the table it is not. */
            if (!table_named(a, r))
                return bad_usage(a[0] == '-' ? "'%s' after '--' is not a table (options go "
                                               "before '--')"
                                             : "unknown table '%s' (see 'csum bench --help')", a);
        } else if (!strcmp(a, "--")) {
            tables_only = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (numeric_option(a)) {
            const struct numeric_option *no = numeric_option(a);
            if (!val)
                return bad_usage("option %s needs a value", a);
            if (refuse_twice(a, val) != 0)
                return 2;
            if (parse_long(val, no->min, no->max, &v) != 0) {
                if (!strcmp(a, "--cpu")) /* the range that counts, as for a number too high */
                    return bad_cpu(val);
                fprintf(stderr, "csum: bench: option %s takes %s from %ld to %ld, not '%s'\n"
                                "Try 'csum bench --help'.\n", a, no->what, no->min, no->max, val);
                return 2;
            }
            if (!strcmp(a, "-l"))
                o->len = v;
            else if (!strcmp(a, "-a"))
                o->align = v;
            else if (!strcmp(a, "--dst-align"))
                o->dst_align = v;
            else if (!strcmp(a, "-c"))
                o->count = v;
            else if (!strcmp(a, "--noise"))
                o->noise_limit = (double)v / 100.0;
            else if (!strcmp(a, "--repeats"))
                r->repeats = (int)v;
            else
                o->cpu = (int)v;
            i++;
        } else if (!strcmp(a, "-M") || !strcmp(a, "--baseline") || !strcmp(a, "--out")) {
            if (!val || !*val)
                return bad_usage("option %s needs a value", a);
            /* '--out --quick' made a directory "--quick" and ran the whole lab, not a quick one:
             * no implementation's name starts with '-', and a directory that does is ./-x. */
            if (val[0] == '-') {
                fprintf(stderr, "csum: bench: option %s needs a value, not the option '%s'%s\n"
                                "Try 'csum bench --help'.\n", a, val,
                        strcmp(a, "--out") ? "" : " (a directory whose name starts with '-': ./-x)");
                return 2;
            }
            if (refuse_twice(a, val) != 0)
                return 2;
            if (!strcmp(a, "-M") && lab_list_refuse("bench", val) != 0)
                return 2;
            if (!strcmp(a, "-M"))
                o->only_impls = val;
            else if (!strcmp(a, "--baseline"))
                o->baseline = val;
            else
                o->out_dir = val;
            i++;
        } else if (!strcmp(a, "-I")) {
            o->interleave = 1;
        } else if (!strcmp(a, "--latency")) {
            o->modes |= MODE_LATENCY;
        } else if (!strcmp(a, "--throughput")) {
            o->modes |= MODE_THROUGHPUT;
        } else if (!strcmp(a, "--zero-sum")) {
            o->zero_sum = 1;
        } else if (!strcmp(a, "--busy")) {
            o->busy = 1;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--csv")) {
            o->csv = 1;
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1;
        } else if (!strcmp(a, "--list")) {
            r->list = 1;
        } else if (a[0] == '-') {
            return bad_usage("unknown option '%s'", a);
        } else if (!table_named(a, r)) {
            return bad_usage("unknown table '%s' (see 'csum bench --help')", a);
        }
    }
    if (o->json && o->csv)
        return bad_usage("%s", "--json and --csv are exclusive (use --out DIR for both)");
    if (o->cpu >= sysconf(_SC_NPROCESSORS_ONLN)) {
        char given[24];
        snprintf(given, sizeof given, "%d", o->cpu);
        return bad_cpu(given);
    }
    return GO_ON;
}

/* A table named on the command line must honour the options given, and every table that will
 * run must have something to measure with -l / -a, -c, and memory for what they lead to. 0, or
 * 2 after saying why not. */
static int refuse_cases(const struct lab_options *o, const struct request *r)
{
    if (refuse_ignored_options(o, r->selected, r->any_selected) != 0)
        return 2;
    for (size_t t = 0; t < N_TABLES; t++) {
        if (r->any_selected && !r->selected[t])
            continue;
        if (!strcmp(tables[t].name, "lenalign") && (o->len >= 0 || o->align >= 0) &&
            table_lenalign_cases(o->len, o->align) == 0) {
            /* The options given, each only if given (a value may be 0). */
            char given[64] = "";
            if (o->len >= 0)
                snprintf(given, sizeof given, " -l %ld", o->len);
            if (o->align >= 0)
                snprintf(given + strlen(given), sizeof given - strlen(given), " -a %ld", o->align);
            fprintf(stderr, "csum: bench: lenalign has no case with%s (its cases are fixed "
                            "Len/Aln pairs: see docs/METHOD.md; sizes takes any -l/-a)\nTry 'csum bench "
                            "--help'.\n", given);
            return 2;
        }
        /* copy keeps the time of each of its -c single calls: memory that must be there. */
        if (!strcmp(tables[t].name, "copy") && o->count > 0 &&
            !can_allocate((size_t)o->count * sizeof(double))) {
            fprintf(stderr, "csum: bench: -c %ld: copy cannot allocate the %zu bytes that the "
                            "times of %ld single calls take (name the other tables without copy "
                            "for this count)\nTry 'csum bench --help'.\n", o->count,
                    (size_t)o->count * sizeof(double), o->count);
            return 2;
        }
        char why[160];
        if (!strcmp(tables[t].name, "pcap") && table_pcap_check_settings(o->quick, why, sizeof why)) {
            fprintf(stderr, "csum: bench: %s\nTry 'csum bench --help'.\n", why);
            return 2;
        }
        if (!strcmp(tables[t].name, "thrash") && o->count > 0 && o->count % LAB_THRASH_SCHEDULE) {
            fprintf(stderr, "csum: bench: thrash times whole passes over its %d-call schedule: "
                            "-c takes a multiple of %d there, not %ld (name the other tables "
                            "without thrash for another count)\nTry 'csum bench --help'.\n",
                    LAB_THRASH_SCHEDULE, LAB_THRASH_SCHEDULE, o->count);
            return 2;
        }
    }
    if (o->len >= 0) {
        /* The largest buffers -l leads to: sizes (>= 64 KiB), copy (source and destination). */
        size_t need = 2 * ((size_t)o->len + 8192) + 65536;
        if (!can_allocate(need)) {
            fprintf(stderr, "csum: bench: -l %ld: cannot allocate the %zu bytes it needs\nTry "
                            "'csum bench --help'.\n", o->len, need);
            return 2;
        }
    }
    return 0;
}

/* A -M name that none of the tables that will run times: 0, or 2 after saying which tables
 * would. (With no table named every table runs, and each kind of name has one.) */
static int refuse_untimed_name(const struct request *r, const char *name, unsigned kinds)
{
    if (!r->any_selected)
        return 0;
    size_t named = 0, first = 0;
    for (size_t t = 0; t < N_TABLES; t++) {
        if (!r->selected[t])
            continue;
        if (tables[t].names & kinds)
            return 0;
        if (named++ == 0)
            first = t;
    }
    if (named == 1) {
        fprintf(stderr, "csum: bench: -M %s: %s does not time it (", name, tables[first].name);
    } else {
        fprintf(stderr, "csum: bench: -M %s: none of ", name);
        for (size_t t = 0, k = 0; t < N_TABLES; t++)
            if (r->selected[t])
                fprintf(stderr, "%s%s", k++ ? ", " : "", tables[t].name);
        fprintf(stderr, " times it (");
    }
    size_t timing = 0;
    for (size_t t = 0; t < N_TABLES; t++)
        if (tables[t].names & kinds)
            fprintf(stderr, "%s%s", timing++ ? ", " : "", tables[t].name);
    fprintf(stderr, " %s%s)\nTry 'csum bench --help'.\n", timing > 1 ? "do" : "does",
            (kinds & NAMES_CSUM) ? "" : ": see 'csum bench --list'");
    return 2;
}

/* Every name -M and --baseline give is something to time, by a table that will run, checked
 * before spending any time. 0, or 2 after saying why not. */
static int refuse_names(const struct lab_options *o, const struct request *r,
                        struct lab_subject *everything, size_t n_everything)
{
    size_t for_short = 0; /* the csum_partial subjects short would time together */
    char name[LAB_NAME_SIZE]; /* none is cut: parse_args refused the list's faults */
    for (const char *p = o->only_impls, *next; (next = lab_list_next(p, name, sizeof name));
         p = next) {
        unsigned kinds = 0;
        if (!strcmp(name, "inline-40"))
            kinds |= NAMES_H40;
        for (size_t k = 0; lab_h40_kernels[k].name; k++)
            if (!strcmp(name, lab_h40_kernels[k].name))
                kinds |= NAMES_H40;
        for (size_t k = 0; lab_copy_subjects[k]; k++) /* streaming rows, csum_partial_copy too */
            if (!strcmp(name, lab_copy_subjects[k]->name) || !strcmp(name, "csum_partial"))
                kinds |= NAMES_COPY;
        if (lab_subject_find(everything, n_everything, name)) {
            kinds |= NAMES_CSUM;
            for_short++;
        }
        if (!kinds) {
            const char *hidden = getenv("CSUM_CPU_DISABLE");
            if (!csum_impl_find(name) && !csum_copy_impl_find(name))
                return bad_usage("unknown implementation '%s' (see 'csum bench --list')", name);
            return bad_usage(hidden && *hidden
                                 ? "implementation '%s' cannot run here: this CPU lacks, or "
                                   "CSUM_CPU_DISABLE hides, what it needs (see 'csum impls')"
                                 : "implementation '%s' is not supported by this CPU",
                             name);
        }
        if (refuse_untimed_name(r, name, kinds) != 0)
            return 2;
    }
    size_t short_table = 0;
    while (strcmp(tables[short_table].name, "short"))
        short_table++;
    if (for_short > LAB_GROUP_MAX && (!r->any_selected || r->selected[short_table])) {
        fprintf(stderr, "csum: bench: short times at most %d subjects together, and -M names %zu "
                        "(name fewer, or the other tables without short)\nTry 'csum bench "
                        "--help'.\n", LAB_GROUP_MAX, for_short);
        return 2;
    }
    if (o->baseline && !lab_subject_find(everything, n_everything, o->baseline))
        return bad_usage("unknown baseline '%s' (see 'csum bench --list')", o->baseline);
    return 0;
}

/* A variable of the environment that chooses what the public entry points run (CSUM_IMPL,
 * CSUM_DISPATCH, CSUM_COPY_IMPL, CSUM_BATCH_IMPL) and that the library ignored (no such row,
 * one this CPU cannot run, a malformed plan): the run would time the automatic plan under the
 * name csum_partial (or csum_partial_copy, the batch), not what the user named, and only the
 * JSON's dispatch_source said so. The library notes it in the plan's source, as "(VAR ignored:
 * WHY)" (csum.h); CSUM_DISPATCH left for CSUM_IMPL, which comes first, is no mistake. 0, or 2
 * after saying which, before anything is timed. */
static int refuse_ignored_environment(const struct lab_options *o)
{
    static const char *const vars[] = { "CSUM_IMPL", "CSUM_DISPATCH", "CSUM_COPY_IMPL",
                                         "CSUM_BATCH_IMPL" };
    struct lab_machine m;
    lab_machine_describe(&m, o);
    const char *const plans[][3] = {
        { "csum_partial", m.dispatch, m.dispatch_source },
        { "csum_partial_copy", m.copy_dispatch, m.copy_source },
        { "csum_ipv4_header_batch", m.batch_dispatch, m.batch_source },
    };
    for (size_t p = 0; p < sizeof plans / sizeof plans[0]; p++)
        for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++) {
            char note[64];
            snprintf(note, sizeof note, "(%s ignored: ", vars[v]);
            const char *why = strstr(plans[p][2], note);
            if (!why)
                continue;
            why += strlen(note);
            size_t n = strlen(why);
            const char *close = strstr(why, ") (");
            if (close)
                n = (size_t)(close - why);
            else if (n && why[n - 1] == ')')
                n--;
            if (!strncmp(why, "CSUM_IMPL comes first", n))
                continue;
            const char *value = getenv(vars[v]);
            fprintf(stderr, "csum: bench: %s=%s is ignored (%.*s): %s would run %s, not what it "
                            "names; unset it, or name a row from 'csum impls'\nTry 'csum bench "
                            "--help'.\n", vars[v], value ? value : "", (int)n, why, plans[p][0],
                    plans[p][1]);
            return 2;
        }
    return 0;
}

/* One row of --list: NAME in a column `name_width` wide, then `text` wrapped under itself, so
 * that the list fits in 80 columns (the descriptions come from the implementation table). */
static void print_list_row(int name_width, const char *name, const char *text)
{
    text_print_wrapped(80, text, 2 + name_width + 1, printf("  %-*s ", name_width, name));
}

/* --list: the tables, and every name -M takes (its refusals point here). */
static void print_list(const struct lab_subject *everything, size_t n_everything)
{
    char text[512];
    printf("Tables:\n");
    print_table_list(stdout);
    printf("Subjects (this CPU):\n");
    for (size_t i = 0; i < n_everything; i++) {
        snprintf(text, sizeof text, "%s%s", everything[i].refused ? "REFUSED: " : "",
                 everything[i].refused ? everything[i].why : everything[i].origin);
        print_list_row(14, everything[i].name, text);
    }
    /* Every name -M takes is listed (its refusals point here): h40's own subjects too. */
    printf("40-byte subjects (h40 only):\n");
    for (size_t k = 0; lab_h40_kernels[k].name; k++) {
        snprintf(text, sizeof text, "van de Ven 2021's \"%s\" step, %s", lab_h40_kernels[k].step,
                 lab_h40_kernels[k].zero_sum_only        ? "initial sum 0 (--zero-sum only)"
                 : !strcmp(lab_h40_kernels[k].seed, "first") ? "initial sum first in the chain"
                                                             : "initial sum in the final fold");
        print_list_row(19, lab_h40_kernels[k].name, text);
    }
    print_list_row(19, "inline-40", "csum.h's constant-length inline path");
    printf("Copy subjects (copy, memops):\n");
    for (size_t i = 0; lab_copy_subjects[i]; i++)
        print_list_row(17, lab_copy_subjects[i]->name, lab_copy_subjects[i]->origin);
    printf("Memory operations (memops):\n");
    for (size_t i = 0; lab_memops[i] && lab_memops[i]->kind != MEMOP_CSUM_COPY; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s %s", lab_memops[i]->kind == MEMOP_ZERO ? "zero" : "copy",
                 lab_memops[i]->name);
        print_list_row(17, name, lab_memops[i]->origin);
    }
    printf("iov subjects (iov):\n");
    for (size_t i = 0; lab_iov_subjects[i]; i++)
        print_list_row(17, lab_iov_subjects[i]->name, lab_iov_subjects[i]->origin);
}

/* The run's first lines: machine, clock, counters, address layout, load, refused subjects. */
static void print_run_header(const struct lab_env *env, int fixed_layout)
{
    const struct lab_clock *clk = env->clk;
    lab_out("csum lab: %s, pinned to %s; %s at %.3f GHz, step %llu; core ~%.2f GHz (%s)\n",
            env->machine.cpu, lab_pinned_text(&env->machine), clk->tick_name, clk->ticks_per_ns,
            (unsigned long long)clk->granularity, clk->ticks_per_ns * clk->cycles_per_tick,
            clk->cycles_measured ? "perf_event" : "est. from a 1-cycle add chain");
    lab_out("counters: %s; address layout: %s\n",
            clk->counters ? "perf_event (instructions, branch-misses)" : "n/a (perf_event unavailable here)",
            fixed_layout ? "fixed (ASLR off for the lab)" : "randomized (could not turn ASLR off)");
    /* How the code under test was built: the report's machine line and the JSON said it, the
     * text that is pasted into a review did not. Peers' own flags: the report's subjects. */
    lab_out("build: csum %s (%s), %s, %s, flags %s\n", CSUM_VERSION_STRING, lab_build_source(),
            env->machine.compiler, lab_build_type(), lab_build_lib_flags());
    if (!fixed_layout)
        lab_note("all", "ASLR could not be turned off: run-to-run differences may be larger");
    /* What the csum_partial column times, and where that came from: CSUM_IMPL=avx2 makes it the
     * avx2 row, which only the JSON and the report said. The copy and batch plans when
     * something other than the compiled-in defaults set them. */
    lab_out("csum_partial's plan: %s (%s)\n", env->machine.dispatch, env->machine.dispatch_source);
    if (strncmp(env->machine.copy_source, "compiled-in defaults", 20) != 0)
        lab_out("csum_partial_copy's plan: %s (%s)\n", env->machine.copy_dispatch,
                env->machine.copy_source);
    if (strncmp(env->machine.batch_source, "compiled-in defaults", 20) != 0)
        lab_out("csum_ipv4_header_batch's plan: %s (%s)\n", env->machine.batch_dispatch,
                env->machine.batch_source);
    char load[LAB_LOAD_TEXT_MAX];
    lab_load_describe(lab_load_now(), load, sizeof load);
    lab_out("load while calibrating: %s\n", load);
    if (lab_load_now()->busy)
        lab_out("WARNING: other tasks are using this CPU: numbers will be slow and noisy "
                "(docs/METHOD.md, \"On a busy machine\")\n");
    for (size_t i = 0; i < env->n_subjects; i++)
        if (env->subjects[i].refused) {
            lab_out("REFUSED %s: %s; no numbers will be shown for it\n", env->subjects[i].name,
                    env->subjects[i].why);
            /* Our rows are listed only when the CPU runs them: refused means wrong sums. */
            lab_wrong_sum("all", env->subjects[i].peer, "%s refused: %s", env->subjects[i].name,
                          env->subjects[i].why);
        }
}

/* JSON or CSV on stdout, and the files of --out. The run's exit status: 1 when a table failed
 * or a file could not be written. */
static int write_outputs(const struct lab_options *o, const struct lab_clock *clk)
{
    int status = lab_failed();
    /* The files first: a reader of stdout gone (SIGPIPE) costs the run its JSON or CSV there,
     * not the files as well ('--json --out DIR | true' left DIR empty). */
    if (o->out_dir) {
        struct writer_args w = { o, clk };
        if (write_file(o->out_dir, "results.json", write_json_cb, &w) ||
            write_file(o->out_dir, "results.csv", write_csv_cb, &w) ||
            write_file(o->out_dir, "report.md", write_report_cb, &w))
            status = 1;
        else
            fprintf(stderr, "csum: bench: wrote %s/report.md, results.json, results.csv\n", o->out_dir);
        disarm_out_removal(); /* written, or said why not: what is there stays */
    }
    if (o->json)
        lab_write_json(stdout, o, clk);
    if (o->csv)
        lab_write_csv(stdout, o, clk);
    return status;
}

/* Pin, calibrate, run the tables asked for and write what they found: the exit status. */
static int run(struct lab_options *o, const struct request *r)
{
    const int fixed_layout = fix_address_layout() == 0;
    if (lab_pin_cpu(o->cpu) != 0) {
        fprintf(stderr, "csum: bench: cannot pin to CPU %d: %s\n", o->cpu, strerror(errno));
        return 2;
    }
    o->batches = o->quick ? 9 : 15;
    o->batch_ms = 1.0;
    o->repeats = r->repeats >= 0 ? r->repeats : o->quick ? 1 : 2;
    if (o->noise_limit <= 0)
        o->noise_limit = LAB_NOISE_LIMIT;
    visible = (o->json || o->csv) ? stderr : stdout;
    stop_unwritten = visible == stdout && !o->out_dir;
    if (o->out_dir) {
        if (mkdir(o->out_dir, 0777) != 0) {
            if (errno == EEXIST)
                fprintf(stderr, "csum: bench: %s already exists: an earlier run is never "
                                "overwritten (choose a new directory)\nTry 'csum bench --help'.\n",
                        o->out_dir);
            else
                fprintf(stderr, "csum: bench: cannot create %s: %s\n", o->out_dir, strerror(errno));
            return 2;
        }
        arm_out_removal(o->out_dir);
        capture = open_memstream(&captured, &captured_len);
    }

    struct lab_env env;
    memset(&env, 0, sizeof env);
    struct lab_clock clk;
    lab_load_begin();
    lab_clock_init(&clk, o->quick);
    env.o = o;
    env.clk = &clk;
    lab_machine_describe(&env.machine, o);
    env.n_subjects = lab_subjects(o, &env.subjects);
    lab_record_subjects(env.subjects, env.n_subjects);
    print_run_header(&env, fixed_layout);

    lab_flush_notes();
    for (size_t t = 0; t < N_TABLES; t++)
        if (!r->any_selected || r->selected[t]) {
            tables[t].run(&env);
            lab_flush_notes();
        }

    char load[LAB_LOAD_TEXT_MAX];
    lab_load_describe(lab_load_now(), load, sizeof load);
    lab_out("\nload over the run: %s\n", load);
    if (lab_load_now()->busy)
        lab_note("all", "the machine was busy during this run (%s): repeat it on an idle machine "
                        "before trusting small differences", load);
    lab_flush_notes();
    const int status = write_outputs(o, &clk);
    free(env.subjects);
    return status;
}

int lab_main(int argc, char **argv)
{
    struct lab_options o;
    memset(&o, 0, sizeof o);
    o.cpu = lab_default_cpu();
    o.len = o.align = o.dst_align = o.count = -1;
    struct request r = { .repeats = -1 };
    int status = parse_args(argc, argv, &o, &r);
    if (status != GO_ON)
        return status;
    if (refuse_cases(&o, &r) != 0)
        return 2;

    lab_registry_init();
    lab_record_command(argc, argv);

    /* The names are checked against every subject, whatever -M and --baseline leave. */
    struct lab_options all = o;
    all.only_impls = NULL;
    all.baseline = NULL;
    struct lab_subject *everything;
    size_t n_everything = lab_subjects(&all, &everything);
    status = refuse_names(&o, &r, everything, n_everything);
    if (status == 0 && r.list)
        print_list(everything, n_everything);
    free(everything);
    if (status != 0 || r.list)
        return status;
    if (refuse_ignored_environment(&o) != 0)
        return 2;
    return run(&o, &r);
}
