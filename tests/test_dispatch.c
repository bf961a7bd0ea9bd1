/*
 * The length-adaptive dispatcher: plans are parsed strictly, round-trip through
 * csum_dispatch_describe, route every length to a correct result across range boundaries, and
 * come from CSUM_DISPATCH / CSUM_DISPATCH_FILE / the defaults in that order (child processes).
 */
#include "test.h"
#include "cpu_features.h" /* struct csum_cpu_id */
#include "plan.h"         /* the compiled-in plans */

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#  include <malloc.h>
#endif

/* Up to four supported rows, for plans that exist on any CPU. */
static size_t supported_rows(const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < csum_impl_count() && n < max; i++)
        if (csum_impl_supported(csum_impl_get(i)))
            names[n++] = csum_impl_get(i)->name;
    return n;
}

static void expect_rejected(struct test_ctx *t, const char *plan)
{
    char before[256], after[256];
    csum_dispatch_describe(before, sizeof before);
    CHECK(t, csum_dispatch_set(plan) == -1, "csum_dispatch_set accepted '%s'", plan ? plan : "(null)");
    csum_dispatch_describe(after, sizeof after);
    CHECK(t, !strcmp(before, after), "a rejected plan changed the plan: '%s' -> '%s'", before, after);
}

/*
 * Each length goes to the row of its range, boundaries included: a plan that alternates the
 * two rows this CPU runs (reference rows included) whose 32-bit sums differ most often, each
 * length checked against the row its range names. Boundaries next to each other, around 256
 * (where x86-64's inline short path ends).
 */
static void check_routing(struct test_ctx *t)
{
    enum { MAX = 600 };
    unsigned char *buf = alloc_aligned(MAX + 64);
    testdata_fill(buf, MAX + 64, 0x7007e);
    const struct csum_impl *pick[2] = { NULL, NULL };
    size_t best = 0;
    for (size_t i = 0; i < csum_impl_count(); i++)
        for (size_t j = 0; j < csum_impl_count(); j++) {
            const struct csum_impl *a = csum_impl_get(i), *b = csum_impl_get(j);
            if (i == j || !csum_impl_supported(a) || !csum_impl_supported(b))
                continue;
            size_t differ = 0;
            for (size_t l = 250; l < 270; l++)
                differ += a->partial(buf + 1, l, 0x1234) != b->partial(buf + 1, l, 0x1234);
            if (differ > best) {
                best = differ;
                pick[0] = a, pick[1] = b;
            }
        }
    if (!pick[0]) { /* one row, or rows that always agree: nothing to tell apart */
        free(buf);
        return;
    }
    static const size_t starts[4] = { 0, 256, 257, 259 };
    char plan[256];
    snprintf(plan, sizeof plan, "%s@0,%s@256,%s@257,%s@259", pick[0]->name, pick[1]->name,
             pick[0]->name, pick[1]->name);
    CHECK(t, csum_dispatch_set(plan) == 0, "rejected a valid plan '%s'", plan);
    for (size_t l = 0; l <= MAX; l++)
        for (size_t a = 0; a < 2; a++) {
            csum_wsum init = (csum_wsum)(l * 0x9e3779b9u);
            size_t k = 3;
            while (k > 0 && l < starts[k])
                k--;
            csum_wsum got = csum_partial(buf + a, l, init), want = pick[k & 1]->partial(buf + a, l, init);
            CHECK(t, got == want, "'%s': len %zu align %zu gave 0x%08x, its range's row %s 0x%08x",
                  plan, l, a, (unsigned)got, pick[k & 1]->name, (unsigned)want);
        }
    free(buf);
}

/* Plan text "name@from,..." split into at most `max` rows (a name alone starts at 0), in `buf`. */
static size_t split_rows(const char *text, char *buf, size_t size, const char *name[], size_t from[],
                         size_t max)
{
    char *save = NULL;
    size_t n = 0;
    snprintf(buf, size, "%s", text);
    for (char *r = strtok_r(buf, ",", &save); r && n < max; r = strtok_r(NULL, ",", &save), n++) {
        char *at = strchr(r, '@');
        from[n] = at ? strtoull(at + 1, NULL, 10) : 0;
        if (at)
            *at = '\0';
        name[n] = r;
    }
    return n;
}

/* A compiled-in row's copy rows (csum_dispatch_default_at): copy rows with normal stores from 0,
 * in increasing starts, the later ones after the arch's short copy (which the automatic plan
 * puts below them), each gated by features the row's key covers. */
static void check_default_copy_rows(struct test_ctx *t, const char *text, uint32_t key)
{
    char buf[256];
    const char *name[8];
    size_t from[8];
    const size_t n = split_rows(text, buf, sizeof buf, name, from, 8);
    for (size_t k = 0; k < n; k++) {
        const struct csum_copy_impl *impl = csum_copy_impl_find(name[k]);
        const struct csum_kernel *kernel = impl ? csum_kernel_of_copy(impl) : NULL;
        CHECK(t, impl && !impl->nontemporal && kernel && (kernel->features & ~key) == 0,
              "compiled-in copy rows '%s': '%s' is no copy row with normal stores that the key covers",
              text, name[k]);
        CHECK(t, k ? from[k] > from[k - 1] && from[k] > 64 : from[k] == 0,
              "compiled-in copy rows '%s': starts must be 0, then increasing above 64", text);
    }
}

void test_dispatch_plans(struct test_ctx *t)
{
    const char *rows[4];
    size_t n = supported_rows(rows, 4);
    static const size_t starts[4] = { 0, 7, 100, 1000 };
    char plan[256] = "", got[256];
    size_t len = 0;
    for (size_t k = 0; k < n; k++)
        len += (size_t)snprintf(plan + len, sizeof plan - len, "%s%s@%zu", k ? "," : "", rows[k], starts[k]);

    CHECK(t, csum_dispatch_set(plan) == 0, "rejected a valid plan '%s'", plan);
    size_t full = csum_dispatch_describe(got, sizeof got);
    CHECK(t, !strcmp(got, plan) && full == strlen(plan), "describe gives '%s', want '%s'", got, plan);
    CHECK(t, !strcmp(csum_dispatch_source(), "csum_dispatch_set"), "source '%s'",
          csum_dispatch_source());
    CHECK(t, csum_impl_active() == csum_impl_find(rows[n - 1]), "active is not the last range's row");
    char tiny[4];
    CHECK(t, csum_dispatch_describe(tiny, sizeof tiny) == strlen(plan) && strlen(tiny) == 3,
          "describe does not truncate like snprintf");
#if defined(__GLIBC__)
    /* The same plan set again is the plan kept before: a reload loop must not grow memory.
     * (Under a sanitizer's allocator mallinfo2 reports nothing, and this is not checked.) */
    size_t in_use = mallinfo2().uordblks;
    for (int i = 0; i < 10000; i++)
        csum_dispatch_set(plan);
    CHECK(t, in_use == 0 || mallinfo2().uordblks - in_use < 10000,
          "setting '%s' 10000 times allocated %zu bytes", plan, mallinfo2().uordblks - in_use);
#endif

    /* Every length 0..1100 and around each boundary, several alignments: right answers, and
     * from the row of the range the length is in (rows may return different 32-bit sums for
     * the same bytes, so a length sent to the neighbouring range shows). */
    unsigned char *buf = alloc_aligned(1200 + 64);
    static const size_t aligns[] = { 0, 1, 3, 63 };
    for (size_t a = 0; a < 4; a++) {
        testdata_fill(buf + aligns[a], 1200, 0xd15 + a);
        for (size_t l = 0; l <= 1100; l++) {
            csum_wsum init = (csum_wsum)(l * 2654435761u);
            csum_wsum got = csum_partial(buf + aligns[a], l, init);
            check_value(t, got, oracle_checksum(buf + aligns[a], l, init), l, aligns[a], init, plan);
            size_t k = n - 1;
            while (k > 0 && l < starts[k])
                k--;
            csum_wsum row = csum_impl_find(rows[k])->partial(buf + aligns[a], l, init);
            CHECK(t, got == row, "'%s': len %zu align %zu gave 0x%08x, its range's row %s 0x%08x",
                  plan, l, aligns[a], (unsigned)got, rows[k], (unsigned)row);
        }
    }
    check_routing(t);
    free(buf);

    /* Whitespace around names, '@', numbers and commas, and a lone name, are fine (a plan of
     * one row still comes from csum_dispatch_set); everything malformed is refused. */
    char spaced[300], want[300];
    snprintf(spaced, sizeof spaced, " %s @0 ", rows[0]);
    snprintf(want, sizeof want, "%s@0", rows[0]);
    CHECK(t, csum_dispatch_set(spaced) == 0, "'%s': a space before @ must be skipped", spaced);
    csum_dispatch_describe(got, sizeof got);
    CHECK(t, !strcmp(got, want), "'%s' describes as '%s'", spaced, got);
    CHECK(t, !strcmp(csum_dispatch_source(), "csum_dispatch_set"),
          "'%s' comes from '%s', not csum_dispatch_set", spaced, csum_dispatch_source());
    if (n >= 2) {
        snprintf(spaced, sizeof spaced, " %s @ 0 ,\t%s\n@\t64 ", rows[0], rows[1]);
        snprintf(want, sizeof want, "%s@0,%s@64", rows[0], rows[1]);
        CHECK(t, csum_dispatch_set(spaced) == 0, "'%s': spaces around '@' must be skipped", spaced);
        csum_dispatch_describe(got, sizeof got);
        CHECK(t, !strcmp(got, want), "'%s' describes as '%s'", spaced, got);
        /* A row repeated with a later start is merged into the range before it. */
        snprintf(spaced, sizeof spaced, "%s@0,%s@64,%s@128", rows[0], rows[1], rows[1]);
        CHECK(t, csum_dispatch_set(spaced) == 0, "'%s' is refused", spaced);
        csum_dispatch_describe(got, sizeof got);
        CHECK(t, !strcmp(got, want), "'%s' describes as '%s', not merged", spaced, got);
    }
    snprintf(spaced, sizeof spaced, "%s", rows[0]);
    CHECK(t, csum_dispatch_set(spaced) == 0, "a lone name '%s' is a plan", spaced);
    csum_dispatch_describe(got, sizeof got);
    snprintf(want, sizeof want, "%s@0", rows[0]);
    CHECK(t, !strcmp(got, want), "lone name describes as '%s'", got);
    CHECK(t, !strcmp(csum_dispatch_source(), "csum_dispatch_set"),
          "a lone name comes from '%s', not csum_dispatch_set", csum_dispatch_source());

    expect_rejected(t, NULL);
    expect_rejected(t, "");
    expect_rejected(t, "no-such-impl@0");
    expect_rejected(t, "generic@5");            /* must start at 0 */
    expect_rejected(t, "generic@0,");           /* dangling comma */
    expect_rejected(t, "generic@0;x86-scalar@9"); /* wrong separator */
    expect_rejected(t, "generic@");
    expect_rejected(t, "generic@-1");
    expect_rejected(t, "generic@0x10");
    expect_rejected(t, "generic@0,x86-scalar@99999999999999999999999"); /* overflows size_t */
    expect_rejected(t, "generic@00,generic@18446744073709551616");
    expect_rejected(t, "generic@0,generic@0");
    expect_rejected(t, "generic 0");            /* a start without '@' */
    expect_rejected(t, "generic@1 0");          /* a space inside a number */
    expect_rejected(t, "gen eric");             /* or inside a name */
    char bad[300];
    if (n >= 2) {
        snprintf(bad, sizeof bad, "%s@0,%s@64,%s@32", rows[0], rows[1], rows[0]); /* not increasing */
        expect_rejected(t, bad);
        snprintf(bad, sizeof bad, "%s@0,%s@1,%s@2,%s@3,%s@4", rows[0], rows[1], rows[0], rows[1], rows[0]);
        expect_rejected(t, bad); /* five ranges */
        /* A row repeated with a start that does not increase: refused, not merged. */
        snprintf(bad, sizeof bad, "%s@0,%s@64,%s@32", rows[0], rows[1], rows[1]);
        expect_rejected(t, bad);
        snprintf(bad, sizeof bad, "%s@0,%s@64,%s@64", rows[0], rows[1], rows[1]);
        expect_rejected(t, bad);
        /* The starts as written must increase, not only those left after merging. */
        snprintf(bad, sizeof bad, "%s@0,%s@100,%s@50", rows[0], rows[0], rows[1]);
        expect_rejected(t, bad);
    }
    CHECK(t, csum_dispatch_set("auto") == 0 && csum_impl_select("auto") == 0, "auto");
    CHECK(t, !strncmp(csum_dispatch_source(), "compiled-in defaults: ", 22),
          "the hermetic auto plan comes from '%s'", csum_dispatch_source());

    /* Every compiled-in plan names product rows of this architecture only, in at most four
     * increasing ranges from 0 (those this CPU runs must also be accepted as they are), and
     * only rows whose gate its own key covers: a CPU it is chosen for runs every row in it. */
    for (size_t i = 0; i < csum_dispatch_default_count(); i++) {
        uint32_t key;
        const char *copy_rows;
        const char *text = csum_dispatch_default_at(i, &key, &copy_rows);
        char buf[256];
        const char *name[8];
        size_t from[8];
        const size_t count = split_rows(text, buf, sizeof buf, name, from, 8);
        int runs_here = 1;
        for (size_t j = 0; j < count; j++) {
            const char *r = name[j];
            const struct csum_impl *impl = csum_impl_find(r);
            CHECK(t, impl && !impl->reference, "compiled-in plan '%s': '%s' is not a product row",
                  text, r);
            const struct csum_kernel *k = impl ? csum_kernel_of_impl(impl) : NULL;
            CHECK(t, k && (k->features & ~key) == 0,
                  "compiled-in plan '%s': its key lacks features that '%s' needs", text, r);
            runs_here &= impl && csum_impl_supported(impl);
        }
        if (runs_here)
            CHECK(t, csum_dispatch_set(text) == 0, "compiled-in plan '%s' is rejected", text);
        if (copy_rows)
            check_default_copy_rows(t, copy_rows, key);
    }
    csum_impl_select("auto");
}

/* On this CPU, the automatic copy plan runs the copy rows measured for it (or, where none were,
 * one row with normal stores) over their ranges, with the short copy below 64 bytes on x86-64
 * and streaming stores from the threshold: read back through csum_copy_impl_active(). */
static void check_auto_copy_rows(struct test_ctx *t)
{
    CHECK(t, csum_copy_impl_select("auto") == 0, "auto copy plan");
    const size_t streaming = csum_copy_nontemporal_threshold();
    char why[160];
    const char *rows = csum_dispatch_default_copy(why, sizeof why);
    CHECK(t, !rows || (why[0] && strstr(csum_copy_source(), why)),
          "the automatic copy plan's source '%s' does not say how its rows were measured ('%s')",
          csum_copy_source(), why);
    if (!rows) {
        const struct csum_copy_impl *one = csum_copy_impl_active(64);
        CHECK(t, one && !one->nontemporal && csum_copy_impl_active(streaming - 1) == one,
              "no copy rows measured here: one row with normal stores from 64 bytes to %zu", streaming);
        return;
    }
    char buf[256];
    const char *name[8];
    size_t from[8];
    const size_t n = split_rows(rows, buf, sizeof buf, name, from, 8);
    for (size_t k = 0; k < n; k++) {
        const size_t lo = k ? from[k] : 64, hi = k + 1 < n ? from[k + 1] - 1 : streaming - 1;
        const struct csum_copy_impl *a = csum_copy_impl_active(lo), *b = csum_copy_impl_active(hi);
        CHECK(t, a && b && !strcmp(a->name, name[k]) && !strcmp(b->name, name[k]),
              "copy rows '%s': %zu and %zu bytes take %s and %s, not %s", rows, lo, hi,
              a ? a->name : "none", b ? b->name : "none", name[k]);
    }
#if defined(__x86_64__)
    CHECK(t, !strcmp(csum_copy_impl_active(63)->name, "x86-scalar"), "63-byte copies: the short copy");
#endif
}

/*
 * Which compiled-in plan each kind of CPU gets, for CPUs the tests never run on: the measured
 * classes by vendor, family and model, the Intel cores that downclock for 512-bit code, and
 * the feature fallbacks. A key also needs the features of its rows: a Skylake-SP with AVX-512
 * hidden (CSUM_CPU_DISABLE, a hypervisor) is an AVX2 CPU.
 */
void test_dispatch_defaults(struct test_ctx *t)
{
    struct expect {
        const char *vendor;
        unsigned family, model;
        uint32_t have;
        const char *plan, *why; /* why: a part of the reason csum impls gives */
        const char *copy;       /* the copy rows measured for it, or NULL */
    };
#if defined(__x86_64__)
    const uint32_t avx2 = CSUM_ISA_MASK(avx2) | CSUM_CPU_bmi2 | CSUM_CPU_adx;
    const uint32_t avx512 = avx2 | CSUM_ISA_MASK(avx512), vnni = avx512 | CSUM_ISA_MASK(avx512_vnni);
    static const char vnni512[] = "x86-scalar@0,avx512-vnni@256";
    const struct expect cases[] = {
        { "AuthenticAMD", 26, 2, vnni, vnni512, "AMD Zen 5 (family 26), measured", "avx512-vnni@0" },
        { "AuthenticAMD", 25, 17, vnni, vnni512, "AMD Zen 4",
          "avx512-vnni@0,avx2@4096" },
        { "AuthenticAMD", 25, 1, avx2, "x86-scalar@0,avx2@256", "by features (AVX2)", NULL }, /* Zen 3 */
        { "AuthenticAMD", 23, 49, avx2, "x86-scalar@0,avx2@256", "by features (AVX2)", NULL }, /* Zen 2 */
        { "GenuineIntel", 6, 85, avx512, "x86-scalar@0,avx2@256", "Skylake-SP", NULL },
        { "GenuineIntel", 6, 85, vnni, "x86-scalar@0,avx2@256", "Cascade Lake", NULL },
        { "GenuineIntel", 6, 85, avx2, "x86-scalar@0,avx2@256", "by features (AVX2)", NULL },
        { "GenuineIntel", 6, 106, vnni, vnni512, "by features (AVX-512 VNNI)", NULL },     /* Ice Lake-SP */
        { "GenuineIntel", 6, 143, vnni, vnni512, "by features (AVX-512 VNNI)", NULL },     /* Sapphire Rapids */
        { "GenuineIntel", 6, 102, avx512, "x86-scalar@0,avx512@320", "AVX-512BW without VNNI",
          NULL },                                                                        /* Cannon Lake */
        { "GenuineIntel", 6, 151, avx2 | CSUM_ISA_MASK(avx_vnni), "x86-scalar@0,avx-vnni@256",
          "by features (AVX-VNNI", NULL },                                               /* Alder Lake */
        { "GenuineIntel", 6, 158, avx2, "x86-scalar@0,avx2@256", "by features (AVX2)", NULL },
        { "", 0, 0, 0, "x86-scalar@0", "x86-64 baseline", NULL },
    };
#elif defined(__aarch64__)
    const struct expect cases[] = { { "", 0, 0, CSUM_CPU_neon, "neon@0", "NEON", NULL },
                                    { "", 0, 0, 0, "generic@0", "portable C", NULL } };
#else
    const struct expect cases[] = { { "", 0, 0, 0, "generic@0", "portable C", NULL } };
#endif
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct expect *e = &cases[i];
        struct csum_cpu_id id = { .family = e->family, .model = e->model };
        snprintf(id.vendor, sizeof id.vendor, "%s", e->vendor);
        char why[256];
        const char *plan = csum_dispatch_default_plan_for(&id, e->have, why, sizeof why);
        CHECK(t, !strcmp(plan, e->plan) && strstr(why, e->why),
              "%s family %u model %u (features 0x%x): plan '%s' (%s), expected '%s' (%s)",
              e->vendor[0] ? e->vendor : "no vendor", e->family, e->model, (unsigned)e->have, plan,
              why, e->plan, e->why);
        const char *copy = csum_dispatch_default_copy_for(&id, e->have);
        CHECK(t, copy == e->copy || (copy && e->copy && !strcmp(copy, e->copy)),
              "%s family %u model %u: copy rows '%s', expected '%s'",
              e->vendor[0] ? e->vendor : "no vendor", e->family, e->model, copy ? copy : "(none)",
              e->copy ? e->copy : "(none)");
    }
    check_auto_copy_rows(t);
}

/* The copy and batch plans keep to the ISAs of the compiled-in csum_partial plan's rows: on an
 * AVX-512 machine shown as a Skylake-SP (a child with CSUM_TEST_CPU_ID, test_util.c), every
 * automatic plan uses avx2 rows; shown as itself, the copy takes an AVX-512 row. */
void test_dispatch_narrow(struct test_ctx *t)
{
#if defined(__x86_64__)
    const struct csum_impl *wide = csum_impl_find("avx512");
    if (!wide || !csum_impl_supported(wide)) {
        t->skip_reason = "needs a CPU with AVX-512";
        return;
    }
    char out[512], err[512];
    int rc = test_run_child("defaults", "CSUM_TEST_CPU_ID=GenuineIntel,6,85", NULL, out, sizeof out,
                            err, sizeof err);
    CHECK(t, rc == 0 && !strcmp(out, "x86-scalar@0,avx2@256|avx2|avx2-nt|generic@0,avx2@8\n"),
          "as a Skylake-SP: the child said '%s' (rc %d, stderr '%s')", out, rc, err);
    rc = test_run_child("defaults", NULL, NULL, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && strstr(out, "|avx512") && !strstr(out, "|avx2"),
          "as itself: the child said '%s' (rc %d, stderr '%s')", out, rc, err);
    /* Their sources say that csum_partial's plan narrowed them there, and only there (a row it
     * leaves out below the widest, as avx-vnni on a CPU with AVX-512 VNNI too, changes nothing). */
    static const char narrowed[] = "rows no wider than csum_partial's";
    rc = test_run_child("sources", "CSUM_TEST_CPU_ID=GenuineIntel,6,85", NULL, out, sizeof out, err,
                        sizeof err);
    const char *bar = strchr(out, '|'), *first = strstr(out, narrowed);
    CHECK(t, rc == 0 && bar && first && first < bar && strstr(bar, narrowed), /* both parts */
          "as a Skylake-SP, the copy and batch sources: '%s' (rc %d, stderr '%s')", out, rc, err);
    rc = test_run_child("sources", NULL, NULL, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && strchr(out, '|') && !strstr(out, narrowed),
          "as itself, the copy and batch sources: '%s' (rc %d, stderr '%s')", out, rc, err);
#else
    t->skip_reason = "x86-64 only (no other architecture has such a plan)";
#endif
}

/* The auto plan through the public entry: every length 0..4160 at a few alignments. */
void test_dispatch_auto(struct test_ctx *t)
{
    csum_impl_select("auto");
    const size_t max_len = t->quick ? 1100 : 4160;
    unsigned char *buf = alloc_aligned(4160 + 64);
    static const size_t aligns[] = { 0, 1, 2, 7, 63 };
    for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++) {
        testdata_fill(buf + aligns[a], max_len, 0xa070 + a);
        for (size_t l = 0; l <= max_len; l++) {
            csum_wsum init = (csum_wsum)(l * 0x9e3779b9u) ^ 0xffff;
            check_value(t, csum_partial(buf + aligns[a], l, init),
                        oracle_checksum(buf + aligns[a], l, init), l, aligns[a], init, "auto plan");
        }
    }
    free(buf);
}

static void expect_plan(struct test_ctx *t, const char *env1, const char *env2, const char *want)
{
    char out[512], err[256];
    int rc = test_run_child("plan", env1, env2, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && strstr(out, want) == out, "with %s %s: child said '%s' (rc %d), want '%s...'",
          env1 ? env1 : "", env2 ? env2 : "", out, rc, want);
    CHECK(t, err[0] == '\0', "the library printed to stderr: '%s'", err);
}

/* The child's plan source contains `reason`. */
static void expect_reason(struct test_ctx *t, const char *env1, const char *env2, const char *reason)
{
    char out[1024], err[256];
    int rc = test_run_child("plan", env1, env2, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && strstr(out, reason), "with %s %s: child said '%s' (rc %d), want '...%s...'",
          env1 ? env1 : "", env2 ? env2 : "", out, rc, reason);
}

/* A fresh name in the temporary directory that nothing has (made and removed by mkstemp), for
 * a FIFO or a symbolic link: 0, or -1. */
static int unused_temp_path(char *buf, size_t size, const char *stem)
{
    test_temp_template(buf, size, stem);
    int fd = mkstemp(buf);
    if (fd < 0)
        return -1;
    close(fd);
    return unlink(buf);
}

/* The plan file's path, as the child sees it. */
static void expect_file(struct test_ctx *t, const char *env1, const char *env2, const char *want)
{
    char out[1024], err[256];
    int rc = test_run_child("file", env1, env2, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && !strcmp(out, want), "with %s %s: plan file '%s' (rc %d), want '%s'",
          env1 ? env1 : "", env2 ? env2 : "", out, rc, want);
}

void test_dispatch_sources(struct test_ctx *t)
{
    /* Where the plan file is: the one rule the library and `csum tune --write` share. */
    expect_file(t, "CSUM_DISPATCH_FILE=/x/plan", "HOME=/home/u", "/x/plan\n");
    expect_file(t, "CSUM_DISPATCH_FILE=", "HOME=/home/u", "(none)\n");
    expect_file(t, "XDG_CONFIG_HOME=/xdg", "HOME=/home/u", "/xdg/csum/dispatch\n");
    expect_file(t, "XDG_CONFIG_HOME=", "HOME=/home/u", "/home/u/.config/csum/dispatch\n");
    /* Relative directories are not used (XDG Base Directory specification): the plan would
     * depend on the working directory of each program. */
    expect_file(t, "XDG_CONFIG_HOME=cfg", "HOME=/home/u", "/home/u/.config/csum/dispatch\n");
    expect_file(t, "XDG_CONFIG_HOME=", "HOME=home/u", "(none)\n");
    expect_file(t, "XDG_CONFIG_HOME=", "HOME=.", "(none)\n");

    char defaults[256], single[160], env[300], file_env[300], path[128];
    test_temp_template(path, sizeof path, "csum-test-plan");
    csum_impl_select("auto");
    csum_dispatch_describe(defaults, sizeof defaults);
    snprintf(single, sizeof single, "generic@0");

    expect_plan(t, NULL, NULL, defaults);
    expect_plan(t, "CSUM_DISPATCH=generic@0", NULL, "generic@0 (CSUM_DISPATCH)");
    expect_plan(t, "CSUM_DISPATCH=nonsense@@", NULL, defaults);       /* malformed: ignored */
    /* "auto", as csum_dispatch_set() takes it, or empty, as an empty CSUM_IMPL is: the plan
     * and its source of no variable, not "CSUM_DISPATCH ignored: no implementation 'auto'" or
     * "empty plan"; nor does CSUM_IMPL then override it. */
    static const char *const automatic[] = { "CSUM_DISPATCH=auto", "CSUM_DISPATCH=" };
    for (size_t i = 0; i < 2; i++) {
        char unset[512], err[256], out[512];
        test_run_child("plan", NULL, NULL, unset, sizeof unset, err, sizeof err);
        int rc = test_run_child("plan", automatic[i], NULL, out, sizeof out, err, sizeof err);
        CHECK(t, rc == 0 && !strcmp(out, unset), "%s: '%s', unset: '%s'", automatic[i], out, unset);
        rc = test_run_child("plan", automatic[i], "CSUM_IMPL=generic", out, sizeof out, err,
                            sizeof err);
        CHECK(t, rc == 0 && !strcmp(out, "generic@0 (one implementation for all lengths)\n"),
              "%s CSUM_IMPL=generic: '%s'", automatic[i], out);
    }
    expect_plan(t, "CSUM_DISPATCH=no-such-impl@0", NULL, defaults);
    /* ... and the reason is given by csum_dispatch_source(). */
    char want_why[300];
    snprintf(want_why, sizeof want_why, "%s (compiled-in defaults: ", defaults);
    expect_plan(t, "CSUM_DISPATCH=generic@0,avx2@99999999999999999999999", NULL, want_why);
    expect_reason(t, "CSUM_DISPATCH=generic@0,avx2@99999999999999999999999", NULL,
                  "(CSUM_DISPATCH ignored: ");
    expect_reason(t, "CSUM_DISPATCH=no-such-impl@0", NULL,
                  "(CSUM_DISPATCH ignored: no implementation 'no-such-impl')");
    expect_reason(t, "CSUM_IMPL=no-such-impl", NULL,
                  "(CSUM_IMPL ignored: no implementation 'no-such-impl')");
    expect_plan(t, "CSUM_DISPATCH=generic@0", "CSUM_IMPL=generic", "generic@0 (one implementation");
    /* CSUM_IMPL wins over CSUM_DISPATCH, and the source says so. */
    expect_reason(t, "CSUM_DISPATCH=generic@0", "CSUM_IMPL=generic",
                  "(one implementation for all lengths (CSUM_DISPATCH ignored: CSUM_IMPL comes first))");

    int fd = mkstemp(path);
    CHECK(t, fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    /* A comment longer than any plan line is skipped whole (it was once read on as a plan);
     * an indented one is a comment too (it was read as the plan "#", and the file ignored). */
    char text[600];
    int text_len = snprintf(text, sizeof text,
                            "# written by a test%0400d\n\n \t# an indented comment\n generic@0 \n", 0);
    CHECK(t, write(fd, text, (size_t)text_len) == (ssize_t)text_len, "write plan file");
    close(fd);
    snprintf(file_env, sizeof file_env, "CSUM_DISPATCH_FILE=%s", path);
    char want[400];
    snprintf(want, sizeof want, "generic@0 (%s)", path);
    expect_plan(t, file_env, NULL, want);
    /* Threads racing to the first call, all reading the plan file (under ThreadSanitizer in
     * `make test-tsan`, where a report on stderr fails this check). */
    char out[256], err[4096];
    int rc = test_run_child("race", file_env, NULL, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && !strcmp(out, "generic supported\n") && !err[0],
          "racing first use with a plan file: '%s' (rc %d), stderr '%s'", out, rc, err);
    snprintf(env, sizeof env, "CSUM_DISPATCH=%s", defaults);
    expect_plan(t, file_env, env, defaults); /* the environment wins over the file */
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("garbage here\n", f);
        fclose(f);
    }
    expect_plan(t, file_env, NULL, defaults); /* a bad file is ignored */
    /* A NUL byte ends the text of its line, not the file. */
    f = fopen(path, "w");
    if (f) {
        fwrite("# a comment\n\0 x\n generic@0\n", 1, 27, f);
        fclose(f);
    }
    expect_plan(t, file_env, NULL, want);
    /* A UTF-8 byte order mark before a comment or before the plan line is skipped (the file
     * was ignored: "no implementation '\xef\xbb\xbfgeneric'"); elsewhere it is no blank. */
    static const char *const bom_files[] = { "\xef\xbb\xbf# a comment\ngeneric@0\n",
                                             "\xef\xbb\xbfgeneric@0\n" };
    for (size_t i = 0; i < sizeof bom_files / sizeof bom_files[0]; i++) {
        f = fopen(path, "w");
        if (f) {
            fputs(bom_files[i], f);
            fclose(f);
        }
        expect_plan(t, file_env, NULL, want);
    }
    f = fopen(path, "w");
    if (f) {
        fputs("# a comment\n\xef\xbb\xbfgeneric@0\n", f);
        fclose(f);
    }
    expect_plan(t, file_env, NULL, defaults);
    /* A file tuned on another kind of CPU (a home directory shared by different machines) is
     * ignored, with both CPUs named; one tuned on this kind applies. */
    char here[64];
    csum_cpu_class(here, sizeof here);
    f = fopen(path, "w");
    if (f) {
        fputs("# csum dispatch plan\n" CSUM_PLAN_FILE_CPU "NoSuchVendor family 1 model 2\ngeneric@0\n", f);
        fclose(f);
    }
    if (here[0]) {
        char foreign[200];
        snprintf(foreign, sizeof foreign,
                 "ignored: tuned on NoSuchVendor family 1 model 2, this CPU is %s)", here);
        expect_reason(t, file_env, NULL, foreign);
    } else {
        expect_plan(t, file_env, NULL, want); /* a CPU that does not say: any file applies */
    }
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "# csum dispatch plan\n%s%s\ngeneric@0\n", CSUM_PLAN_FILE_CPU, here);
        fclose(f);
    }
    expect_plan(t, file_env, NULL, want);
    /* Only a regular file of plan-file size is read: a device, a FIFO or a huge file would
     * block or fill memory at the first csum_partial() of any program using the library. */
    expect_reason(t, "CSUM_DISPATCH_FILE=/dev/null", NULL,
                  "(/dev/null ignored: not a regular file)");
    if (truncate(path, 64 << 20) == 0) /* sparse: no disk, but 64 MiB of line to read */
        expect_reason(t, file_env, NULL, "ignored: larger than 65536 bytes)");
    char fifo[128];
    if (unused_temp_path(fifo, sizeof fifo, "csum-test-fifo") == 0 && mkfifo(fifo, 0600) == 0) {
        char fifo_env[300], fifo_why[300];
        snprintf(fifo_env, sizeof fifo_env, "CSUM_DISPATCH_FILE=%s", fifo);
        snprintf(fifo_why, sizeof fifo_why, "(%s ignored: not a regular file)", fifo);
        expect_reason(t, fifo_env, NULL, fifo_why); /* no writer: must not wait for one */
        unlink(fifo);
    }
    /* A file that is there but cannot be opened is ignored with the reason, not taken for no
     * file (it was, and `csum impls` said neither why nor that the file was ignored): a loop of
     * symbolic links, and a file this user may not read (root may read any). */
    char loop[128];
    if (unused_temp_path(loop, sizeof loop, "csum-test-loop") == 0 && symlink(loop, loop) == 0) {
        char loop_env[300], loop_why[300];
        snprintf(loop_env, sizeof loop_env, "CSUM_DISPATCH_FILE=%s", loop);
        snprintf(loop_why, sizeof loop_why,
                 "(%s ignored: cannot be opened: too many levels of symbolic links)", loop);
        expect_reason(t, loop_env, NULL, loop_why);
        unlink(loop);
    }
    f = fopen(path, "w");
    if (f) {
        fputs("generic@0\n", f);
        fclose(f);
    }
    if (geteuid() != 0 && chmod(path, 0) == 0) {
        char denied[300];
        snprintf(denied, sizeof denied, "(%s ignored: cannot be opened: permission denied)", path);
        expect_reason(t, file_env, NULL, denied);
    }
    unlink(path);
    expect_plan(t, file_env, NULL, defaults); /* a missing one too */
    /* ... and one in a directory that does not exist, or under a file, is no file either. */
    char missing[300];
    snprintf(missing, sizeof missing, "CSUM_DISPATCH_FILE=%s/plan", path);
    char out_missing[1024], err_missing[256];
    rc = test_run_child("plan", missing, NULL, out_missing, sizeof out_missing, err_missing,
                        sizeof err_missing);
    CHECK(t, rc == 0 && strstr(out_missing, defaults) == out_missing &&
                 !strstr(out_missing, "ignored"),
          "a plan file under a regular file: '%s' (rc %d), want the defaults, nothing ignored",
          out_missing, rc);
    (void)single;
}
