/*
 * The csum test runner: tests are functions in a table (tests/test_main.c); "per
 * implementation" tests run once for every implementation this CPU supports, found through
 * the public table API, so a new implementation is covered without editing any test.
 */
#ifndef CSUM_TEST_H
#define CSUM_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csum.h"
#include "csum_oracle.h"

struct test_ctx {
    const struct csum_impl *impl; /* NULL for tests that are not per implementation */
    const struct csum_copy_impl *copy_impl; /* the copy row, for tests run per copy row */
    int quick;                    /* `make check` tier: smaller sweeps */
    int no_huge;                  /* skip the > 4 GiB case (emulators) */
    long failures;                /* checks that failed in this run of the test */
    const char *skip_reason;      /* set by a test that cannot run here */
};

/* Record a failed check (prints the first few of each test run). */
void test_fail(struct test_ctx *t, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define CHECK(t, cond, ...)                                    \
    do {                                                       \
        if (!(cond))                                           \
            test_fail((t), __FILE__, __LINE__, __VA_ARGS__);   \
    } while (0)

/* Compare impl(p, len, initial) with the oracle; on mismatch report what and where. */
void check_against_oracle(struct test_ctx *t, const unsigned char *p, size_t len,
                          csum_wsum initial, const char *what);

/* The call check_against_oracle() is making (active while it runs), for the crash report of
 * tests/test_main.c: a read outside the buffer kills the test, and the report then names the
 * length, the offset from a 64-byte boundary, the initial sum and the case. */
struct test_call {
    volatile int active;
    volatile size_t len, align;
    volatile csum_wsum initial;
    const char *volatile what;
};
extern struct test_call test_call_now;

/* Same, when the caller already knows the oracle's answer. */
void check_value(struct test_ctx *t, csum_wsum got_sum, uint16_t want, size_t len, size_t align,
                 csum_wsum initial, const char *what);

/* 64-byte aligned allocation of len bytes (free with free()); aborts on failure. */
unsigned char *alloc_aligned(size_t len);

/* Anonymous mapping for large buffers (not malloc, so sanitizers do not shadow-poison it);
 * NULL if the system refuses. */
unsigned char *map_large(size_t len);
void unmap_large(unsigned char *p, size_t len);


/* Lengths around the points where vector rows change how they keep their lanes from
 * overflowing (avx512-vnni and avx512: a 32-bit final reduction up to 64 KiB; avx512-vnni:
 * longer buffers than 16376 vectors in pieces of that many, each summed exactly on its own;
 * avx-vnni: chunks of 32752 vectors, the last up to 64 bytes longer; the x86_lanes.h rows: a
 * flush every 16384 steps of four vectors, 2 MiB for avx2 and 4 MiB for avx512; neon: a flush
 * every 16384 steps of eight vectors, 2 MiB), for the tests with the words that move a lane
 * furthest (all 0x0000, all 0xffff).
 * 131073, 131076 and 262145: the first lengths whose 32-bit final reduction would overflow
 * (avx512-vnni: 2049 vectors of zero words; x86_lanes.h: 65538 words of 0xffff), and one well
 * past them, so the 64 KiB bound of that reduction cannot be raised unnoticed: below about
 * 128 KiB a 32-bit reduction is still exact, and 65537 alone does not tell.
 * The largest is below 8 MiB, the quick suites' large buffers. */
#define TEST_LANE_EDGES                                                                       \
    65535, 65536, 65537, 131073, 131076, 262145, 1048063, 1048064, 1048065, 1048069, 1048128, \
        1048129, 2096129, 2097151, 2097152, 2097153, 4194303, 4194304, 4194305

/* A mkstemp() template "DIR/STEM-XXXXXX" in buf: DIR is $TMPDIR when set and short enough to
 * leave room for STEM, else /tmp (a build sandbox may have no /tmp, only $TMPDIR). */
char *test_temp_template(char *buf, size_t size, const char *stem);

/* A descriptor of an unlinked temporary file holding p[0..len), at its start (-1 and a
 * failed check if it cannot be made). */
int test_temp_file(struct test_ctx *t, const void *p, size_t len);

/* A pcap of n records of 616 bytes (test_pcap_stop.c): Ethernet, IPv4 with a bad header
 * checksum, UDP without one. malloc'ed; aborts if memory is short. */
unsigned char *test_udp_capture(size_t n, size_t *len);

/* Bytes of memory the kernel says are available, or 0 if unknown. */
unsigned long long mem_available(void);

/* While set, malloc fails (test_util.c; the binary is linked with --wrap=malloc). */
extern _Atomic int test_malloc_fails;
/* When >= 0, the number of mallocs that still succeed; every one after them fails (-1: off). */
extern _Atomic long test_mallocs_left;

/* Run this binary as "--selection-child MODE" with up to two extra environment entries
 * (selection variables inherited from the caller are dropped); captures stdout and stderr and
 * returns the exit status, or -1. */
int test_run_child(const char *mode, const char *env1, const char *env2, char *out, size_t outsz,
                   char *err, size_t errsz);

/* Test bodies. */
void test_api_arithmetic(struct test_ctx *t);
void test_api_table(struct test_ctx *t);
void test_api_selection_env(struct test_ctx *t);
void test_dispatch_plans(struct test_ctx *t);
void test_dispatch_defaults(struct test_ctx *t);
void test_dispatch_narrow(struct test_ctx *t);
void test_dispatch_auto(struct test_ctx *t);
void test_dispatch_sources(struct test_ctx *t);
void test_inline_constant(struct test_ctx *t);
void test_known_answers(struct test_ctx *t);
void test_golden(struct test_ctx *t);
void test_exhaustive(struct test_ctx *t);
void test_patterns(struct test_ctx *t);
void test_no_carry(struct test_ctx *t);
void test_guard_pages(struct test_ctx *t);
void test_crash_report(struct test_ctx *t);
void test_large(struct test_ctx *t);
void test_huge(struct test_ctx *t);
void test_sparse_huge(struct test_ctx *t);
void test_composition(struct test_ctx *t);
void test_address_independence(struct test_ctx *t);
void test_public_entry(struct test_ctx *t);
void test_oracle_selfchecks(struct test_ctx *t);
void test_lab_refuses_wrong(struct test_ctx *t);
void test_lab_refuses_each_table(struct test_ctx *t);
void test_lab_memops_checked(struct test_ctx *t);
void test_lab_bodies(struct test_ctx *t);
void test_pcap_stop(struct test_ctx *t);
void test_pcap_memory(struct test_ctx *t);
void test_lab_summary(struct test_ctx *t);
void test_lab_output_finite(struct test_ctx *t);
void test_lab_tune_choice(struct test_ctx *t);
void test_lab_tune_slower(struct test_ctx *t);
void test_lab_tune_plan_dir(struct test_ctx *t);
void test_lab_noise_flag(struct test_ctx *t);
void test_lab_best_attempt(struct test_ctx *t);
void test_lab_ratio_words(struct test_ctx *t);
void test_lab_pairs_interleaved(struct test_ctx *t);
void test_lab_stack_shift(struct test_ctx *t);
void test_lab_improv_zero_ticks(struct test_ctx *t);
void test_lab_long_names(struct test_ctx *t);
void test_lab_peer_limit(struct test_ctx *t);
void test_lab_spread(struct test_ctx *t);
void test_lab_batch_per_header(struct test_ctx *t);
void test_lab_batch_sizing(struct test_ctx *t);
void test_lab_warm_up(struct test_ctx *t);
void test_lab_load_steal(struct test_ctx *t);
void test_lab_load_busy(struct test_ctx *t);
void test_lab_core_kind(struct test_ctx *t);
void test_lab_h40_seed_after_checked(struct test_ctx *t);
void test_lab_clock(struct test_ctx *t);
void test_lab_cpuinfo(struct test_ctx *t);
void test_proto_helpers(struct test_ctx *t);
void test_ipv4_batch(struct test_ctx *t);
void test_copy_api(struct test_ctx *t);
void test_copy_sweep(struct test_ctx *t);
void test_copy_guard_pages(struct test_ctx *t);
void test_copy_large(struct test_ctx *t);
void test_copy_address_independence(struct test_ctx *t);
void test_copy_public_entry(struct test_ctx *t);
void test_ones_seed(struct test_ctx *t);
void test_iov(struct test_ctx *t);
void test_iov_copy(struct test_ctx *t);
void test_iov_range(struct test_ctx *t);
void test_memops(struct test_ctx *t);
int copy_selection_child(const char *mode); /* test_copy_api.c: child side, "copy" or "copy-race" */

#endif /* CSUM_TEST_H */
