/*
 * The copy table and csum_partial_copy's dispatch: queries, selection (csum_copy_impl_select,
 * CSUM_COPY_IMPL, CSUM_CPU_DISABLE), the non-temporal threshold, and NULL handling of
 * csum_partial_copy, csum_iov and csum_iov_copy.
 */
#include "test.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* Child side of "copy-race": many threads make the very first csum_partial_copy at once. */
enum { RACE_THREADS = 8, RACE_LEN = 1501 };
static unsigned char race_src[RACE_LEN], race_dst[RACE_THREADS][RACE_LEN];
static pthread_barrier_t race_barrier;

static void *race_thread(void *arg)
{
    unsigned char *dst = arg;
    pthread_barrier_wait(&race_barrier);
    csum_wsum s = csum_partial_copy(dst, race_src, RACE_LEN, 0);
    return (void *)(uintptr_t)(csum16_network_value(csum_fold(s)) == oracle_checksum(race_src, RACE_LEN, 0) &&
                               memcmp(dst, race_src, RACE_LEN) == 0);
}

/* Child side: which rows the library chose for the smallest and the largest copies. */
int copy_selection_child(const char *mode)
{
    if (!strcmp(mode, "copy-race")) {
        pthread_t th[RACE_THREADS];
        testdata_fill(race_src, RACE_LEN, 11);
        pthread_barrier_init(&race_barrier, NULL, RACE_THREADS);
        for (int i = 0; i < RACE_THREADS; i++)
            pthread_create(&th[i], NULL, race_thread, race_dst[i]);
        int all_right = 1;
        for (int i = 0; i < RACE_THREADS; i++) {
            void *ok;
            pthread_join(th[i], &ok);
            all_right &= ok != NULL;
        }
        if (!all_right) {
            printf("race-mismatch\n");
            return 1;
        }
    }
    printf("%s %s\n", csum_copy_impl_active(0)->name, csum_copy_impl_active(SIZE_MAX)->name);
    return 0;
}

static const struct csum_copy_impl *first_supported(int nontemporal)
{
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        if (impl->nontemporal == nontemporal && csum_copy_impl_supported(impl))
            return impl;
    }
    return NULL;
}

static void check_table(struct test_ctx *t)
{
    size_t n = csum_copy_impl_count();
    CHECK(t, n >= 1, "no copy implementations");
    CHECK(t, csum_copy_impl_get(n) == NULL && csum_copy_impl_get((size_t)-1) == NULL, "get past the end");
    for (size_t i = 0; i < n; i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        CHECK(t, impl && impl->name && impl->name[0] && impl->description && impl->description[0] &&
                     impl->copy && impl->requires && (impl->nontemporal == 0 || impl->nontemporal == 1),
              "copy row %zu incomplete", i);
        if (!impl)
            continue;
        CHECK(t, csum_copy_impl_find(impl->name) == impl, "find(%s) is not row %zu", impl->name, i);
        CHECK(t, strcmp(impl->name, "auto") != 0, "'auto' is reserved");
        for (size_t j = 0; j < i; j++)
            CHECK(t, strcmp(impl->name, csum_copy_impl_get(j)->name) != 0, "duplicate name %s", impl->name);
        struct csum_copy_impl look_alike = *impl;
        CHECK(t, !csum_copy_impl_supported(&look_alike), "a copy of row %s claims support", impl->name);
    }
    CHECK(t, csum_copy_impl_find("generic") && csum_copy_impl_supported(csum_copy_impl_find("generic")),
          "generic copy must exist and run everywhere");
    CHECK(t, csum_copy_impl_find("no-such") == NULL && csum_copy_impl_find(NULL) == NULL &&
                 csum_copy_impl_find("auto") == NULL && csum_copy_impl_find("") == NULL,
          "find of unknown names");
    CHECK(t, !csum_copy_impl_supported(NULL), "supported(NULL)");
    /* A pointer not from the table gives 0 without being read, as for csum_impl_supported():
     * one into a page that cannot be read crashes a lookup that reads the struct first. */
    struct guarded_buffer g;
    if (guarded_buffer_map(&g, 1) == 0) {
        const void *unreadable = g.data + g.data_len; /* the guard page after the data */
        CHECK(t, !csum_copy_impl_supported((const struct csum_copy_impl *)unreadable),
              "copy_impl_supported of a pointer not from the table");
        CHECK(t, !csum_impl_supported((const struct csum_impl *)unreadable),
              "impl_supported of a pointer not from the table");
        guarded_buffer_unmap(&g);
    }
}

static void check_auto(struct test_ctx *t)
{
    const struct csum_copy_impl *small = first_supported(0), *big = first_supported(1);
    const size_t threshold = csum_copy_nontemporal_threshold();
    CHECK(t, csum_copy_impl_select("auto") == 0, "select(auto)");
#if defined(__x86_64__)
    /* Copies shorter than 64 bytes: x86-scalar, whose short copy the dispatcher runs inline. */
    const struct csum_copy_impl *shortest = csum_copy_impl_find("x86-scalar");
    CHECK(t, csum_copy_impl_active(0) == shortest && csum_copy_impl_active(63) == shortest,
          "auto below 64 bytes is not x86-scalar");
    /* Which rows with normal stores, by length, is dispatch-defaults' to check (some kinds of
     * CPU have them measured); here only that they are such rows. */
    CHECK(t, small && !csum_copy_impl_active(64)->nontemporal &&
                 !csum_copy_impl_active(1500)->nontemporal,
          "auto from 64 bytes to the threshold is not a row with normal stores");
#else
    CHECK(t, small && csum_copy_impl_active(0) == small && csum_copy_impl_active(1500) == small,
          "auto below the threshold is not the first supported temporal row");
#endif
    /* csum_partial_copy and csum_iov_copy run the row csum_copy_impl_active names, at the
     * boundaries too: the same 32-bit sum as that row (rows may return different sums for the
     * same bytes, so a length sent to the neighbouring range shows). */
    static const size_t lens[] = { 0, 1, 62, 63, 64, 65, 127, 128, 1500 };
    unsigned char *src = alloc_aligned(2048), *dst = alloc_aligned(2048);
    testdata_fill(src, 2048, 0xc0b1);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (size_t a = 0; a < 2; a++) {
            const size_t len = lens[i];
            const struct csum_copy_impl *row = csum_copy_impl_active(len);
            const csum_wsum want = row->copy(dst, src + a, len, 0);
            csum_wsum got = csum_partial_copy(dst, src + a, len, 0);
            CHECK(t, got == want, "csum_partial_copy of %zu bytes: 0x%08x, its row %s 0x%08x", len,
                  (unsigned)got, row->name, (unsigned)want);
            if (len >= 64) { /* shorter segments are summed inline, not by a row */
                struct iovec one = { src + a, len };
                got = csum_iov_copy(dst, &one, 1, 0);
                CHECK(t, got == want, "csum_iov_copy of %zu bytes: 0x%08x, its row %s 0x%08x", len,
                      (unsigned)got, row->name, (unsigned)want);
            }
        }
    free(src);
    free(dst);
    if (big) {
        CHECK(t, threshold >= ((size_t)1 << 20) && threshold < SIZE_MAX,
              "threshold %zu with a non-temporal row", threshold);
        CHECK(t, !csum_copy_impl_active(threshold - 1)->nontemporal, "auto just below the threshold");
        CHECK(t, csum_copy_impl_active(threshold) == big && csum_copy_impl_active(SIZE_MAX) == big,
              "auto from the threshold up is not the first supported non-temporal row");
    } else {
        CHECK(t, threshold == SIZE_MAX, "threshold %zu without a non-temporal row", threshold);
        CHECK(t, csum_copy_impl_active(SIZE_MAX) == small, "auto for huge copies");
    }
}

static void check_select(struct test_ctx *t)
{
    const struct csum_copy_impl *before = csum_copy_impl_active(0);
    CHECK(t, csum_copy_impl_select("no-such") == -1 && csum_copy_impl_select(NULL) == -1 &&
                 csum_copy_impl_select("") == -1, "select of unknown names must fail");
    CHECK(t, csum_copy_impl_active(0) == before, "a failed select changed the choice");
    /* A 1.0 name: found, and selected, as the row it became. */
    const struct csum_copy_impl *renamed = csum_copy_impl_find("x86-adc");
    if (renamed && csum_copy_impl_supported(renamed)) {
        CHECK(t, csum_copy_impl_select("x86-adc") == 0 && csum_copy_impl_active(0) == renamed,
              "select(x86-adc) does not select %s", renamed->name);
        csum_copy_impl_select("auto");
    }
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        int ok = csum_copy_impl_select(impl->name) == 0;
        CHECK(t, ok == !!csum_copy_impl_supported(impl), "select(%s) = %d disagrees with supported",
              impl->name, ok);
        if (ok)
            CHECK(t, csum_copy_impl_active(0) == impl && csum_copy_impl_active(SIZE_MAX) == impl,
                  "select(%s) is not used for every length", impl->name);
        csum_copy_impl_select("auto");
    }
}

static void check_null(struct test_ctx *t)
{
    unsigned char src[32], dst[32];
    memset(src, 7, sizeof src);
    memset(dst, 0, sizeof dst);
    CHECK(t, csum_partial_copy(NULL, src, 32, 0x1234) == 0x1234, "csum_partial_copy(NULL dst)");
    CHECK(t, csum_partial_copy(dst, NULL, 32, 0x1234) == 0x1234 && dst[0] == 0,
          "csum_partial_copy(NULL src) must copy nothing");
    CHECK(t, csum_fold(csum_partial_copy(dst, src, 0, 0x1234)) == csum_fold(0x1234) && dst[0] == 0,
          "csum_partial_copy of 0 bytes");
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        if (csum_copy_impl_supported(impl))
            CHECK(t, csum_fold(impl->copy(dst, src, 0, 0xabcd)) == csum_fold(0xabcd) && dst[0] == 0,
                  "copy %s of 0 bytes", impl->name);
    }
    struct iovec iov[3] = { { src, 5 }, { NULL, 9 }, { src + 5, 3 } };
    CHECK(t, csum_iov(NULL, 3, 0x1234) == 0x1234, "csum_iov(NULL)");
    CHECK(t, csum_iov_copy(NULL, iov, 3, 0x1234) == 0x1234, "csum_iov_copy(NULL dst)");
    CHECK(t, csum_iov_copy(dst, NULL, 3, 0x1234) == 0x1234 && dst[0] == 0, "csum_iov_copy(NULL iov)");
    /* A NULL segment counts as empty: the rest sums (and is written) as if it were absent. */
    uint16_t want = oracle_checksum(src, 8, 0);
    check_value(t, csum_iov(iov, 3, 0), want, 8, 0, 0, "csum_iov with a NULL segment");
    check_value(t, csum_iov_copy(dst, iov, 3, 0), want, 8, 0, 0, "csum_iov_copy with a NULL segment");
    CHECK(t, memcmp(dst, src, 8) == 0 && dst[8] == 0, "csum_iov_copy with a NULL segment: dst");
}

/* CSUM_COPY_IMPL and CSUM_CPU_DISABLE, seen by a fresh process. */
static void check_environment(struct test_ctx *t)
{
    char out[256], err[256], want[160], env[128], disable[256];
    csum_copy_impl_select("auto");
    snprintf(want, sizeof want, "%s %s\n", csum_copy_impl_active(0)->name,
             csum_copy_impl_active(SIZE_MAX)->name);
    static const char *const fallbacks[] = { NULL, "CSUM_COPY_IMPL=auto", "CSUM_COPY_IMPL=no-such",
                                             "CSUM_COPY_IMPL=" };
    for (size_t i = 0; i < sizeof fallbacks / sizeof *fallbacks; i++) {
        int rc = test_run_child("copy", fallbacks[i], NULL, out, sizeof out, err, sizeof err);
        CHECK(t, rc == 0 && !strcmp(out, want) && !err[0], "with %s the child chose '%s' (rc %d), want '%s'",
              fallbacks[i] ? fallbacks[i] : "nothing", out, rc, want);
    }
    int rc = test_run_child("copy-race", NULL, NULL, out, sizeof out, err, sizeof err);
    CHECK(t, rc == 0 && !strcmp(out, want) && !err[0], "racing first copies: child said '%s' (rc %d)",
          out, rc);
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        snprintf(env, sizeof env, "CSUM_COPY_IMPL=%s", impl->name);
        if (csum_copy_impl_supported(impl)) {
            snprintf(want, sizeof want, "%s %s\n", impl->name, impl->name);
            int rc = test_run_child("copy", env, NULL, out, sizeof out, err, sizeof err);
            CHECK(t, rc == 0 && !strcmp(out, want) && !err[0], "with %s the child chose '%s' (rc %d)",
                  env, out, rc);
        }
        if (impl->requires[0]) { /* hidden features: the row must not be chosen */
            snprintf(disable, sizeof disable, "CSUM_CPU_DISABLE=%s", impl->requires);
            int rc = test_run_child("copy", env, disable, out, sizeof out, err, sizeof err);
            char small[64] = "", big[64] = "";
            sscanf(out, "%63s %63s", small, big);
            CHECK(t, rc == 0 && strcmp(small, impl->name) && strcmp(big, impl->name) && !err[0],
                  "with %s and %s the child chose '%s' (rc %d)", env, disable, out, rc);
        }
    }
}

void test_copy_api(struct test_ctx *t)
{
    check_table(t);
    check_auto(t);
    check_select(t);
    check_null(t);
    check_environment(t);
    csum_copy_impl_select("auto");
}
