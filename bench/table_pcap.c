/*
 * pcap: how fast `csum pcap verify` checks a capture, against the tools people use for it.
 *
 * Bulk captures (Ethernet, IPv4/IPv6, TCP/UDP/ICMP, mostly full-size packets, every checksum
 * correct; tools/pcapgen, checksums from the oracle) are written to temporary files of
 * 100 MB and 1 GB (16 MB with --quick; CSUM_BENCH_PCAP_SIZES=100M,1G,... chooses others).
 * Each file is read once to put it in the page cache, then each command runs on it
 * CSUM_BENCH_PCAP_RUNS times (3; 1 with --quick; once when a run takes over 30 s; stopped
 * after CSUM_BENCH_PCAP_LIMIT seconds, 300, and shown as a bound), its output to /dev/null:
 *   csum pcap verify FILE                      (this very csum binary)
 *   tshark -n -r FILE -o {ip,tcp,udp}.check_checksum:TRUE -Y '<any checksum status bad>'
 *                                              (ICMP/ICMPv6 are always checked by tshark)
 *   tcpdump -vv -n -r FILE                     (verifies IP, TCP and UDP checksums)
 * Wall-clock time of the whole process (fork to exit), median and minimum, as GB/s of
 * capture and packets/s, and the process's maximum resident set (getrusage): csum streams,
 * so its RSS must stay flat as the file grows. The peers run where installed.
 *
 * A first row keeps the in-memory figure: csum_pcap_verify_buffer on a capture already in
 * memory, timed by lab_measure like every other table.
 */
#define _GNU_SOURCE
#include "lab.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "csum_pcap.h"
#include "pcapgen.h"

enum { MAX_SIZES = 8, MAX_RUNS = 15, DEFAULT_LIMIT_S = 300 };

/* ---- in memory ------------------------------------------------------------------------------- */

struct pcap_ctx {
    const unsigned char *data;
    size_t len;
    struct csum_pcap_summary summary;
};

static uint64_t body_verify(const void *vctx, uint64_t iters)
{
    struct pcap_ctx *c = (struct pcap_ctx *)vctx;
    for (uint64_t i = 0; i < iters; i++)
        if (csum_pcap_verify_buffer(c->data, c->len, NULL, &c->summary, NULL) != 0)
            return 0;
    return c->summary.packets;
}

static uint64_t bad_total(const struct csum_pcap_summary *s)
{
    uint64_t bad = 0;
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++)
        bad += s->count[l][CSUM_PCAP_BAD];
    return bad;
}

static unsigned char *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = n > 0 ? lab_buffer((size_t)n) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        lab_buffer_free(data, (size_t)n);
        data = NULL;
    }
    fclose(f);
    *len = data ? (size_t)n : 0;
    return data;
}

static void in_memory(const struct lab_env *env, const char *path, uint64_t bytes)
{
    if (write_bulk(path, bytes, 0x9c4) != 0)
        return;
    size_t len = 0;
    unsigned char *data = load(path, &len);
    unlink(path);
    if (!data) {
        lab_note("pcap", "cannot load the in-memory capture");
        return;
    }
    struct pcap_ctx c = { data, len, { 0 } };
    struct csum_pcap_error err;
    if (csum_pcap_verify_buffer(data, len, NULL, &c.summary, &err) != 0) {
        lab_wrong_sum("pcap", 0, "the generated capture does not parse (offset %llu: %s): refused",
                      (unsigned long long)err.offset, err.message);
    } else if (bad_total(&c.summary)) {
        lab_wrong_sum("pcap", 0, "%llu checksums reported bad in a clean capture: refused",
                      (unsigned long long)bad_total(&c.summary));
    } else {
        struct lab_stats st;
        lab_measure(env->o, env->clk, body_verify, &c, &st);
        lab_result_add("pcap", "csum_pcap_verify_buffer", "in memory", MODE_THROUGHPUT, len, 0, &st);
        lab_out("%-24s %-9s %10.1f MB %10llu pkts %8.3f%1s s %8.2f GB/s %8.2f Mpkt/s\n",
                "csum_pcap_verify_buffer", "memory", (double)len / 1e6,
                (unsigned long long)c.summary.packets, st.ns_median / 1e9, st.noisy ? "*" : "",
                (double)len / st.ns_median, (double)c.summary.packets / st.ns_median * 1e3);
    }
    lab_buffer_free(data, len);
}

/* ---- commands on files ----------------------------------------------------------------------- */

struct run {
    double seconds;
    long maxrss_kib;
    int status;  /* exit status, or 128 + signal */
    int stopped; /* killed at the time limit */
};

static void on_alarm(int sig)
{
    (void)sig; /* only to interrupt wait4 */
}

/* Run argv with stdout and stderr on /dev/null; wall time from fork to reaping. A run still
 * going after `limit` seconds is killed and marked stopped: SIGALRM, installed without
 * SA_RESTART, interrupts the wait (no polling, which would add its period to every time). */
static int run_timed(char *const argv[], unsigned limit, struct run *r)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    alarm(limit);
    int status, rc;
    struct rusage ru;
    r->stopped = 0;
    while ((rc = (int)wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR) {
        kill(pid, SIGKILL);
        r->stopped = 1;
    }
    alarm(0);
    sigaction(SIGALRM, &old, NULL);
    if (rc < 0)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    r->maxrss_kib = ru.ru_maxrss;
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return 0;
}

static int by_seconds(const void *a, const void *b)
{
    const double x = ((const struct run *)a)->seconds, y = ((const struct run *)b)->seconds;
    return (x > y) - (x < y);
}

/* Read the file once so that every command finds it in the page cache. */
static void warm(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    static char buf[1 << 20];
    while (read(fd, buf, sizeof buf) > 0)
        ;
    close(fd);
}

/* A list such as 100M,1G (bytes; k, M, G: powers of 1000, as GB/s is) into sizes[]: how many,
 * or 0 when it is not such a list (more than MAX_SIZES included). */
static int parse_sizes(const char *s, uint64_t *sizes)
{
    int n = 0;
    while (*s) {
        if (n == MAX_SIZES)
            return 0;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || end == s || *s == '-')
            return 0;
        uint64_t unit = 1;
        if (*end == 'k' || *end == 'K')
            unit = 1000, end++;
        else if (*end == 'M')
            unit = 1000000, end++;
        else if (*end == 'G')
            unit = 1000000000, end++;
        if (v == 0 || v > (64ull << 30) / unit || (*end && *end != ','))
            return 0;
        sizes[n++] = v * unit;
        s = *end ? end + 1 : end;
    }
    return n;
}

/* What the environment asks of this table, or the defaults. */
struct pcap_settings {
    uint64_t sizes[MAX_SIZES];
    int n_sizes, runs;
    long limit;
};

/* 0, or -1 with `why` saying which variable holds what (the lab refuses it before any table
 * runs, as it refuses an option: a value dropped for a default would time something else). */
static int pcap_settings(int quick, struct pcap_settings *s, char *why, size_t size)
{
    const char *spec = getenv("CSUM_BENCH_PCAP_SIZES");
    s->n_sizes = parse_sizes(spec && *spec ? spec : quick ? "16M" : "100M,1G", s->sizes);
    if (s->n_sizes == 0) {
        snprintf(why, size, "CSUM_BENCH_PCAP_SIZES takes up to %d sizes such as 100M,1G (bytes, "
                 "or k, M, G of them; at most 64 GiB each), not '%s'", MAX_SIZES, spec);
        return -1;
    }
    const char *runs = getenv("CSUM_BENCH_PCAP_RUNS");
    const char *limit = getenv("CSUM_BENCH_PCAP_LIMIT");
    char *end;
    s->runs = quick ? 1 : 3;
    if (runs && *runs) {
        errno = 0;
        const long v = strtol(runs, &end, 10);
        if (errno || *end || v < 1 || v > MAX_RUNS) {
            snprintf(why, size, "CSUM_BENCH_PCAP_RUNS takes a number of runs from 1 to %d, not "
                     "'%s'", MAX_RUNS, runs);
            return -1;
        }
        s->runs = (int)v;
    }
    s->limit = DEFAULT_LIMIT_S;
    if (limit && *limit) {
        errno = 0;
        s->limit = strtol(limit, &end, 10);
        if (errno || *end || s->limit < 1 || s->limit > 86400) {
            snprintf(why, size, "CSUM_BENCH_PCAP_LIMIT takes seconds from 1 to 86400, not '%s'",
                     limit);
            return -1;
        }
    }
    return 0;
}

int table_pcap_check_settings(int quick, char *why, size_t size)
{
    struct pcap_settings s;
    return pcap_settings(quick, &s, why, size);
}

struct tool {
    const char *name;
    char *argv[24];
    int file_arg; /* where the file name goes in argv */
};

static void time_tools(const struct lab_env *env, const char *path, uint64_t bytes, int runs,
                       unsigned limit, double *csum_maxrss_mib)
{
    /* What was written, and that csum itself finds it clean. */
    struct csum_pcap_summary s;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || csum_pcap_verify_fd(fd, NULL, &s, NULL) != 0 || bad_total(&s)) {
        if (fd >= 0)
            close(fd);
        lab_note("pcap", "the %.0f MB capture does not verify clean: refused", bytes / 1e6);
        return;
    }
    close(fd);
    const uint64_t len = s.bytes;
    warm(path);

    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    static const char *filter = "ip.checksum.status==0 || tcp.checksum.status==0 || "
                                "udp.checksum.status==0 || icmp.checksum.status==0 || "
                                "icmpv6.checksum.status==0";
    struct tool tools[] = {
        { "csum pcap verify", { self, "pcap", "verify", NULL }, 3 },
        { "tshark", { "tshark", "-n", "-o", "ip.check_checksum:TRUE", "-o",
                      "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE", "-Y",
                      (char *)filter, "-r", NULL }, 11 },
        { "tcpdump -vv", { "tcpdump", "-vv", "-n", "-r", NULL }, 4 },
    };
    double csum_median = 0;
    for (size_t t = 0; t < sizeof tools / sizeof tools[0]; t++) {
        struct tool *tool = &tools[t];
        tool->argv[tool->file_arg] = (char *)path;
        tool->argv[tool->file_arg + 1] = NULL;
        struct run r[MAX_RUNS] = { { 0 } };
        int ok = 1, done = 0;
        /* A run of more than 30 s is not repeated: its noise is small beside it, and a tool
         * that slows down with the file's size (tcpdump -vv measured 0.08 GB/s at 100 MB and
         * 0.002 GB/s at 1 GB here) would otherwise hold the lab for half an hour. */
        for (; done < runs && ok && (done == 0 || r[done - 1].seconds < 30); done++)
            ok = run_timed(tool->argv, limit, &r[done]) == 0 && r[done].status == 0;
        if (done && r[done - 1].stopped) {
            /* What is known is a bound: no time to put in the results or the plot. */
            lab_note("pcap", "%s stopped after %u s on the %.0f MB capture "
                     "(CSUM_BENCH_PCAP_LIMIT): not timed", tool->name, limit, bytes / 1e6);
            char bound[32], rate[32];
            snprintf(bound, sizeof bound, "> %u", limit);
            snprintf(rate, sizeof rate, "< %.3f", (double)len / 1e9 / limit);
            lab_out("%-24s %-9s %10.1f MB %10llu pkts %9s s %8s GB/s", tool->name, "file",
                    (double)len / 1e6, (unsigned long long)s.packets, bound, rate);
            if (csum_median > 0)
                lab_out("  csum > %.0fx faster", limit / csum_median);
            lab_out("\n");
            continue;
        }
        static int noted[3];
        if (!ok && r[0].status == 127) { /* exec failed: not installed */
            if (!noted[t]++)
                lab_note("pcap", "%s not installed: not compared", tool->argv[0]);
            continue;
        }
        if (!ok) {
            lab_note("pcap", "%s failed on the %.0f MB capture: not timed", tool->name, bytes / 1e6);
            continue;
        }
        if (done < runs)
            lab_note("pcap", "%s took %.0f s on the %.0f MB capture: timed once", tool->name,
                     r[0].seconds, bytes / 1e6);
        qsort(r, (size_t)done, sizeof r[0], by_seconds);
        long maxrss = 0;
        double seconds[MAX_RUNS];
        for (int i = 0; i < done; i++) {
            maxrss = r[i].maxrss_kib > maxrss ? r[i].maxrss_kib : maxrss;
            seconds[i] = r[i].seconds;
        }
        /* The lab's median: of an even number of runs, the mean of the middle two. */
        const double median = lab_quantile(seconds, (size_t)done, 0.5);
        if (t == 0) {
            csum_median = median;
            *csum_maxrss_mib = maxrss / 1024.0;
        }
        struct lab_stats st = { 0 };
        st.ns_median = median * 1e9;
        st.ns_min = r[0].seconds * 1e9;
        st.ticks_median = st.ns_median * env->clk->ticks_per_ns;
        st.ticks_min = st.ns_min * env->clk->ticks_per_ns;
        /* A result's cycles are its median ticks times the clock's ratio, here too (it was
         * left 0: "cycles_est_median": 0 for a run of seconds). */
        st.cycles_est_median = st.ticks_median * env->clk->cycles_per_tick;
        st.instructions = st.branch_misses = -1;
        st.iters = 1;
        char variant[48];
        snprintf(variant, sizeof variant, "file %.0f MB, max RSS %.1f MiB", bytes / 1e6,
                 maxrss / 1024.0);
        lab_result_add("pcap", tool->name, variant, MODE_THROUGHPUT, (size_t)len, 0, &st);
        lab_out("%-24s %-9s %10.1f MB %10llu pkts %9.3f s %8.3f GB/s %8.3f Mpkt/s %8.1f MiB",
                tool->name, "file", (double)len / 1e6, (unsigned long long)s.packets, median,
                (double)len / 1e9 / median, (double)s.packets / 1e6 / median, maxrss / 1024.0);
        if (t > 0 && csum_median > 0)
            lab_out("  csum %.0fx faster", median / csum_median);
        lab_out("\n");
    }
}

/* The capture being timed (up to a gigabyte in $TMPDIR): removed when the lab is interrupted
 * (Ctrl-C, kill, a closed terminal) as well as when the table ends, or an interrupted
 * `make bench` leaves it behind. The handler does only what is safe in one: unlink, then die
 * of the signal as if it were not caught. */
static char capture_path[4096];
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
enum { N_STOP_SIGNALS = sizeof stop_signals / sizeof stop_signals[0] };

/* The actions the handler replaced: the lab's own (bench/lab.c removes an --out directory that
 * holds no results yet) runs after the capture is removed, as if this one were not there. */
static struct sigaction replaced[N_STOP_SIGNALS];

static void remove_capture_and_die(int sig)
{
    unlink(capture_path);
    int k = 0;
    while (k + 1 < N_STOP_SIGNALS && stop_signals[k] != sig)
        k++;
    if (replaced[k].sa_handler == SIG_IGN || replaced[k].sa_handler == remove_capture_and_die)
        signal(sig, SIG_DFL);
    else
        sigaction(sig, &replaced[k], NULL);
    raise(sig); /* blocked until the handler returns, then the replaced action's */
}

/* And when the run exits early (the lab stops when its output cannot be written). */
static void remove_capture_at_exit(void)
{
    if (capture_path[0])
        unlink(capture_path);
}

/* A signal the lab ignores stays ignored: 'nohup make bench' died of the hangup in this table
 * (its handler replaced SIG_IGN, then died of the signal as if by default). */
static int caught[N_STOP_SIGNALS];

static void remove_capture_on_signals(struct sigaction old[N_STOP_SIGNALS])
{
    lab_catch_signals(remove_capture_and_die, stop_signals, N_STOP_SIGNALS, old, caught);
    for (int k = 0; k < N_STOP_SIGNALS; k++)
        replaced[k] = old[k];
}

static void restore_signals(const struct sigaction old[N_STOP_SIGNALS])
{
    lab_restore_signals(stop_signals, N_STOP_SIGNALS, old, caught);
}

void table_pcap(const struct lab_env *env)
{
    lab_table_title(env, "pcap", "csum pcap verify vs tshark and tcpdump -vv on generated captures");
    const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/csum-lab-XXXXXX.pcap", tmpdir);
    /* The handlers first, so that no moment has the file and not them. */
    snprintf(capture_path, sizeof capture_path, "%s", path);
    struct sigaction old_actions[N_STOP_SIGNALS];
    remove_capture_on_signals(old_actions);
    int fd = mkstemps(capture_path, 5);
    if (fd < 0) {
        lab_note("pcap", "cannot create a temporary file in %s: %s", tmpdir, strerror(errno));
        restore_signals(old_actions);
        return;
    }
    close(fd);
    snprintf(path, sizeof path, "%s", capture_path);
    static int at_exit;
    if (!at_exit)
        at_exit = atexit(remove_capture_at_exit) == 0;

    lab_out("%-24s %-9s %13s %15s %11s %13s %15s %12s\n", "", "", "capture", "packets",
            "median", "", "", "max RSS");
    in_memory(env, path, env->o->quick ? 32u << 20 : 256u << 20);

    /* lab.c refused settings that do not parse before any table ran. */
    struct pcap_settings set;
    char why[160];
    if (pcap_settings(env->o->quick, &set, why, sizeof why) != 0) {
        lab_fail("pcap", "%s", why);
        set.n_sizes = 0;
    }
    const uint64_t *const sizes = set.sizes;
    const int n_sizes = set.n_sizes, runs = set.runs;
    const long limit = set.limit;

    double rss[MAX_SIZES] = { 0 };
    for (int i = 0; i < n_sizes; i++) {
        struct statvfs vfs;
        if (statvfs(tmpdir, &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < sizes[i] + (256u << 20)) {
            lab_note("pcap", "not enough room in %s for a %.0f MB capture: skipped", tmpdir,
                     sizes[i] / 1e6);
            continue;
        }
        if (write_bulk(path, sizes[i], 0x9c4 + (uint64_t)i) != 0) {
            lab_note("pcap", "cannot write a %.0f MB capture in %s", sizes[i] / 1e6, tmpdir);
            continue;
        }
        time_tools(env, path, sizes[i], runs, (unsigned)limit, &rss[i]);
        unlink(path);
    }
    if (n_sizes > 1 && rss[0] > 0 && rss[n_sizes - 1] > 0)
        lab_out("csum pcap verify max RSS: %.1f MiB at %.0f MB, %.1f MiB at %.0f MB (streaming: "
                "flat as the file grows)\n", rss[0], sizes[0] / 1e6, rss[n_sizes - 1],
                sizes[n_sizes - 1] / 1e6);
    lab_out("(%d run%s per command, wall clock fork to exit, file in the page cache, stopped after "
            "%ld s; sizes: CSUM_BENCH_PCAP_SIZES, runs: CSUM_BENCH_PCAP_RUNS, limit: "
            "CSUM_BENCH_PCAP_LIMIT)\n", runs, runs > 1 ? "s" : "", limit);
    unlink(path);
    restore_signals(old_actions);
    capture_path[0] = '\0'; /* removed: nothing for remove_capture_at_exit */
}
