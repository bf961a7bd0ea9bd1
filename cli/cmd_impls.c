/*
 * csum impls: the kernel table as this CPU sees it. csum_partial's product implementations
 * (what the automatic plan chooses from), its reference implementations (historical
 * algorithms, for comparison), the dispatch plan with where it came from and why, and
 * csum_partial_copy's implementations. Fits in 100 columns: descriptions are wrapped under
 * their row, a long LENGTHS or REQUIRES under its column, a long plan after a comma; only a
 * word longer than that (a path, a name from the environment) is never broken.
 */
#include "cli.h"
#include "csum.h"
#include "cpu_features.h" /* internal: the CSUM_CPU_DISABLE names the library ignored */
#include "plan.h"         /* internal: csum_ipv4_header_batch's plan and its source */
#include "text_wrap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { WIDTH = 100, INDENT = 4 };

/* "12 MiB", "768 KiB" or "1000 B". */
static const char *size_text(size_t n, char *buf, size_t bufsz)
{
    if (n >= (1u << 20) && n % (1u << 20) == 0)
        snprintf(buf, bufsz, "%zu MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, bufsz, "%zu KiB", n >> 10);
    else
        snprintf(buf, bufsz, "%zu B", n);
    return buf;
}

/* NAME CPU LENGTHS REQUIRES in their columns, LENGTHS and REQUIRES wrapped under themselves
 * when long (huge range bounds, many features), then the description. */
static void print_row(const char *name, int supported, const char *used, const char *requires,
                      const char *description)
{
    enum { LENGTHS_COL = 21, REQUIRES_COL = 34 };
    int col = printf("%-15s %-4s ", name, supported ? "yes" : "no");
    col = text_put_wrapped(WIDTH, used, LENGTHS_COL, col, 0);
    if (col < REQUIRES_COL)
        col += printf("%*s", REQUIRES_COL - col, "");
    text_put_wrapped(WIDTH, requires[0] ? requires : "-", REQUIRES_COL, col, col > REQUIRES_COL);
    putchar('\n');
    text_print_wrapped(WIDTH, description, INDENT, 0);
}

/* The lengths row `name` handles in `plan` ("name@from,name@from,..."): "0-127", "256+",
 * "all", "0-255,1024+" for a row in two ranges, or "" when it has no range. */
static void plan_range(const char *plan, const char *name, char *out, size_t size)
{
    out[0] = '\0';
    for (const char *p = plan; *p;) {
        const char *at = strchr(p, '@');
        if (!at)
            return;
        unsigned long long from = strtoull(at + 1, NULL, 10);
        const char *next = strchr(at, ',');
        if ((size_t)(at - p) == strlen(name) && !strncmp(p, name, (size_t)(at - p))) {
            size_t len = strlen(out);
            const char *comma = len ? "," : "";
            if (next)
                snprintf(out + len, size - len, "%s%llu-%llu", comma, from,
                         strtoull(strchr(next + 1, '@') + 1, NULL, 10) - 1);
            else
                snprintf(out + len, size - len, from ? "%s%llu+" : "%sall", comma, from);
        }
        p = next ? next + 1 : at + strlen(at);
    }
}

/* The library skips, silently, the names in CSUM_CPU_DISABLE that are no CPU feature (a typo
 * hides nothing); say so here, above the CPU column they would have changed. */
static void print_ignored_cpu_disable(void)
{
    char ignored[256], known[256] = "", text[sizeof ignored + sizeof known + 128];
    if (csum_cpu_disable_ignored(ignored, sizeof ignored) == 0)
        return;
    for (unsigned bit = 0; csum_cpu_feature_name(bit); bit++) {
        size_t len = strlen(known);
        snprintf(known + len, sizeof known - len, "%s%s", len ? " " : "",
                 csum_cpu_feature_name(bit));
    }
    snprintf(text, sizeof text, "CSUM_CPU_DISABLE: %s ignored: %s (the features are %s)", ignored,
             strchr(ignored, ',') ? "no CPU features of those names"
                                  : "no CPU feature of that name", known);
    text_print_wrapped(WIDTH, text, 4, printf("  "));
}

static void print_partial_group(const char *plan, int reference)
{
    printf("%scsum_partial: %s\n", reference ? "\n" : "",
           reference ? "reference implementations (historical algorithms, for comparison only)"
                     : "product implementations (the automatic plan chooses among these)");
    if (!reference)
        print_ignored_cpu_disable();
    printf("%-15s %-4s %-12s %s\n", "NAME", "CPU", "LENGTHS", "REQUIRES");
    int rows = 0;
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        char range[96]; /* a row in two ranges of 20-digit bounds */
        if (impl->reference != reference)
            continue;
        plan_range(plan, impl->name, range, sizeof range);
        print_row(impl->name, csum_impl_supported(impl), range, impl->requires, impl->description);
        rows++;
    }
    if (!rows)
        printf("(none compiled in for this architecture)\n");
}

/* Appends to the text in CELL (SIZE bytes), cut at its end if it must be (a copy row holds one
 * run of lengths: it never is). Written through vsnprintf: snprintf(cell + len, size - len, ...)
 * stopped a -Werror build at -O3 (GCC 12's -Wformat-truncation, which cannot bound len). */
__attribute__((format(printf, 3, 4)))
static void cell_append(char *cell, size_t size, const char *format, ...)
{
    const size_t len = strlen(cell);
    va_list ap;
    va_start(ap, format);
    vsnprintf(cell + len, size - len, format, ap);
    va_end(ap);
}

/* The copy plan's ranges, read back through the public API: where csum_copy_impl_active()
 * changes, found by bisection (each row of a plan holds one run of lengths). */
enum { COPY_RANGES_MAX = 8 };
static size_t copy_ranges(size_t from[], const struct csum_copy_impl *impl[])
{
    size_t n = 0, at = 0;
    while (n < COPY_RANGES_MAX) {
        from[n] = at;
        impl[n] = csum_copy_impl_active(at);
        n++;
        if (csum_copy_impl_active(SIZE_MAX) == impl[n - 1])
            break;
        size_t lo = at, hi = SIZE_MAX; /* active(lo) is impl[n - 1], active(hi) is not */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            *(csum_copy_impl_active(mid) == impl[n - 1] ? &lo : &hi) = mid;
        }
        at = hi;
    }
    return n;
}

static void print_copy_table(void)
{
    size_t from[COPY_RANGES_MAX];
    const struct csum_copy_impl *used[COPY_RANGES_MAX];
    const size_t n = copy_ranges(from, used);
    char t[32];
    /* Where streaming starts in the plan in force: csum_copy_nontemporal_threshold() is the
     * automatic plan's, and a row chosen with CSUM_COPY_IMPL applies to every length. */
    size_t streaming = 0;
    while (streaming < n && !used[streaming]->nontemporal)
        streaming++;
    if (streaming == 0)
        printf("\ncsum_partial_copy: implementations (streaming stores for every length)\n");
    else if (streaming < n)
        printf("\ncsum_partial_copy: implementations (streaming stores from %s up)\n",
               size_text(from[streaming], t, sizeof t));
    else
        printf("\ncsum_partial_copy: implementations (LENGTHS: the copies each one is used for)\n");
    text_print_wrapped(WIDTH, csum_copy_source(), 8, printf("  from: "));
    printf("%-15s %-4s %-12s %s\n", "NAME", "CPU", "LENGTHS", "REQUIRES");
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        char lengths[64] = "", a[32], b[32];
        for (size_t k = 0; k < n; k++) {
            if (used[k] != impl)
                continue;
            const char *sep = lengths[0] ? ", " : "";
            if (n == 1)
                snprintf(lengths, sizeof lengths, "always");
            else if (k == 0)
                cell_append(lengths, sizeof lengths, "%s< %s", sep, size_text(from[1], a, sizeof a));
            else if (k + 1 == n)
                cell_append(lengths, sizeof lengths, "%s>= %s", sep, size_text(from[k], a, sizeof a));
            else
                cell_append(lengths, sizeof lengths, "%s%s-%s", sep, size_text(from[k], a, sizeof a),
                            size_text(from[k + 1], b, sizeof b));
        }
        print_row(impl->name, csum_copy_impl_supported(impl), lengths, impl->requires,
                  impl->description);
    }
}

int cmd_impls(int argc, char **argv)
{
    if (argc > 1) {
        if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
            printf("Usage: csum impls\n"
                   "List every compiled-in implementation: csum_partial's product implementations\n"
                   "(those the automatic dispatch plan chooses from), then its reference\n"
                   "implementations (historical algorithms, kept for comparison), with whether this\n"
                   "CPU runs each (CPU), which lengths csum_partial sends to it now (LENGTHS, from\n"
                   "the dispatch plan, e.g. 0-127 and 128+), what it needs and where its algorithm\n"
                   "comes from. Then the dispatch plan, where it came from and why (a setting that\n"
                   "was ignored is named with the reason), the plan file 'csum tune --write'\n"
                   "stores, and csum_partial_copy's implementations with the copy lengths each one\n"
                   "is used for and where that plan came from, and csum_ipv4_header_batch's plan\n"
                   "(by number of headers) and where it came from. CSUM_COPY_IMPL=NAME forces one\n"
                   "copy implementation for every length. A name in CSUM_CPU_DISABLE that is no\n"
                   "CPU feature is named as ignored.\n");
            return EXIT_OK;
        }
        return usage_error("impls: unexpected argument '%s'", argv[1]);
    }
    char plan[256], file[4096];
    csum_dispatch_describe(plan, sizeof plan);
    print_partial_group(plan, 0);
    print_partial_group(plan, 1);

    printf("\n");
    text_print_wrapped(WIDTH, plan, 10, printf("dispatch: "));
    text_print_wrapped(WIDTH, csum_dispatch_source(), 8, printf("  from: "));
    if (csum_dispatch_file(file, sizeof file)) {
        /* Not opened: a FIFO there would wait for a writer. A name that leads nowhere (a loop
         * of symbolic links, a directory this user may not search) is not "none": say why. */
        struct stat st;
        const int found = stat(file, &st) == 0, e = errno;
        printf("  plan file: %s (%s)\n", file,
               found ? "present" : e == ENOENT || e == ENOTDIR ? "none" : strerror(e));
    } else {
        const char *set = getenv("CSUM_DISPATCH_FILE"); /* which of the two reasons it is */
        printf("  plan file: none (%s)\n", set && !*set ? "CSUM_DISPATCH_FILE is empty"
                                                        : "no absolute XDG_CONFIG_HOME or HOME");
    }
    print_copy_table();

    char batch[256];
    printf("\ncsum_ipv4_header_batch: %s (by number of headers)\n",
           csum_ipv4_batch_describe(batch, sizeof batch));
    text_print_wrapped(WIDTH, csum_ipv4_batch_source(), 8, printf("  from: "));
    return EXIT_OK;
}
