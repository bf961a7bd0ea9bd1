/*
 * Helpers shared by the tests: failure reporting, oracle comparison, buffers.
 */
#include "test.h"
#include "cpu_features.h" /* the compiled-in defaults' CPU seam, below */

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { MAX_REPORTED_FAILURES = 8 };

/* Linked with -Wl,--wrap=malloc (CMakeLists.txt): every malloc of the library (and of the
 * tests, not of the C library itself) fails while test_malloc_fails is set, which is how the
 * tests reach the library's out-of-memory paths. */
_Atomic int test_malloc_fails;
_Atomic long test_mallocs_left = -1;
void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_malloc(size_t size)
{
    if (atomic_load_explicit(&test_malloc_fails, memory_order_relaxed))
        return NULL;
    long left = atomic_load_explicit(&test_mallocs_left, memory_order_relaxed);
    while (left > 0 && !atomic_compare_exchange_weak(&test_mallocs_left, &left, left - 1))
        ;
    return left == 0 ? NULL : __real_malloc(size);
}

/* CSUM_TEST_CPU_ID="vendor,family,model" makes the library's compiled-in defaults see that CPU
 * (its features stay this machine's), so a child process can check the plans a kind of CPU we
 * do not run on gets: the library's seam for it, set before main, so before any dispatch. */
static void test_cpu_identify(struct csum_cpu_id *id)
{
    const char *fake = getenv("CSUM_TEST_CPU_ID");
    char vendor[sizeof id->vendor];
    unsigned family, model;
    if (fake && sscanf(fake, "%12[^,],%u,%u", vendor, &family, &model) == 3) {
        memcpy(id->vendor, vendor, sizeof vendor);
        id->family = family;
        id->model = model;
    } else {
        csum_cpu_identify(id);
    }
}

__attribute__((constructor)) static void test_cpu_identify_install(void)
{
    csum_cpu_identify_for_defaults = test_cpu_identify;
}

void test_fail(struct test_ctx *t, const char *file, int line, const char *fmt, ...)
{
    if (t->failures++ < MAX_REPORTED_FAILURES) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "    %s:%d: ", file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    } else if (t->failures == MAX_REPORTED_FAILURES + 1) {
        fprintf(stderr, "    (further failures of this test not shown)\n");
    }
}

void check_value(struct test_ctx *t, csum_wsum got_sum, uint16_t want, size_t len, size_t align,
                 csum_wsum initial, const char *what)
{
    uint16_t got = csum16_network_value(csum_fold(got_sum));
    if (got != want)
        test_fail(t, __FILE__, __LINE__,
                  "%s: %s len %zu align %zu initial 0x%08x: got 0x%04x (sum 0x%08x), oracle 0x%04x",
                  t->impl ? t->impl->name : t->copy_impl ? t->copy_impl->name : "csum_partial",
                  what, len, align, (unsigned)initial,
                  got, (unsigned)got_sum, want);
}

struct test_call test_call_now;

void check_against_oracle(struct test_ctx *t, const unsigned char *p, size_t len,
                          csum_wsum initial, const char *what)
{
    test_call_now.len = len;
    test_call_now.align = (uintptr_t)p & 63;
    test_call_now.initial = initial;
    test_call_now.what = what;
    test_call_now.active = 1;
    csum_wsum got = t->impl->partial(p, len, initial);
    test_call_now.active = 0;
    check_value(t, got, oracle_checksum(p, len, initial), len, (uintptr_t)p & 63, initial, what);
}

unsigned char *alloc_aligned(size_t len)
{
    size_t rounded = (len + 63) & ~(size_t)63;
    unsigned char *p = aligned_alloc(64, rounded ? rounded : 64);
    if (!p) {
        fprintf(stderr, "csum-test: out of memory allocating %zu bytes\n", len);
        exit(2);
    }
    return p;
}

unsigned char *map_large(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE); /* fewer page faults while filling; a hint only */
#endif
    return p;
}

void unmap_large(unsigned char *p, size_t len)
{
    if (p)
        munmap(p, len);
}

char *test_temp_template(char *buf, size_t size, const char *stem)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir || strlen(dir) + strlen(stem) + sizeof "/-XXXXXX" > size / 2)
        dir = "/tmp"; /* half the buffer at most: callers put the path in longer texts */
    snprintf(buf, size, "%s/%s-XXXXXX", dir, stem);
    return buf;
}

int test_temp_file(struct test_ctx *t, const void *p, size_t len)
{
    char path[4096];
    int fd = mkstemp(test_temp_template(path, sizeof path, "csum-test-file"));
    CHECK(t, fd >= 0, "mkstemp: %s", strerror(errno));
    if (fd < 0)
        return -1;
    unlink(path);
    CHECK(t, write(fd, p, len) == (ssize_t)len && lseek(fd, 0, SEEK_SET) == 0, "write: %s",
          strerror(errno));
    return fd;
}

unsigned long long mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return kib * 1024;
}
