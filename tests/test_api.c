/*
 * Library-wide tests: the arithmetic helpers, the table API, and how an implementation is
 * chosen (csum_impl_select, CSUM_IMPL, CSUM_CPU_DISABLE, racing first use).
 */
#define _GNU_SOURCE
#include "test.h"
#include "plan.h" /* csum_ipv4_batch_describe */

#include <pthread.h>
#include <stdatomic.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- arithmetic ---------------------------------------------------------------------- */

/* Slow references written from the definitions, not from the library's code. */
static uint16_t ref_fold(uint32_t sum)
{
    uint64_t v = sum;
    while (v > 0xffff)
        v = (v & 0xffff) + (v >> 16);
    return (uint16_t)~v;
}

static uint32_t ref_add(uint32_t a, uint32_t b)
{
    uint64_t r = (uint64_t)a + b;
    return (uint32_t)(r > 0xffffffffu ? r - 0xffffffffu : r);
}

static uint32_t ror8(uint32_t x)
{
    return (x >> 8) | (x << 24);
}

void test_api_arithmetic(struct test_ctx *t)
{
    static const struct { uint32_t in; uint16_t out; } folds[] = {
        { 0, 0xffff }, { 0xffff, 0 }, { 0xffffffffu, 0 }, { 0x10000, 0xfffe },
        { 0x1ffff, 0xfffe }, { 0xfffe0001u, 0 }, { 0x0000ddf2, 0x220d }, { 0x8000ffffu, 0x7fff },
    };
    for (size_t i = 0; i < sizeof folds / sizeof folds[0]; i++) {
        CHECK(t, csum_fold(folds[i].in) == folds[i].out, "csum_fold(0x%08x) = 0x%04x, want 0x%04x",
              (unsigned)folds[i].in, csum_fold(folds[i].in), folds[i].out);
        CHECK(t, (csum_fold)(folds[i].in) == folds[i].out, "exported csum_fold(0x%08x)",
              (unsigned)folds[i].in);
    }
    CHECK(t, csum_add(0xffffffffu, 1) == 1, "csum_add end-around carry");
    CHECK(t, csum_add(0xffffffffu, 0xffffffffu) == 0xffffffffu, "csum_add of two negative zeros");
    /* Zero less negative zero is the one subtraction that gives 0; 0 less 0 is negative zero. */
    CHECK(t, csum_sub(0, 0xffffffffu) == 0 && csum_fold(csum_sub(0, 0xffffffffu)) == 0xffff,
          "csum_sub(0, 0xffffffff)");
    CHECK(t, csum_sub(0, 0) == 0xffffffffu && csum_fold(csum_sub(0, 0)) == 0, "csum_sub(0, 0)");

    uint64_t rng = 42;
    for (int i = 0; i < 1000000; i++) {
        uint64_t r = testdata_next(&rng);
        uint32_t a = (uint32_t)r, b = (uint32_t)(r >> 32);
        if (i < 64) { /* edge values first */
            a = (i & 1) ? 0xffffffffu : (uint32_t)i;
            b = (i & 2) ? 0xffffffffu : 0xffff0000u + (uint32_t)i;
        }
        size_t off = (size_t)(r >> 17);
        CHECK(t, csum_fold(a) == ref_fold(a) && (csum_fold)(a) == ref_fold(a), "csum_fold(0x%08x)", (unsigned)a);
        CHECK(t, csum_add(a, b) == ref_add(a, b) && (csum_add)(a, b) == ref_add(a, b),
              "csum_add(0x%08x, 0x%08x)", (unsigned)a, (unsigned)b);
        CHECK(t, csum_sub(a, b) == ref_add(a, ~b) && (csum_sub)(a, b) == ref_add(a, ~b),
              "csum_sub(0x%08x, 0x%08x)", (unsigned)a, (unsigned)b);
        /* A sum less itself is negative zero, which folds to 0x0000 (csum.h). */
        CHECK(t, csum_sub(a, a) == 0xffffffffu && (csum_sub)(a, a) == 0xffffffffu &&
                     csum_fold(csum_sub(a, a)) == 0,
              "csum_sub(0x%08x, itself) = 0x%08x, want negative zero", (unsigned)a,
              (unsigned)csum_sub(a, a));
        /* Subtracting what was added gives back the same checksum. */
        CHECK(t, csum_fold(csum_sub(csum_add(a, b), b)) == csum_fold(a) || a == 0,
              "csum_sub undoes csum_add for 0x%08x, 0x%08x", (unsigned)a, (unsigned)b);
        uint32_t want = ref_add(a, (off & 1) ? ror8(b) : b);
        CHECK(t, csum_block_add(a, b, off) == want && (csum_block_add)(a, b, off) == want,
              "csum_block_add(0x%08x, 0x%08x, %zu)", (unsigned)a, (unsigned)b, off);
        uint32_t want_sub = ref_add(a, ~((off & 1) ? ror8(b) : b));
        CHECK(t, csum_block_sub(a, b, off) == want_sub && (csum_block_sub)(a, b, off) == want_sub,
              "csum_block_sub(0x%08x, 0x%08x, %zu)", (unsigned)a, (unsigned)b, off);
        CHECK(t, csum_fold(csum_block_sub(csum_block_add(a, b, off), b, off)) == csum_fold(a) ||
                     a == 0,
              "csum_block_sub undoes csum_block_add for 0x%08x, 0x%08x, %zu", (unsigned)a,
              (unsigned)b, off);
    }
    CHECK(t, csum_block_add(0, 0x1234, SIZE_MAX) == ror8(0x1234), "odd offset SIZE_MAX");
    CHECK(t, csum_block_sub(0, 0x1234, SIZE_MAX) == ~ror8(0x1234),
          "csum_block_sub, odd offset SIZE_MAX");
}

/* ---- the table ----------------------------------------------------------------------- */

void test_api_table(struct test_ctx *t)
{
    size_t n = csum_impl_count();
    CHECK(t, n >= 1, "no implementations");
    CHECK(t, csum_impl_get(n) == NULL && csum_impl_get((size_t)-1) == NULL, "get past the end");
    for (size_t i = 0; i < n; i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        CHECK(t, impl && impl->name && impl->name[0] && impl->description && impl->description[0] &&
                     impl->partial && impl->requires, "row %zu incomplete", i);
        if (!impl)
            continue;
        CHECK(t, csum_impl_find(impl->name) == impl, "find(%s) is not row %zu", impl->name, i);
        CHECK(t, strcmp(impl->name, "auto") != 0, "'auto' is reserved");
        for (size_t j = 0; j < i; j++)
            CHECK(t, strcmp(impl->name, csum_impl_get(j)->name) != 0, "duplicate name %s", impl->name);
        struct csum_impl copy = *impl; /* a look-alike that is not in the table */
        CHECK(t, !csum_impl_supported(&copy), "a copy of row %s claims support", impl->name);
    }
    CHECK(t, csum_impl_find("generic") && csum_impl_supported(csum_impl_find("generic")),
          "generic must exist and run everywhere");
    /* Product rows first, then reference rows: the documented order. */
    for (size_t i = 1; i < n; i++)
        CHECK(t, csum_impl_get(i)->reference || !csum_impl_get(i - 1)->reference,
              "product row %s follows reference row %s", csum_impl_get(i)->name,
              csum_impl_get(i - 1)->name);
    CHECK(t, !csum_impl_find("generic")->reference, "generic is a product row");
    CHECK(t, csum_impl_find("no-such-impl") == NULL && csum_impl_find(NULL) == NULL &&
                 csum_impl_find("auto") == NULL && csum_impl_find("") == NULL, "find of unknown names");
    CHECK(t, !csum_impl_supported(NULL), "supported(NULL)");

    CHECK(t, csum_impl_select("auto") == 0, "select(auto)");
    CHECK(t, csum_impl_supported(csum_impl_active()) && !csum_impl_active()->reference,
          "auto runs %s: not a supported product row", csum_impl_active()->name);
    const struct csum_impl *before = csum_impl_active();
    CHECK(t, csum_impl_select("no-such-impl") == -1 && csum_impl_select(NULL) == -1 &&
                 csum_impl_select("") == -1, "select of unknown names must fail");
    CHECK(t, csum_impl_active() == before, "a failed select changed the active implementation");
    for (size_t i = 0; i < n; i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        int ok = csum_impl_select(impl->name) == 0;
        CHECK(t, ok == !!csum_impl_supported(impl), "select(%s) = %d disagrees with supported",
              impl->name, ok);
        CHECK(t, csum_impl_active() == (ok ? impl : before), "active after select(%s)", impl->name);
        if (ok)
            csum_impl_select(before->name);
    }

    /* NULL is allowed with length 0; with a nonzero length it is treated as empty. */
    CHECK(t, csum_partial(NULL, 0, 0x1234) == 0x1234, "csum_partial(NULL, 0, s)");
    CHECK(t, csum_partial(NULL, 99, 0x1234) == 0x1234, "csum_partial(NULL, 99, s)");
    /* Every range checks (the plan's last one on a path of its own): under the automatic
     * plan (index n) and under each row alone. */
    static const size_t null_lens[] = { 1, 200, 256, 1500, 1u << 20 };
    for (size_t i = 0; i <= n; i++) {
        const char *name = i < n ? csum_impl_get(i)->name : "auto";
        if (csum_impl_select(name) != 0)
            continue; /* unsupported here */
        for (size_t k = 0; k < sizeof null_lens / sizeof null_lens[0]; k++)
            CHECK(t, csum_partial(NULL, null_lens[k], 0x1234) == 0x1234,
                  "csum_partial(NULL, %zu, s) under %s", null_lens[k], name);
    }
    for (size_t i = 0; i < n; i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        if (csum_impl_supported(impl))
            CHECK(t, csum_fold(impl->partial(NULL, 0, 0xabcd)) == csum_fold(0xabcd),
                  "%s(NULL, 0, s)", impl->name);
    }
    csum_impl_select("auto");
}

/* ---- selection through the environment, in child processes ---------------------------- */

/* Child side: report what the library chose; "race" first has many threads hit the very
 * first csum_partial at once and checks they all got the right answer. */
static unsigned char race_buf[1501];
static pthread_barrier_t race_barrier;

static void *race_thread(void *arg)
{
    pthread_barrier_wait(&race_barrier);
    csum_wsum s = csum_partial(race_buf, sizeof race_buf, 0);
    *(uint16_t *)arg = csum16_network_value(csum_fold(s));
    return NULL;
}

/* Many threads make the process's first csum_partial call at once: whether all got the right
 * answer. */
static int race_first_use(void)
{
    enum { THREADS = 8 };
    pthread_t th[THREADS];
    uint16_t got[THREADS];
    testdata_fill(race_buf, sizeof race_buf, 7);
    pthread_barrier_init(&race_barrier, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, race_thread, &got[i]);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    uint16_t want = oracle_checksum(race_buf, sizeof race_buf, 0);
    for (int i = 0; i < THREADS; i++)
        if (got[i] != want)
            return 0;
    return 1;
}

/*
 * "out-of-memory": every malloc fails from the start. The racing first use must still run
 * (the static generic plan) and say why; naming a row, or "auto", must fail and change
 * nothing, for the copies too; once memory is back, "auto" must give the automatic plan. Prints
 * "PLAN|SOURCE|first use right|selections refused|copy right|auto's last row".
 */
static int out_of_memory_child(void)
{
    atomic_store(&test_malloc_fails, 1);
    const int race_ok = race_first_use();
    char plan[256];
    csum_dispatch_describe(plan, sizeof plan);
    const char *source = csum_dispatch_source();
    const struct csum_impl *first = csum_impl_active();
    int refused = 1;
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        if (csum_impl_supported(impl) && impl != first)
            refused &= csum_impl_select(impl->name) == -1 && csum_impl_active() == first;
    }
    /* "auto" too: its plan cannot be built, and a caller who names it gets an error. */
    refused &= csum_impl_select("auto") == -1 && csum_dispatch_set("auto") == -1 &&
               csum_impl_active() == first;
    static unsigned char src[1500], dst[1500];
    testdata_fill(src, sizeof src, 9);
    const int copy_ok = csum16_network_value(csum_fold(csum_partial_copy(dst, src, sizeof src, 0))) ==
                            oracle_checksum(src, sizeof src, 0) &&
                        memcmp(dst, src, sizeof src) == 0;
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        if (csum_copy_impl_supported(impl) && impl != csum_copy_impl_active(0))
            refused &= csum_copy_impl_select(impl->name) == -1;
    }
    refused &= csum_copy_impl_select("auto") == -1;
    atomic_store(&test_malloc_fails, 0);
    const int back = csum_impl_select("auto") == 0;
    printf("%s|%s|%d|%d|%d|%s\n", plan, source, race_ok, refused, copy_ok,
           back ? csum_impl_active()->name : "(auto refused)");
    return 0;
}

/* Every plan and choice the process has, on one line: the three plans with their sources, the
 * copy row of a 100-byte and of the longest copy, and which rows this CPU runs. */
static void describe_choices(char *out, size_t size)
{
    char plan[256], batch[256];
    csum_dispatch_describe(plan, sizeof plan);
    const struct csum_copy_impl *longest = csum_copy_impl_active(SIZE_MAX);
    int n = snprintf(out, size, "%s (%s) | copy %s, %s (%s) | batch %s (%s) | runs", plan,
                     csum_dispatch_source(), csum_copy_impl_active(100)->name,
                     longest ? longest->name : "-", csum_copy_source(),
                     csum_ipv4_batch_describe(batch, sizeof batch), csum_ipv4_batch_source());
    for (size_t i = 0; i < csum_impl_count() && n > 0 && (size_t)n < size; i++)
        if (csum_impl_supported(csum_impl_get(i)))
            n += snprintf(out + n, size - (size_t)n, " %s", csum_impl_get(i)->name);
}

/*
 * "env-later" (csum.h, "Threads and first use"): once the plans are chosen, setting every
 * variable the library reads and writing a plan file change nothing, not even for a selection
 * of "auto" that follows; prints "same", or both descriptions. "env-auto-later": with a usable
 * CSUM_IMPL at first use the automatic plan is not built then, but at the first selection of
 * "auto", which reads CSUM_DISPATCH as it is at that time; prints the source it gives.
 */
static int environment_later_child(const char *mode)
{
    static unsigned char buf[1500], dst[1500];
    testdata_fill(buf, sizeof buf, 5);
    csum_partial(buf, sizeof buf, 0);
    csum_partial_copy(dst, buf, sizeof buf, 0);
    csum_ipv4_header_batch(NULL, 0, NULL);
    if (!strcmp(mode, "env-auto-later")) {
        setenv("CSUM_DISPATCH", "generic@0", 1);
        const int selected = csum_impl_select("auto"); /* before the source is read */
        printf("%d %s\n", selected, csum_dispatch_source());
        return 0;
    }
    static char before[2048], after[2048];
    describe_choices(before, sizeof before);
    char path[] = "/tmp/csum-test-plan-XXXXXX";
    int fd = mkstemp(path);
    static const char plan_file[] = "generic@0\n";
    if (fd < 0 || write(fd, plan_file, sizeof plan_file - 1) != (ssize_t)(sizeof plan_file - 1)) {
        printf("cannot write %s\n", path);
        return 1;
    }
    close(fd);
    setenv("CSUM_DISPATCH_FILE", path, 1);
    setenv("CSUM_IMPL", "generic", 1);
    setenv("CSUM_DISPATCH", "generic@0", 1);
    setenv("CSUM_COPY_IMPL", "generic", 1);
    setenv("CSUM_BATCH_IMPL", "generic", 1);
    char features[512] = "";
    for (size_t i = 0; i < csum_impl_count(); i++) {
        size_t used = strlen(features);
        snprintf(features + used, sizeof features - used, "%s%s", used ? " " : "",
                 csum_impl_get(i)->requires);
    }
    setenv("CSUM_CPU_DISABLE", features, 1);
    csum_partial(buf, sizeof buf, 0);
    csum_partial_copy(dst, buf, sizeof buf, 0);
    csum_ipv4_header_batch(NULL, 0, NULL);
    const int selected = csum_impl_select("auto") == 0 && csum_copy_impl_select("auto") == 0;
    describe_choices(after, sizeof after);
    unlink(path);
    if (selected && !strcmp(before, after))
        printf("same\n");
    else
        printf("before: %s\nafter (auto %s): %s\n", before, selected ? "selected" : "refused",
               after);
    return 0;
}

int selection_child_main(const char *mode)
{
    if (!strncmp(mode, "env-", 4))
        return environment_later_child(mode);
    if (!strncmp(mode, "copy", 4))
        return copy_selection_child(mode);
    if (!strcmp(mode, "out-of-memory"))
        return out_of_memory_child();
    if (!strcmp(mode, "race") && !race_first_use()) {
        printf("race-mismatch\n");
        return 1;
    }
    if (!strcmp(mode, "file")) {
        char path[4096];
        printf("%s\n", csum_dispatch_file(path, sizeof path) ? path : "(none)");
        return 0;
    }
    if (!strcmp(mode, "defaults")) { /* the automatic plans of all three operations */
        char plan[256], batch[256];
        csum_dispatch_describe(plan, sizeof plan);
        const struct csum_copy_impl *nt = csum_copy_impl_active(SIZE_MAX);
        printf("%s|%s|%s|%s\n", plan, csum_copy_impl_active(1500)->name, nt ? nt->name : "-",
               csum_ipv4_batch_describe(batch, sizeof batch));
        return 0;
    }
    if (!strcmp(mode, "sources")) { /* where the automatic copy and batch plans came from */
        printf("%s|%s\n", csum_copy_source(), csum_ipv4_batch_source());
        return 0;
    }
    if (!strcmp(mode, "plan")) {
        char plan[256];
        csum_dispatch_describe(plan, sizeof plan);
        printf("%s (%s)\n", plan, csum_dispatch_source());
        return 0;
    }
    const struct csum_impl *a = csum_impl_active();
    printf("%s %s\n", a->name, csum_impl_supported(a) ? "supported" : "UNSUPPORTED");
    return 0;
}

/* "NAME=..." entries for the same NAME. */
static int same_variable(const char *entry, const char *assignment)
{
    if (!assignment)
        return 0;
    size_t n = strcspn(assignment, "=") + 1;
    return strncmp(entry, assignment, n) == 0;
}

/* Sets a variable that decides where the plan file is. */
static int names_plan_file(const char *assignment)
{
    return assignment && (!strncmp(assignment, "CSUM_DISPATCH_FILE=", 19) ||
                          !strncmp(assignment, "XDG_CONFIG_HOME=", 16));
}

/* Remove from text every line that starts with "<basename of program>:". */
static void drop_lines_starting(char *text, const char *program)
{
    const char *slash = strrchr(program, '/');
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s:", slash ? slash + 1 : program);
    char *out = text;
    for (char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        len += line[len] == '\n';
        if (strncmp(line, prefix, strlen(prefix)) != 0) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
}

/* Run this binary as a selection child with extra environment; capture stdout and stderr. */
int test_run_child(const char *mode, const char *env1, const char *env2, char *out, size_t outsz,
                   char *err, size_t errsz)
{
    int po[2], pe[2];
    if (pipe(po) || pipe(pe))
        return -1;
    size_t n_env = 0;
    while (environ[n_env])
        n_env++;
    char **envp = calloc(n_env + 4, sizeof *envp);
    size_t k = 0;
    for (size_t i = 0; i < n_env; i++) /* drop inherited selection variables and overridden ones */
        if (strncmp(environ[i], "CSUM_IMPL=", 10) && strncmp(environ[i], "CSUM_CPU_DISABLE=", 17) &&
            strncmp(environ[i], "CSUM_DISPATCH", 13) && strncmp(environ[i], "CSUM_COPY_IMPL=", 15) &&
            strncmp(environ[i], "CSUM_BATCH_IMPL=", 16) && !same_variable(environ[i], env1) &&
            !same_variable(environ[i], env2))
            envp[k++] = environ[i];
    if (env1)
        envp[k++] = (char *)env1;
    if (env2)
        envp[k++] = (char *)env2;
    /* Hermetic: no developer's tune file, unless the test is about where that file is. */
    if (!names_plan_file(env1) && !names_plan_file(env2))
        envp[k++] = "CSUM_DISPATCH_FILE=";

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    /* Under qemu-user the child is a foreign binary: start it through the same emulator. */
    char self[4096];
    ssize_t n_self = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n_self > 0 ? n_self : 0] = '\0';
    /* CSUM_TEST_EMULATOR is a command line, e.g. "qemu-x86_64 -cpu Haswell-v4": its words,
     * then this binary and its arguments. */
    char emulator[512], *args[16];
    size_t n_args = 0;
    snprintf(emulator, sizeof emulator, "%s", getenv("CSUM_TEST_EMULATOR") ? getenv("CSUM_TEST_EMULATOR") : "");
    for (char *save = NULL, *w = strtok_r(emulator, " ", &save); w && n_args < 12; w = strtok_r(NULL, " ", &save))
        args[n_args++] = w;
    args[n_args++] = self;
    args[n_args++] = "--selection-child";
    args[n_args++] = (char *)mode;
    args[n_args] = NULL;
    pid_t pid;
    int rc = posix_spawnp(&pid, args[0], &fa, NULL, args, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    close(po[1]);
    close(pe[1]);
    if (rc != 0) {
        close(po[0]);
        close(pe[0]);
        return -1;
    }
    ssize_t n = read(po[0], out, outsz - 1);
    out[n > 0 ? n : 0] = '\0';
    n = read(pe[0], err, errsz - 1);
    err[n > 0 ? n : 0] = '\0';
    if (n_args > 3)
        drop_lines_starting(err, args[0]); /* the emulator's own warnings are not the library's */
    close(po[0]);
    close(pe[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void expect_child(struct test_ctx *t, const char *mode, const char *env1, const char *env2,
                         const char *want_name)
{
    char out[256], err[256], want[128];
    int rc = test_run_child(mode, env1, env2, out, sizeof out, err, sizeof err);
    snprintf(want, sizeof want, "%s supported\n", want_name);
    CHECK(t, rc == 0 && !strcmp(out, want), "with %s %s: child said '%s' (rc %d), want '%s'",
          env1 ? env1 : "", env2 ? env2 : "", out, rc, want_name);
    CHECK(t, err[0] == '\0', "the library printed to stderr: '%s'", err);
}

void test_api_selection_env(struct test_ctx *t)
{
    /* What a process with no selection variables runs for long buffers. */
    char out[256], err[256], best[64] = "";
    test_run_child("report", NULL, NULL, out, sizeof out, err, sizeof err);
    sscanf(out, "%63s", best);
    CHECK(t, csum_impl_find(best) && !csum_impl_find(best)->reference,
          "the automatic plan ends with '%s', not a product row", best);
    expect_child(t, "report", "CSUM_IMPL=auto", NULL, best);
    expect_child(t, "report", "CSUM_IMPL=no-such-impl", NULL, best);
    expect_child(t, "report", "CSUM_IMPL=", NULL, best);
    expect_child(t, "race", NULL, NULL, best);
    /* Out of memory from the first call on: right answers from the static generic plan. */
    char want[256];
    snprintf(want, sizeof want, "generic@0|generic (out of memory)|1|1|1|%s\n", best);
    int rc = test_run_child("out-of-memory", NULL, NULL, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && !strcmp(out, want) && !err[0],
          "out of memory: the child said '%s' (rc %d, stderr '%s'), want '%s'", out, rc, err, want);
    /* The environment is read when the plans are chosen, never again (csum.h, "Threads and
     * first use"); the automatic plan, when it was not needed then, when it first is. */
    rc = test_run_child("env-later", NULL, NULL, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && !strcmp(out, "same\n") && !err[0],
          "variables set after first use changed the plans (rc %d, stderr '%s'): %s", rc, err, out);
    rc = test_run_child("env-auto-later", "CSUM_IMPL=generic", NULL, out, sizeof out, err,
                        sizeof err);
    CHECK(t, rc == 0 && !strcmp(out, "0 CSUM_DISPATCH\n") && !err[0],
          "CSUM_IMPL at first use, CSUM_DISPATCH set before selecting \"auto\": the child "
          "said '%s' (rc %d), want '0 CSUM_DISPATCH'", out, rc);
    char env[128], disable[256];
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        snprintf(env, sizeof env, "CSUM_IMPL=%s", impl->name);
        if (csum_impl_supported(impl)) {
            expect_child(t, "report", env, NULL, impl->name);
            expect_child(t, "race", env, NULL, impl->name);
        }
        if (impl->requires[0]) {
            /* Hide what it needs: it must not be chosen, and the fallback must run. */
            snprintf(disable, sizeof disable, "CSUM_CPU_DISABLE=%s", impl->requires);
            char out[256], err[256], chosen[64] = "";
            int rc = test_run_child("race", env, disable, out, sizeof out, err, sizeof err);
            sscanf(out, "%63s", chosen);
            CHECK(t, rc == 0 && strcmp(chosen, impl->name) != 0 && strstr(out, " supported\n"),
                  "with %s and %s the child said '%s' (rc %d)", env, disable, out, rc);
        }
    }
}
