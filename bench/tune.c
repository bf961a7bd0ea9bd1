/*
 * csum tune: measure this host and say which implementation should handle which lengths.
 *
 * Every supported table row is timed (the lab's method, latency mode: each result feeds the
 * next call, as a stack folding header after header does) at a ladder of lengths. The fastest
 * row per length gives the plan, with hysteresis so that noise does not make it flap: a new
 * row takes over only when it is at least 5% faster than the one in charge, there and at the
 * next length. At most four ranges (what the dispatcher holds). `--write` stores the plan
 * where the library reads it at startup (see csum_dispatch_describe() in csum.h).
 */
#define _GNU_SOURCE
#include "lab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const size_t ladder[] = { 1, 2, 4, 7, 8, 12, 14, 16, 20, 24, 32, 40, 48, 64, 80, 96, 112,
                                 128, 160, 192, 224, 256, 320, 384, 512, 768, 1024, 1500, 2048,
                                 4096, 8192, 16384, 65536 };
#define N_LADDER (sizeof ladder / sizeof ladder[0])
enum { MAX_ROWS = 64, MAX_RANGES = 4 };

static void usage(FILE *f)
{
    fprintf(f, "Usage: csum tune [--quick] [-M IMPL[,IMPL...]] [--write [FILE]] [--cpu N]\n"
               "Time every implementation this CPU supports at lengths 1..64 KiB (latency mode)\n"
               "and print the best one per length range as a dispatch plan.\n"
               "  --write [FILE]  store the plan where csum reads it at startup (default:\n"
               "                  $XDG_CONFIG_HOME/csum/dispatch or ~/.config/csum/dispatch;\n"
               "                  CSUM_DISPATCH_FILE names another file)\n"
               "  -M IMPL,...     only these implementations\n"
               "  --quick         fewer batches (noisier)\n"
               "  --cpu N         pin to CPU N (default: the last online CPU)\n");
}

/* mkdir -p of the directory part of `path`. */
static void make_parent_dirs(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(dir, 0777);
            *s = '/';
        }
}

int lab_tune_main(int argc, char **argv)
{
    struct lab_options o;
    memset(&o, 0, sizeof o);
    o.cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
    o.len = o.align = o.count = -1;
    const char *write_to = NULL;
    char path[4096];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--quick")) {
            o.quick = 1;
        } else if (!strcmp(argv[i], "-M") && i + 1 < argc) {
            o.only_impls = argv[++i];
        } else if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0) {
                fprintf(stderr, "csum: tune: --cpu needs a CPU number\nTry 'csum tune --help'.\n");
                return 2;
            }
            o.cpu = (int)v;
        } else if (!strcmp(argv[i], "--write")) {
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                write_to = argv[++i];
            } else {
                /* The file the library reads: one rule, csum_dispatch_file(). */
                size_t n = csum_dispatch_file(path, sizeof path);
                if (n == 0 || n >= sizeof path) {
                    fprintf(stderr, "csum: tune: the library reads no plan file (CSUM_DISPATCH_FILE "
                                    "is empty, or no HOME): give --write a FILE\n");
                    return 2;
                }
                write_to = path;
            }
        } else {
            fprintf(stderr, "csum: tune: unknown argument '%s'\nTry 'csum tune --help'.\n", argv[i]);
            return 2;
        }
    }
    if (lab_pin_cpu(o.cpu) != 0) {
        fprintf(stderr, "csum: tune: cannot pin to CPU %d: %s\n", o.cpu, strerror(errno));
        return 2;
    }
    o.batches = o.quick ? 9 : 21;
    o.batch_ms = 1.0;
    struct lab_clock clk;
    lab_clock_init(&clk, o.quick);

    /* The candidates: supported table rows that pass the oracle self-check. */
    struct lab_subject rows[MAX_ROWS];
    size_t n_rows = 0;
    for (size_t i = 0; i < csum_impl_count() && n_rows < MAX_ROWS; i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        if (!csum_impl_supported(impl) || !lab_wanted(&o, impl->name))
            continue;
        lab_subject_init(&rows[n_rows], impl->name, impl->description, impl->partial);
        if (rows[n_rows].refused)
            fprintf(stderr, "csum: tune: %s refused: %s\n", impl->name, rows[n_rows].why);
        else
            n_rows++;
    }
    unsigned char *buf = lab_buffer(65536);
    if (!buf || n_rows == 0) {
        fprintf(stderr, "csum: tune: nothing to measure\n");
        return 1;
    }

    static double ticks[N_LADDER][MAX_ROWS];
    printf("csum tune: %s ticks per call, latency mode, median of %d batches\n%-7s",
           clk.tick_name, o.batches, "len");
    for (size_t r = 0; r < n_rows; r++)
        printf(" %11.11s", rows[r].name);
    printf("  best\n");
    for (size_t l = 0; l < N_LADDER; l++) {
        printf("%-7zu", ladder[l]);
        size_t best = 0;
        for (size_t r = 0; r < n_rows; r++) {
            struct lab_csum_case c = { rows[r].fn, buf, ladder[l], 0x5a5a };
            struct lab_stats st;
            lab_measure(&o, &clk, lab_csum_body(MODE_LATENCY), &c, &st);
            ticks[l][r] = st.ticks_median;
            if (ticks[l][r] < ticks[l][best])
                best = r;
            printf(" %11.1f", ticks[l][r]);
            fflush(stdout);
        }
        printf("  %s\n", rows[best].name);
    }

    /* Ranges with hysteresis: switch only for a clear, confirmed win. */
    size_t range_row[MAX_RANGES], range_from[MAX_RANGES], n_ranges = 0;
    for (size_t l = 0; l < N_LADDER; l++) {
        size_t best = 0;
        for (size_t r = 1; r < n_rows; r++)
            if (ticks[l][r] < ticks[l][best])
                best = r;
        if (n_ranges == 0) {
            range_row[0] = best;
            range_from[0] = 0;
            n_ranges = 1;
            continue;
        }
        size_t cur = range_row[n_ranges - 1];
        int clear_here = ticks[l][best] < 0.95 * ticks[l][cur];
        int clear_next = l + 1 == N_LADDER || ticks[l + 1][best] < 0.95 * ticks[l + 1][cur];
        if (best != cur && clear_here && clear_next && n_ranges < MAX_RANGES) {
            range_row[n_ranges] = best;
            range_from[n_ranges] = ladder[l];
            n_ranges++;
        }
    }
    char plan[256];
    size_t len = 0;
    for (size_t k = 0; k < n_ranges; k++)
        len += (size_t)snprintf(plan + len, sizeof plan - len, "%s%s@%zu", k ? "," : "",
                                rows[range_row[k]].name, range_from[k]);
    printf("\nplan: %s\n", plan);
    for (size_t k = 0; k < n_ranges; k++)
        if (k + 1 < n_ranges)
            printf("  %-12s for %zu..%zu bytes\n", rows[range_row[k]].name, range_from[k],
                   range_from[k + 1] - 1);
        else
            printf("  %-12s from %zu bytes\n", rows[range_row[k]].name, range_from[k]);
    lab_buffer_free(buf, 65536);

    if (!write_to) {
        printf("(use it now with CSUM_DISPATCH='%s', or store it with 'csum tune --write')\n", plan);
        return 0;
    }
    if (csum_dispatch_set(plan) != 0) { /* the library must accept what we store */
        fprintf(stderr, "csum: tune: the library rejects the plan '%s'\n", plan);
        return 1;
    }
    make_parent_dirs(write_to);
    FILE *f = fopen(write_to, "w");
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    int bad = !f;
    if (f) {
        bad = fprintf(f, "# csum dispatch plan, written by 'csum tune' on %s\n%s\n", date, plan) < 0;
        bad |= fclose(f) != 0;
    }
    if (bad) {
        fprintf(stderr, "csum: tune: cannot write %s: %s\n", write_to, strerror(errno));
        return 1;
    }
    printf("wrote %s (read by libcsum at startup; CSUM_DISPATCH overrides it)\n", write_to);
    return 0;
}
