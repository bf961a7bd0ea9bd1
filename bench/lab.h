/*
 * The lab (`csum bench`): shared types of the measurement harness. Each table lives in its own
 * file (bench/table_*.c) and uses the same clock, the same batch statistics and the same
 * result store, so every number in every table is produced by one method (docs/METHOD.md).
 */
#ifndef CSUM_LAB_H
#define CSUM_LAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csum.h"

/* ---- entry point (cli/cmd_bench.c) and text output --------------------------------------- */

int lab_main(int argc, char **argv);
int lab_tune_main(int argc, char **argv); /* csum tune (bench/tune.c) */
/* csum tune's choice from its measurements: median and spread of row r at ladder point l in
 * mode m (0 latency, 1 throughput) at [(l * n_rows + r) * 2 + m], one_cycle in ticks. Fills
 * each range's row and first length (up to 4); returns the number of ranges (-1: bad n_rows). */
int lab_tune_choose(const double *median, const double *spread, size_t n_rows, double one_cycle,
                    size_t *range_row, size_t *range_len);
size_t lab_tune_ladder(const size_t **lengths); /* its ladder of lengths */
/* csum tune's verdict on a new plan at one length and mode, from n (1..3) measurements of the
 * plan in force (now) and of the new one (candidate), ticks per call: 1 when the new one is
 * slower by more than the noise (their wider spread, at least 3 %) and one core cycle
 * (one_cycle ticks), else 0 (-1: bad n). --write refuses a plan slower at some length in some
 * mode. */
int lab_tune_slower(const double *now, const double *candidate, int n, double one_cycle);
/* csum tune's plan file (bench/tune_file.c). Whether --write can put a file at `path`, asked
 * before any timing (0, or -1 with errno and a reason in *why); the plan a program reading `file` runs, into `plan`,
 * and where it comes from, into `source`; store `plan` at `path` (0, or -1 with a reason in
 * *why); --reset (the exit status). */
int lab_tune_plan_dir_writable(const char *path, const char **why);
void lab_tune_plan_in(const char *file, char *plan, size_t size, char *source, size_t source_size);
int lab_tune_write_plan(const char *path, const char *plan, const char **why);
/* Whether --write may replace what is at `path` (nothing, a plan file, an empty file): 0, or -1
 * with a reason in *why. lab_tune_write_plan checks it too. */
int lab_tune_plan_replaceable(const char *path, const char **why);
int lab_tune_reset(void);

/* Print to the visible output (stdout, or stderr under --json/--csv) and to the report. */
void lab_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- clock: ticks, calibration, pinning, counters (bench/clock.c) ------------------------ */

/* Read the tick counter: the TSC on x86-64, CNTVCT_EL0 on arm64, else nanoseconds. */
uint64_t lab_ticks(void);

struct lab_clock {
    const char *tick_name;   /* "TSC ticks", "CNTVCT ticks" or "ns" */
    double ticks_per_ns;     /* calibrated against CLOCK_MONOTONIC_RAW */
    uint64_t granularity;    /* smallest step the counter takes, in ticks (a VM's TSC may
                                advance in steps: single-call timings are that coarse) */
    double cycles_per_tick;  /* core cycles per tick: from perf, or the 1-cycle add chain */
    int cycles_measured;     /* 1: perf_event cycles; 0: estimated from the add chain */
    int counters;            /* perf counters (instructions, branch-misses) usable */
    const char *counters_why;/* why not, when not */
};

/* Calibrate once (pin first). `quick` shortens the calibration. */
void lab_clock_init(struct lab_clock *clk, int quick);

/* Ticks per ns of `ticks` against `ns` (clock_gettime, in lab_clock_init): the smallest rate
 * over `windows` windows of window_ns each (the clocks are parameters so that a test can
 * simulate a preemption at any read). */
double lab_calibrate_ticks_per_ns(double (*ns)(void), uint64_t (*ticks)(void), double window_ns,
                                  int windows);

/* Pin the calling thread to `cpu`; returns 0 or -1 with errno. */
int lab_pin_cpu(int cpu);
/* The CPU to pin to without --cpu: the last one this process may run on (the last online CPU,
 * or the last of the set taskset or a cpuset gave it) of the fastest kind of core (bench/
 * core_kind.c: a P-core on an Intel hybrid part, the largest capacity on Arm big.LITTLE). */
int lab_default_cpu(void);
/* The same from the CPUs with allowed[cpu] set (cpu < n), the kinds read under `sysfs`
 * ("/sys"); -1 when none is allowed. */
int lab_default_cpu_in(const char *sysfs, const unsigned char *allowed, int n);
/* Whether `cpu` is in a kernel CPU list ("0-7,16,18-19"). */
int lab_cpulist_has(const char *list, int cpu);
/* The kind of core `cpu` is, in words ("a P-core", "an E-core, not the fastest kind here",
 * "capacity 512 of 1024, ..."), or "" on a machine with one kind (`cpus`: CPUs online). */
void lab_core_kind(const char *sysfs, int cpu, int cpus, char *kind, size_t size);

/* Optional hardware counters around a batch: instructions, branches, branch-misses. */
struct lab_counters {
    int fd[3];
    uint64_t instructions, branches, branch_misses;
};
void lab_counters_open(struct lab_counters *c);  /* fds = -1 when unavailable */
void lab_counters_start(struct lab_counters *c);
void lab_counters_stop(struct lab_counters *c);  /* accumulates into the totals */
void lab_counters_close(struct lab_counters *c);

/* ---- load: is anything else running on the lab's CPU? (bench/load.c) --------------------- */

struct lab_load {
    int schedstat;          /* /proc/thread-self/schedstat readable */
    double wait_ns;         /* time spent runnable but waiting for the CPU since the start */
    int steal_known;        /* /proc/stat gives the CPU's steal time */
    double steal_ns;        /* time the hypervisor ran something else on the CPU since the start */
    double elapsed_ns;
    long batches, preempted;/* timed batches, and those with an involuntary context switch */
    double others_running;  /* other runnable tasks in the machine at the start (average) */
    double loadavg1;
    int busy;               /* waited or stolen > 1 % of the time, or > 5 % of batches preempted */
};
int lab_load_busy(const struct lab_load *l);
enum { LAB_LOAD_TEXT_MAX = 400 }; /* lab_load_describe's text, with room to spare */
/* The steal time of CPU `cpu` in a /proc/stat (clock ticks, USER_HZ), or -1 without one. */
int64_t lab_proc_stat_steal(FILE *f, int cpu);
/* The steal time between two readings of it (clock ticks, `hz` a second) in ns: 0 when either
 * is unknown (-1) or the count went back. */
double lab_steal_ns(int64_t at_start, int64_t now, long hz);
void lab_load_begin(void);
void lab_load_count_batch(int preempted);
long lab_involuntary_switches(void);
const struct lab_load *lab_load_now(void); /* the totals so far */
void lab_load_describe(const struct lab_load *l, char *buf, size_t size);

/* A clean-up on the signals that end a run (Ctrl-C, kill, a closed terminal or pipe): `handler`
 * for each of signals[0..n) that this process does not ignore (nohup's SIGHUP, a background
 * job's SIGINT stay ignored: a run they would not have ended goes on), with all n blocked
 * while it runs; the replaced actions into old[], caught[k] = 1 where installed. The handler
 * cleans up, then dies of the signal (or passes it to the action it replaced). */
struct sigaction;
void lab_catch_signals(void (*handler)(int), const int *signals, int n, struct sigaction *old,
                       int *caught);
void lab_restore_signals(const int *signals, int n, const struct sigaction *old, const int *caught);

/* An option value that cannot be used, found late (e.g. -c against a measured call time):
 * the message on stderr, and exit status 2, before any timed batch of that measurement. */
void lab_refuse_option(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A table that could not run (allocation failed): noted, and the run exits with status 1. */
void lab_fail(const char *table, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A subject disagreed with the oracle and gets no number. A peer's wrong sum is a note (its
 * project's own limit, such as DPDK's 32-bit accumulator on large buffers); libcsum's is a
 * bug, reported on stderr too, and the run exits 1. */
void lab_wrong_sum(const char *table, int peer, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int lab_failed(void);

/* ---- options ------------------------------------------------------------------------------ */

enum lab_mode {
    MODE_LATENCY = 1,    /* each call's result is the next call's `sum` */
    MODE_THROUGHPUT = 2, /* independent calls; results sunk through an empty asm */
    MODE_FENCED = 4,     /* lfence (x86) / isb (arm64) on both sides of every call */
};

struct lab_options {
    int cpu;               /* pinned CPU */
    int quick;             /* fewer batches and cases */
    int batches;           /* timed batches per measurement */
    double batch_ms;       /* minimum duration of one batch */
    unsigned modes;        /* MODE_* wanted (0 = each table's default) */
    long len, align;       /* -l / -a: restrict cases (-1 = all) */
    long dst_align;        /* --dst-align: the copy table's destination offset (-1 = as -a) */
    long count;            /* -c: fixed calls per batch, or iterations for distributions */
    int interleave;        /* -I: thrash interleaved only */
    int zero_sum;          /* h40 --zero-sum */
    int busy;              /* copy --busy */
    const char *only_impls;/* -M list, comma-separated (NULL = all) */
    const char *baseline;  /* --baseline */
    const char *out_dir;   /* --out: write report.md, results.json, results.csv there */
    int json, csv;         /* --json / --csv to stdout instead of the text tables */
    double noise_limit;    /* p10-p90 spread, as a fraction of the median, above which a
                              measurement is repeated and then flagged (0: LAB_NOISE_LIMIT) */
    int repeats;           /* extra attempts for a noisy measurement (0: none) */
};

/* Default noise threshold: a result whose p10-p90 spread over its batches exceeds 10 % of its
 * median is measured again (up to o->repeats times) and flagged if it stays that wide. */
#define LAB_NOISE_LIMIT 0.10

/* Bounds of the numeric options (documented in `csum bench --help` and docs/METHOD.md). */
#define LAB_MAX_LEN ((long)1 << 30)        /* -l: 0 .. 1 GiB */
#define LAB_MAX_COUNT 1000000000L          /* -c: 1 .. 10^9 calls per batch / iterations */
#define LAB_MAX_MEASURE_SECONDS 60.0       /* -c: one measurement's timed batches, at most */

/* ---- subjects: what is timed (bench/subjects.c) ------------------------------------------ */

struct lab_subject {
    const char *name;
    const char *origin;   /* one line: where it comes from */
    csum_partial_fn fn;
    const char *flags;    /* how it was compiled (the report lists every subject's flags) */
    const char *needs;    /* peers: extensions its object may use (peer_needs.h); else NULL */
    int peer;             /* from another project (DPDK): its wrong sums are its own limits */
    const char *limit;    /* peers: the limit behind their wrong sums, said with a refusal */
    int refused;          /* the CPU lacks what it needs, or it failed the oracle self-check */
    char why[160];        /* which, when refused */
};

/* Every supported table row, then "csum_partial" (the public entry, through dispatch), then
 * peers (DPDK when built in); filtered by -M; each self-checked against the oracle first. */
size_t lab_subjects(const struct lab_options *o, struct lab_subject **out);

/* Fill in a subject and run the oracle self-check on it (refused = 1 and why = ... on failure). */
void lab_subject_init(struct lab_subject *s, const char *name, const char *origin,
                      csum_partial_fn fn);

/* How many of the extensions in `needs` (" sse4.1 avx2 ...", peer_needs.h) this CPU lacks;
 * their names go to `missing`. A name the lab cannot check counts as lacking. */
size_t lab_cpu_lacks(const char *needs, char *missing, size_t size);

/* Whether -M (and --baseline) let `name` be measured. */
int lab_wanted(const struct lab_options *o, const char *name);
/* Room for any name a -M list may hold (a subject, a row, a peer), its '\0' included. */
enum { LAB_NAME_SIZE = 64 };
/* A comma-separated list of names (-M): the name at `p` copied into name[size] (cut to fit),
 * and where the next one starts; NULL at the end of the list (p NULL or empty). */
const char *lab_list_next(const char *p, char *name, size_t size);
/* The faults of a -M list as a list, for `csum bench` and `csum tune` (`command`) alike: an
 * empty name ('-M generic,' dropped its empty last name without a word, '-M ,' was "unknown
 * implementation ''"), a name longer than any (said whole, not cut to LAB_NAME_SIZE), a name
 * given twice ('-M mine,mine' for 'mine,linux-6.8' timed one subject, and short showed no
 * ratio). 0, or -1 after saying which on stderr. What each name means is the caller's. */
int lab_list_refuse(const char *command, const char *list);
/* Whether `name` is one of the names in list[0..len) (len ends the list or falls after a comma). */
int lab_list_has(const char *list, size_t len, const char *name);

/* Find a subject by name in the list (NULL if absent). */
struct lab_subject *lab_subject_find(struct lab_subject *s, size_t n, const char *name);

/* The oracle's answers for one case (computed once, compared with every subject). */
struct lab_expect {
    uint16_t want[2]; /* checksums with initial sums 0 and 0xffffffff */
};
void lab_expect_case(const unsigned char *p, size_t len, struct lab_expect *e);

/* Check `fn` on this exact buffer against the oracle (e: precomputed answers, or NULL to
 * compute them now); 0 if it agrees. */
int lab_check_case(csum_partial_fn fn, const unsigned char *p, size_t len,
                   const struct lab_expect *e);

/* Compiler, build type and flags of the library (rows, csum_partial) and of the lab. */
const char *lab_build_compiler(void);
const char *lab_build_source(void); /* "git <describe --dirty>", or why there is none */
const char *lab_build_type(void);
const char *lab_build_lib_flags(void);
const char *lab_build_isa_flags(void);

/* Record that `impl` was refused for one case (plots mark refused ranges). */
void lab_refusal_add(const char *table, const char *impl, enum lab_mode mode, size_t len);
int lab_was_refused(const char *table, const char *impl, const char *mode, size_t len);

/* Peers compiled in (bench/peer_*.c); NULL-terminated. */
extern const struct lab_subject *const lab_peers[];

/* ---- other subjects: copy+checksum, memory operations, scatter-gather (bench/registry.c) -----
 * Each list is NULL-terminated and built once by lab_registry_init() (copy subjects come from
 * the library's copy table, so they are only known at run time); a table whose list is empty
 * says "not available yet". */

struct iovec;

struct lab_copy_subject { /* fused copy + checksum, csum_partial_copy's signature */
    const char *name, *origin;
    csum_wsum (*fn)(void *dst, const void *src, size_t len, csum_wsum sum);
};
enum { LAB_COPY_SUBJECTS_MAX = 32 };
extern const struct lab_copy_subject *lab_copy_subjects[]; /* at most LAB_COPY_SUBJECTS_MAX */

enum lab_memop_kind { MEMOP_ZERO, MEMOP_COPY, MEMOP_CSUM_COPY };
struct lab_memop { /* zeroing (src ignored), copying, or copying with the checksum (fused) */
    const char *name, *origin;
    enum lab_memop_kind kind;
    void (*fn)(void *dst, const void *src, size_t len);          /* MEMOP_ZERO, MEMOP_COPY */
    csum_wsum (*fused)(void *dst, const void *src, size_t len, csum_wsum sum); /* CSUM_COPY */
};
extern const struct lab_memop *lab_memops[];

struct lab_iov_subject { /* checksum of the concatenation of the segments */
    const char *name, *origin;
    csum_wsum (*fn)(const struct iovec *iov, size_t n, csum_wsum sum);
};
extern const struct lab_iov_subject *lab_iov_subjects[];

/* Whether a memory operation did exactly its job on these buffers before it is timed (a wrong
 * one gets no number): zeroed [dst, dst + len), copied src there, or, for a fused copy, copied
 * it and returned the checksum `want` (the oracle's over src with an initial sum of 0, in
 * network order; computed once per buffer by the caller). Overwrites dst first. */
int lab_memop_is_correct(const struct lab_memop *op, unsigned char *dst, const unsigned char *src,
                         size_t len, uint16_t want);

/* Build the three lists (idempotent; lab_main calls it first). */
void lab_registry_init(void);

/* The memory operations of one kind this CPU runs, in table order (bench/memops.c, and
 * bench/memops_vector.c for the vector ones); returns how many were written to out. */
size_t lab_memops_collect(enum lab_memop_kind kind, const struct lab_memop **out, size_t cap);
size_t lab_memops_vector_collect(enum lab_memop_kind kind, const struct lab_memop **out, size_t cap);

/* A thread on another CPU streaming 128 MiB copies to thrash the caches (copy --busy). */
int lab_busy_start(int avoid_cpu);
void lab_busy_stop(void);

/* ---- measuring (bench/measure.c) ---------------------------------------------------------- */

/* Run `iters` operations of a prepared case and return something to sink. The loop lives in
 * the body so the only per-operation overhead is the call under test. */
typedef uint64_t (*lab_body_fn)(const void *ctx, uint64_t iters);

struct lab_stats {
    double ticks_min, ticks_median; /* per operation */
    double ticks_p10, ticks_p90;    /* spread over the batches (per operation) */
    double spread;                  /* (p90 - p10) / median */
    int batches;                    /* timed batches behind these numbers */
    int preempted;                  /* of those, batches during which the thread was switched
                                       out (involuntary context switches: a busy CPU) */
    int attempts;                   /* 1, or more when a noisy measurement was repeated */
    unsigned group;                 /* the measurement's number: subjects timed together,
                                       interleaved (lab_measure_group), share it */
    int noisy;                      /* spread still above the limit after the repeats */
    double ns_min, ns_median;
    double cycles_est_median;       /* core cycles: ticks_median x the clock's cycles per tick
                                       (from perf or the add chain), an estimate either way */
    double instructions, branch_misses; /* per operation; < 0 when unavailable */
    uint64_t iters;                 /* operations per batch */
};

/* Warm up, size batches to >= batch_ms, time o->batches batches; per-operation statistics.
 * A measurement whose spread exceeds the noise limit is repeated (o->repeats times at most),
 * the attempt with the smallest spread kept, and flagged noisy if even that one is too wide. */
void lab_measure(const struct lab_options *o, const struct lab_clock *clk, lab_body_fn body,
                 const void *ctx, struct lab_stats *st);

/* Test seam, NULL in every run of the lab: when a test sets it, each timed batch's
 * per-operation ticks are its answer for the subject's ctx rather than the clock's, so that
 * attempts get known spreads (which attempt a group keeps cannot be tested on a real clock).
 * Read once a batch, after the batch is timed: it costs a normal run nothing measurable. */
extern double (*lab_test_batch_ticks)(const void *ctx);

/* At most this many subjects measured together by lab_measure_group. */
enum { LAB_GROUP_MAX = 8 };

/* lab_measure for m (<= LAB_GROUP_MAX) subjects at once: each warmed up and sized alone, then
 * their batches interleaved round by round, so that they share the machine's slow phases. */
void lab_measure_group(const struct lab_options *o, const struct lab_clock *clk, int m,
                       const lab_body_fn body[], const void *const ctx[], struct lab_stats st[]);

/* The statistics of `n` per-operation batch times (sorts v). */
void lab_stats_from_batches(double *v, int n, struct lab_stats *st);

/* Quantile q (0..1) of sorted v[0..n-1], n > 0, interpolated between the two nearest values:
 * q = 0.5 is the median, the mean of the two middle values when n is even. Every median and
 * percentile the lab reports comes from here. */
double lab_quantile(const double *v, size_t n, double q);

/* Per-operation timing of `n` single calls (rdtsc around each): a latency distribution. */
struct lab_distribution {
    double min, max, avg, p50, p99, p999; /* ns */
};

/* The distribution of `n` > 0 single-call times v (ns; sorts v). */
void lab_distribution_from(double *v, size_t n, struct lab_distribution *d);

/* Operation i of a prepared case, timed alone by lab_distribution. */
typedef void (*lab_single_fn)(const void *ctx, uint64_t i);

/* The distribution of `n` calls of `one`: 0, or -1 when the n times cannot be held (d is then
 * left alone: no figure is made up). */
int lab_distribution(const struct lab_clock *clk, lab_single_fn one, const void *ctx, uint64_t n,
                     struct lab_distribution *d);

/* lfence (x86) / isb (arm64): the "fenced" mode's barrier around a call. */
static inline void lab_fence(void)
{
#if defined(__x86_64__)
    __asm__ volatile("lfence" ::: "memory");
#elif defined(__aarch64__)
    __asm__ volatile("isb" ::: "memory");
#endif
}

/* A csum_partial case: the standard latency/throughput/fenced bodies work on it. */
struct lab_csum_case {
    csum_partial_fn fn;
    const unsigned char *p;
    size_t len;
    csum_wsum sum; /* initial sum (throughput and fenced modes) */
};
lab_body_fn lab_csum_body(enum lab_mode mode);

/* Buffers: 64-byte aligned (page aligned above 4 KiB), filled with aperiodic bytes. */
unsigned char *lab_buffer(size_t len);
void lab_buffer_free(unsigned char *p, size_t len);

/* ---- results (bench/results.c) ------------------------------------------------------------ */

struct lab_result {
    char table[16];
    char impl[40];
    char variant[48];   /* table-specific: "even", "interleaved", "busy", "roofline", ... */
    char mode[16];      /* "latency", "throughput", "fenced" */
    size_t len, align;
    struct lab_stats st;
    double bytes_per_tick, gbps, roofline_pct; /* < 0 when not applicable */
    struct lab_distribution dist;              /* for distribution rows (ns); else zeros */
    int has_dist;
};

struct lab_result *lab_result_add(const char *table, const char *impl, const char *variant,
                                  enum lab_mode mode, size_t len, size_t align,
                                  const struct lab_stats *st);
size_t lab_result_count(void);
struct lab_result *lab_result_get(size_t i);
const char *lab_mode_name(enum lab_mode mode);

/* How the tables print a ratio and a % Improv, so that a word never contradicts the digits:
 * after a ratio (a's median over b's) that prints above 1.00 with two decimals, never after a
 * "1.00", " slower" when a's batches were all but slower than b's (a's p10 above b's p90),
 * else " (within spread)": a ratio the batches' spread can explain is no verdict; and
 * (old - new) / old as a whole percent, never "-0". lab_improv_range gives the % Improv the
 * batches' spread allows, from the worst pairing (new's p90 against old's p10) to the best
 * (new's p10 against old's p90), in the same whole percents; -1 (no range) when old's p10 is
 * 0 ticks, a percentage of nothing. */
const char *lab_ratio_word(double ratio, const struct lab_stats *a, const struct lab_stats *b);
long lab_improv_pct(double old_ns, double new_ns);
int lab_improv_range(const struct lab_stats *old_st, const struct lab_stats *new_st, long *lo,
                     long *hi);

/* Notes attached to a table (refusals, "not available yet", findings): kept for the JSON and
 * printed by lab_flush_notes() once the table is complete. */
void lab_note(const char *table, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lab_flush_notes(void);

void lab_write_json(FILE *f, const struct lab_options *o, const struct lab_clock *clk);
void lab_write_csv(FILE *f, const struct lab_options *o, const struct lab_clock *clk);
void lab_write_report(FILE *f, const struct lab_options *o, const struct lab_clock *clk,
                      const char *tables_text);

/* The summary (bench/summary.c): csum_partial against linux-6.8 and every peer at the
 * headline lengths, both modes, with ratios; and the targets a speed change is judged by
 * (short lengths, fused copy vs memcpy, batch vs loop). Markdown for the report, an object for
 * the JSON. `tick` names the clock's unit (struct lab_clock's tick_name: "TSC ticks", "CNTVCT
 * ticks" or "ns"). */
void lab_write_summary_md(FILE *f, const char *tick);
void lab_write_summary_json(FILE *f);

/* The machine and method descriptions shared by the JSON and the report (bench/machine.c). */
struct lab_machine {
    char cpu[160], host[64], kernel[128], compiler[96], date[32];
    char vendor[32];
    int family, model;        /* -1 when unknown */
    char features[160];       /* the vector/carry features that matter here, as the CPU says */
    char dispatch[160];       /* csum_partial's plan (which row, hence which ISA, per length) */
    char dispatch_source[4096 + 600]; /* as long as the library's (src/dispatch.c): uncut */
    char copy_dispatch[160], copy_source[512];   /* csum_partial_copy's plan, by length */
    char batch_dispatch[96], batch_source[512];  /* csum_ipv4_header_batch's, by count */
    int cpus, pinned_cpu;
    char core_kind[64];       /* lab_core_kind of the pinned CPU: "" with one kind of core */
    long l1d, l2, l3; /* bytes, 0 when unknown (the pinned CPU's) */
};
void lab_machine_describe(struct lab_machine *m, const struct lab_options *o);
/* "CPU 7", or "CPU 7 (a P-core)" on a machine with two kinds of core: what a run is pinned to. */
const char *lab_pinned_text(const struct lab_machine *m);
/* The CPU part of it (cpu, vendor, family, model), from a /proc/cpuinfo stream (NULL: unknown). */
void lab_machine_cpu(struct lab_machine *m, FILE *cpuinfo);
void lab_record_subjects(const struct lab_subject *s, size_t n); /* listed in JSON and report */
/* The command line of the run (argv from "bench" on), for the JSON and the report: a run is
 * reproduced by its options as much as by its machine. */
void lab_record_command(int argc, char **argv);
extern const char *const lab_method_lines[];

/* ---- tables (bench/table_*.c) --------------------------------------------------------------- */

struct lab_env {
    const struct lab_options *o;
    const struct lab_clock *clk;
    struct lab_subject *subjects;
    size_t n_subjects;
    struct lab_machine machine;
};

/* How wide a table prints a subject's name: at least `min`, and never cut, so that a row added
 * under a longer name (linux-6.8-mine, *Evaluating a change*) keeps its columns apart and under
 * their headers. lab_col_width for one column; lab_name_width for a first column that names
 * every subject the env still times. */
int lab_col_width(const char *name, int min);
int lab_name_width(const struct lab_env *env, int min);

typedef void (*lab_table_fn)(const struct lab_env *env);
void table_lenalign(const struct lab_env *env);
size_t table_lenalign_cases(long len, long align); /* rows left by -l/-a (-1: any) */
void table_thrash(const struct lab_env *env);
/* thrash's schedule: calls per pass. Its batches are whole passes, so its -c must be a
 * multiple of this (lab.c refuses any other count before anything runs). */
enum { LAB_THRASH_SCHEDULE = 1 << 20 };
void table_mixed(const struct lab_env *env);
void table_sizes(const struct lab_env *env);
void table_short(const struct lab_env *env);
void table_h40(const struct lab_env *env);
void table_copy(const struct lab_env *env);
void table_memops(const struct lab_env *env);
void table_iov(const struct lab_env *env);
void table_batch(const struct lab_env *env);
void table_pcap(const struct lab_env *env);
/* Whether CSUM_BENCH_PCAP_SIZES, _RUNS and _LIMIT hold what the pcap table takes: 0, or -1 and
 * `why`. */
int table_pcap_check_settings(int quick, char *why, size_t size);

/* van de Ven 2021's 40-byte-only steps (bench/h40_kernels.c), NULL-terminated; empty off x86. */
struct lab_h40_kernel {
    const char *name, *step;
    csum_partial_fn fn; /* valid for len == 40 only */
    int zero_sum_only;  /* valid for an initial sum of 0 only */
    const char *seed;   /* where the initial sum enters: "first" (start of the chain), "last"
                           (the final fold) or "none" */
};
extern const struct lab_h40_kernel lab_h40_kernels[];

/* Roofline: the same loads as a checksum, no arithmetic (bench/roofline.c). Returns the
 * widest variant this CPU runs, and its name. */
csum_partial_fn lab_roofline(const char **name);
#define LAB_ROOFLINE_MIN_LEN 256

/* Formatting helpers for the text tables. */
void lab_table_title(const struct lab_env *env, const char *title, const char *what);

/* Time one csum_partial subject on one case in one mode and record the result; the subject is
 * first checked against the oracle on this exact buffer. NULL when refused (a note says why). */
struct lab_result *lab_time_csum(const struct lab_env *env, const struct lab_subject *s,
                                 const char *table, const char *variant, enum lab_mode mode,
                                 const unsigned char *p, size_t len, csum_wsum sum,
                                 const struct lab_expect *e);

/* lab_time_csum for m subjects on the same case, timed together (lab_measure_group): out[j]
 * is subject j's result, NULL when refused. Returns how many were timed. */
int lab_time_csum_group(const struct lab_env *env, const struct lab_subject *const subj[], int m,
                        const char *table, const char *variant, enum lab_mode mode,
                        const unsigned char *p, size_t len, csum_wsum sum,
                        const struct lab_expect *e, struct lab_result *out[]);

/* Two subjects a table compares (a ratio, a % Improv) on one case: timed together, their
 * batches interleaved, while every other subject of the table is timed alone. */
struct lab_pair {
    const struct lab_subject *s[2]; /* NULL, refused or the same twice: none timed together */
    const char *table, *variant;
    enum lab_mode mode;
    const unsigned char *p;
    size_t len;
    csum_wsum sum;
    const struct lab_expect *e;
    int timed, ok[2];          /* set by lab_pair_time: ok[j] 0 when s[j] was refused */
    struct lab_stats st[2];
};

/* Time the pair on its case (lab_time_csum_group) and keep both subjects' stats. */
void lab_pair_time(const struct lab_env *env, struct lab_pair *pair);

/* Subject s on the pair's case into *st: the pair's stats when s is one of it, else timed alone
 * now (lab_time_csum). -1 when refused. */
int lab_pair_stats(const struct lab_env *env, const struct lab_pair *pair,
                   const struct lab_subject *s, struct lab_stats *st);

/*
 * How far (a multiple of 64 bytes) a timed loop that stores should move its stack down, from
 * `frame`, so that the LAB_STACK_HOT bytes below it (return addresses, saved registers, the
 * callees' frames) share no page offset with the first `len` bytes of a or b: a load with the
 * low 12 bits of a store still in flight waits for it as if they overlapped (4K aliasing), so
 * a copy's time otherwise depended on where the stack happened to lie. 0 when the buffers
 * leave no room (from about 2.9 KiB), where the aliasing is part of the copy anyway.
 */
enum { LAB_PAGE = 4096, LAB_STACK_HOT = 768 };
size_t lab_stack_shift(const void *frame, const unsigned char *a, const unsigned char *b,
                       size_t len);

/* loop(ctx, iters) on a stack moved down by lab_stack_shift for buffers a and b: what every
 * timed body of the csum_partial, copy and h40 tables runs in. */
uint64_t lab_off_stack(const unsigned char *a, const unsigned char *b, size_t len,
                       lab_body_fn loop, const void *ctx, uint64_t iters);

/* The modes a table runs: what the user asked for, else the table's default. */
unsigned lab_modes(const struct lab_env *env, unsigned table_default);

#endif /* CSUM_LAB_H */
