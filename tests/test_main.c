/*
 * csum-test: the test runner. Closing line: "N passed, N failed".
 *
 *   csum-test [--quick] [--no-huge] [-i NAME] [-t TEST] [--list]
 *
 * Library-wide tests run once; per-implementation tests run for every implementation in the
 * table that this CPU supports (unsupported ones are reported as SKIPPED), the csum_partial
 * table, the copy table, or both.
 */
#include "test.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int selection_child_main(const char *mode); /* test_api.c: child side of the env tests */
int golden_print(void);                      /* test_golden.c: regenerate golden_vectors.h */

enum { ONCE = 0, PER_IMPL = 1, PER_COPY = 2 }; /* per_impl: which table(s) a test walks */

struct test_def {
    const char *name;
    int per_impl;
    void (*run)(struct test_ctx *);
    const char *what;
};

static const struct test_def tests[] = {
    { "api-arithmetic", 0, test_api_arithmetic, "csum_fold/add/sub/block_add/block_sub, inline = exported" },
    { "api-table", 0, test_api_table, "table queries, csum_impl_select, NULL handling" },
    { "api-selection", 0, test_api_selection_env, "CSUM_IMPL, CSUM_CPU_DISABLE, racing first use" },
    { "dispatch-plans", 0, test_dispatch_plans, "csum_dispatch_set/describe, ranges route correctly" },
    { "dispatch-defaults", 0, test_dispatch_defaults, "the compiled-in plan for each kind of CPU" },
    { "dispatch-narrow", 0, test_dispatch_narrow, "copies, batches as narrow as csum_partial's plan" },
    { "dispatch-auto", 0, test_dispatch_auto, "the auto plan through csum_partial, every length" },
    { "dispatch-sources", 0, test_dispatch_sources, "CSUM_DISPATCH, CSUM_DISPATCH_FILE, defaults" },
    { "inline-constant", 0, test_inline_constant, "constant-length csum_partial: inlined, = oracle" },
    { "known-answers", 1, test_known_answers, "RFC 1071 and IPv4 header vectors (oracle too)" },
    { "golden", 1, test_golden, "committed stored-byte vectors: identical on every byte order" },
    { "exhaustive", 1, test_exhaustive, "len 0..4160 x align 0..63 x 5 initial sums" },
    { "patterns", 1, test_patterns, "all-0xff, all-zero and other carry patterns" },
    { "no-carry", 1, test_no_carry, "initial sum making the total exactly ones'-complement zero" },
    { "guard-pages", 1, test_guard_pages, "buffers flush against PROT_NONE pages" },
    { "crash-report", 0, test_crash_report, "a read past the end is reported with its length and case" },
    { "large", 1, test_large, "64 MiB of 0xff and of random bytes" },
    { "huge", 1, test_huge, "4 GiB + 13 bytes (32-bit overflow)" },
    { "sparse-huge", 1, test_sparse_huge, "12 GiB + 8269 bytes, mostly zero pages (avx2's chunks)" },
    { "composition", 1, test_composition, "split at every point, csum_block_add and _sub, streaming" },
    { "address-independence", 1, test_address_independence, "same bytes at 64 addresses" },
    { "public-entry", 1, test_public_entry, "csum_partial through dispatch after select, guard pages" },
    { "oracle-selfchecks", 0, test_oracle_selfchecks, "csum verify's copy and batch checks refuse wrong ones" },
    { "lab-refuses-wrong", 0, test_lab_refuses_wrong, "the lab times nothing that fails the oracle" },
    { "lab-refuses-each-table", 0, test_lab_refuses_each_table, "sizes, mixed, thrash, h40 check the buffers they time" },
    { "lab-memops-checked", 0, test_lab_memops_checked, "memops and copy check each operation before timing it" },
    { "lab-summary", 0, test_lab_summary, "the summary's ratios, noise marks and % of roofline" },
    { "lab-ratio-words", 0, test_lab_ratio_words, "a ratio printed 1.00 is not called slower; no -0 % Improv; its p10..p90 range" },
    { "lab-improv-zero-ticks", 0, test_lab_improv_zero_ticks, "lenalign gives no p10..p90 range against a baseline's p10 of 0 ticks" },
    { "lab-long-names", 0, test_lab_long_names, "a subject's long name is printed whole, its columns under their headers" },
    { "lab-stack-shift", 0, test_lab_stack_shift, "timed loops move their stack off their buffers' page offsets (4K aliasing)" },
    { "lab-pairs-interleaved", 0, test_lab_pairs_interleaved, "the summary's pairs (sizes, lenalign, copy, batch) are timed together, interleaved" },
    { "lab-peer-limit", 0, test_lab_peer_limit, "a peer refused for a wrong sum says its limit, in the notes and the summary" },
    { "lab-output-finite", 0, test_lab_output_finite, "a median of 0 ticks gives null in the JSON, never nan or inf" },
    { "lab-tune-choice", 0, test_lab_tune_choice, "csum tune keeps a range only for a win beyond noise, worse mode" },
    { "lab-tune-slower", 0, test_lab_tune_slower, "csum tune --write refuses a plan slower beyond noise and one cycle, only then" },
    { "lab-tune-plan-dir", 0, test_lab_tune_plan_dir, "csum tune --write's check before timing makes no directory" },
    { "lab-bodies", 0, test_lab_bodies, "latency chains each result into the next call; throughput does not" },
    { "lab-noise-flag", 0, test_lab_noise_flag, "a spread above --noise is repeated, then flagged" },
    { "lab-best-attempt", 0, test_lab_best_attempt, "a repeated group keeps the attempt whose widest spread is smallest" },
    { "lab-spread", 0, test_lab_spread, "p10/median/p90 and the noise flag of every lab result" },
    { "lab-h40-seed-after", 0, test_lab_h40_seed_after_checked, "h40 checks each subject with the seed its column calls it with" },
    { "lab-batch-sizing", 0, test_lab_batch_sizing, "a sizing run stretched by a preemption does not end the sizing" },
    { "lab-warm-up", 0, test_lab_warm_up, "the sizing warms up for the warm-up time, not just two batches" },
    { "lab-batch-per-header", 0, test_lab_batch_per_header, "the batch table's median, minimum and spread are all per header" },
    { "lab-load-steal", 0, test_lab_load_steal, "a hypervisor's steal time is read and makes a run busy" },
    { "lab-load-busy", 0, test_lab_load_busy, "a run is busy past 1 % waited or stolen, or 1 in 20 batches preempted" },
    { "lab-core-kind", 0, test_lab_core_kind, "the lab pins to the fastest kind of core and names the kind" },
    { "lab-clock", 0, test_lab_clock, "ticks per ns calibration: a preemption never moves it" },
    { "lab-cpuinfo", 0, test_lab_cpuinfo, "the lab names the CPU from cpuinfo, arm64 included" },
    { "proto-helpers", 0, test_proto_helpers, "IPv4 header, pseudo-headers, UDP zero, RFC 1624 (fields, by diff) vs oracle" },
    { "pcap-stop", 0, test_pcap_stop, "csum_pcap's should_stop: interrupted walks, in memory, from files, blocked reads" },
    { "pcap-memory", 0, test_pcap_memory, "csum_pcap out of memory at each allocation: a system error, never a malformed capture" },
    { "ipv4-batch", 0, test_ipv4_batch, "batch = per-header for every variant, mixed ihl, guard pages" },
    { "ones-seed", PER_IMPL | PER_COPY, test_ones_seed, "seed 0xffffffff never gives 0 (Viro/Laight 2020)" },
    { "copy-api", ONCE, test_copy_api, "copy table queries, select, thresholds, CSUM_COPY_IMPL, NULL" },
    { "copy-sweep", PER_COPY, test_copy_sweep, "len 0..4160 x src x dst alignment: sum, copy, neighbours" },
    { "copy-guard-pages", PER_COPY, test_copy_guard_pages, "src and dst flush against PROT_NONE pages" },
    { "copy-large", PER_COPY, test_copy_large, "64 MiB of 0xff and of random bytes, odd offsets" },
    { "copy-address-independence", PER_COPY, test_copy_address_independence, "same bytes, any src/dst address" },
    { "copy-public-entry", PER_COPY, test_copy_public_entry, "csum_partial_copy through dispatch after select" },
    { "iov", ONCE, test_iov, "csum_iov over random segmentations (empty, 1-byte, odd), guard pages" },
    { "iov-range", ONCE, test_iov_range, "csum_iov_range: every offset and length, random segmentations, past the end, guard pages" },
    { "iov-copy", ONCE, test_iov_copy, "csum_iov_copy: concatenation written, sum, neighbours, guard pages" },
    { "memops", ONCE, test_memops, "the lab's zero/copy variants: exact bytes, nothing outside" },
};

#define N_TESTS (sizeof tests / sizeof tests[0])

static void usage(FILE *f)
{
    fprintf(f, "Usage: csum-test [--quick] [--no-huge] [-i NAME] [-t TEST] [--list]\n"
               "  --quick     smaller sweeps (make check)\n"
               "  --no-huge   skip the > 4 GiB case (for emulators)\n"
               "  -i NAME     only this implementation (repeatable)\n"
               "  -t TEST     only this test (repeatable)\n"
               "  --list      list implementations and tests\n");
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int listed(const char *name, const char **names, int n)
{
    if (n == 0)
        return 1;
    for (int i = 0; i < n; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

static int passed, failed, skipped;

/* A guard-page test fails by crashing; say which test and implementation did it. */
static char current_label[96];

/* v in `base` (10 or 16), at least `digits` digits, with write(2) alone: in a signal handler. */
static void write_number(unsigned long long v, unsigned base, int digits)
{
    char text[24];
    int n = 0;
    do {
        text[sizeof text - 1 - n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while ((v || n < digits) && n < (int)sizeof text);
    (void)!write(2, text + sizeof text - n, (size_t)n);
}

static void write_text(const char *text)
{
    (void)!write(2, text, strlen(text));
}

static void on_crash(int sig)
{
    write_text("CRASH   ");
    write_text(current_label);
    if (test_call_now.active) { /* the call in progress: check_against_oracle's */
        write_text(" at len ");
        write_number(test_call_now.len, 10, 1);
        write_text(" align ");
        write_number(test_call_now.align, 10, 1);
        write_text(" initial 0x");
        write_number(test_call_now.initial, 16, 8);
        write_text(" (");
        write_text(test_call_now.what ? test_call_now.what : "");
        write_text(")");
    }
    write_text(": fatal signal (a load or store outside the buffer?)\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_crash_handler(void)
{
    static char altstack[1 << 16];
    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

static void run_one(const struct test_def *def, const struct csum_impl *impl,
                    const struct csum_copy_impl *copy_impl, const struct test_ctx *opts)
{
    struct test_ctx t = *opts;
    t.impl = impl;
    t.copy_impl = copy_impl;
    t.failures = 0;
    t.skip_reason = NULL;
    char *label = current_label;
    if (impl)
        snprintf(label, sizeof current_label, "%s [%s]", def->name, impl->name);
    else if (copy_impl)
        snprintf(label, sizeof current_label, "%s [copy %s]", def->name, copy_impl->name);
    else
        snprintf(label, sizeof current_label, "%s", def->name);
    fflush(stdout);
    double t0 = now_seconds();
    def->run(&t);
    double dt = now_seconds() - t0;
    if (t.skip_reason) {
        printf("SKIPPED %-36s %s\n", label, t.skip_reason);
        skipped++;
    } else if (t.failures) {
        printf("FAIL    %-36s %ld failed checks (%.2f s)\n", label, t.failures, dt);
        failed++;
    } else {
        printf("PASS    %-36s (%.2f s)\n", label, dt);
        passed++;
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    struct test_ctx opts = { 0 };
    const char *impl_names[64], *test_names[64];
    int n_impl_names = 0, n_test_names = 0, list = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quick")) {
            opts.quick = 1;
        } else if (!strcmp(a, "--no-huge")) {
            opts.no_huge = 1;
        } else if (!strcmp(a, "--list")) {
            list = 1;
        } else if ((!strcmp(a, "-i") || !strcmp(a, "-t")) && i + 1 < argc) {
            const char *v = argv[++i];
            if (a[1] == 'i') {
                if (!csum_impl_find(v) && !csum_copy_impl_find(v)) {
                    fprintf(stderr, "csum-test: unknown implementation '%s'\n", v);
                    return 2;
                }
                if (n_impl_names < 64)
                    impl_names[n_impl_names++] = v;
            } else {
                int known = 0;
                for (size_t k = 0; k < N_TESTS; k++)
                    known |= !strcmp(v, tests[k].name);
                if (!known) {
                    fprintf(stderr, "csum-test: unknown test '%s' (see --list)\n", v);
                    return 2;
                }
                if (n_test_names < 64)
                    test_names[n_test_names++] = v;
            }
        } else if (!strcmp(a, "--print-golden")) {
            return golden_print();
        } else if (!strcmp(a, "--selection-child") && i + 1 < argc) {
            return selection_child_main(argv[i + 1]);
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "csum-test: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }

    if (list) {
        printf("Implementations:\n");
        for (size_t i = 0; i < csum_impl_count(); i++) {
            const struct csum_impl *impl = csum_impl_get(i);
            printf("  %-14s %s\n", impl->name, csum_impl_supported(impl) ? "supported" : "not supported here");
        }
        printf("Copy implementations:\n");
        for (size_t i = 0; i < csum_copy_impl_count(); i++) {
            const struct csum_copy_impl *impl = csum_copy_impl_get(i);
            printf("  %-14s %s\n", impl->name, csum_copy_impl_supported(impl) ? "supported" : "not supported here");
        }
        printf("Tests:\n");
        for (size_t k = 0; k < N_TESTS; k++)
            printf("  %-25s %s%s\n", tests[k].name, tests[k].what,
                   tests[k].per_impl ? " (per implementation)" : "");
        return 0;
    }

    /* Hermetic: a plan the developer stored with `csum tune --write`, or exported, must not
     * change what "auto" means here (the selection tests set these on purpose in children). */
    setenv("CSUM_DISPATCH_FILE", "", 1);
    unsetenv("CSUM_DISPATCH");
    install_crash_handler();
    printf("csum-test: %s suite, %zu implementations and %zu copy implementations compiled in\n",
           opts.quick ? "quick" : "full", csum_impl_count(), csum_copy_impl_count());
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        if (listed(impl->name, impl_names, n_impl_names) && !csum_impl_supported(impl)) {
            printf("SKIPPED %-36s not supported by this CPU (needs: %s)\n", impl->name,
                   impl->requires);
            skipped++;
        }
    }
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        if (listed(impl->name, impl_names, n_impl_names) && !csum_copy_impl_supported(impl)) {
            printf("SKIPPED copy %-31s not supported by this CPU (needs: %s)\n", impl->name,
                   impl->requires);
            skipped++;
        }
    }

    for (size_t k = 0; k < N_TESTS; k++) {
        const struct test_def *def = &tests[k];
        if (!listed(def->name, test_names, n_test_names))
            continue;
        if (!def->per_impl) {
            run_one(def, NULL, NULL, &opts);
            continue;
        }
        for (size_t i = 0; (def->per_impl & PER_IMPL) && i < csum_impl_count(); i++) {
            const struct csum_impl *impl = csum_impl_get(i);
            if (listed(impl->name, impl_names, n_impl_names) && csum_impl_supported(impl))
                run_one(def, impl, NULL, &opts);
        }
        for (size_t i = 0; (def->per_impl & PER_COPY) && i < csum_copy_impl_count(); i++) {
            const struct csum_copy_impl *impl = csum_copy_impl_get(i);
            if (listed(impl->name, impl_names, n_impl_names) && csum_copy_impl_supported(impl))
                run_one(def, NULL, impl, &opts);
        }
    }

    csum_impl_select("auto");
    csum_copy_impl_select("auto");
    if (skipped)
        printf("%d skipped\n", skipped);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
