/*
 * The lab's clock: a tick counter, its calibration against the OS clock, an estimate of core
 * cycles per tick, CPU pinning, and hardware counters when the machine exposes them.
 *
 * Ticks are what the counter counts (on x86 the TSC runs at a fixed reference frequency, not
 * at the core clock), so they are reported as "ticks". Core cycles come from perf_event when
 * available; otherwise from a chain of dependent 1-cycle adds timed in ticks ("est. cycles").
 */
#define _GNU_SOURCE
#include "lab.h"

#include <errno.h>
#ifdef CSUM_LAB_HAVE_PERF_EVENT
#include <linux/perf_event.h>
#endif
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint64_t lab_ticks(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    /* lfence keeps rdtsc from running before earlier instructions have completed. */
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int lab_pin_cpu(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

int lab_default_cpu(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    unsigned char allowed[CPU_SETSIZE] = { 0 };
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
            allowed[cpu] = CPU_ISSET(cpu, &set) != 0;
    const int cpu = lab_default_cpu_in("/sys", allowed, CPU_SETSIZE);
    return cpu >= 0 ? cpu : (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
}

/* 100 dependent adds per iteration: the loop is bound by the chain, one add per core cycle. */
static uint64_t add_chain(uint64_t iterations)
{
    uint64_t x = 0;
    for (uint64_t i = 0; i < iterations; i++) {
#if defined(__x86_64__)
#  define ADD10 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t" \
                "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
#elif defined(__aarch64__)
#  define ADD10 "add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t" \
                "add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t" \
                "add %0, %0, #1\n\tadd %0, %0, #1\n\t"
#endif
#ifdef ADD10
        __asm__ volatile(ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 : "+r"(x));
#else
        x += i;
#endif
    }
    return x;
}

#ifndef CSUM_LAB_HAVE_PERF_EVENT
/* Built without the kernel's headers (CMakeLists.txt): no counter opens, as where the kernel
 * refuses them. The names only have to compile. */
enum { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS,
       PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_MISSES,
       PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE };

static long perf_open(uint32_t type, uint64_t config, int group)
{
    (void)type, (void)config, (void)group;
    errno = ENOSYS;
    return -1;
}
#else
static long perf_open(uint32_t type, uint64_t config, int group)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}
#endif

void lab_counters_open(struct lab_counters *c)
{
    static const uint64_t configs[3] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
                                         PERF_COUNT_HW_BRANCH_MISSES };
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; i++)
        c->fd[i] = (int)perf_open(PERF_TYPE_HARDWARE, configs[i], -1);
}

void lab_counters_start(struct lab_counters *c)
{
    for (int i = 0; i < 3; i++)
        if (c->fd[i] >= 0) {
            ioctl(c->fd[i], PERF_EVENT_IOC_RESET, 0);
            ioctl(c->fd[i], PERF_EVENT_IOC_ENABLE, 0);
        }
}

void lab_counters_stop(struct lab_counters *c)
{
    uint64_t *dst[3] = { &c->instructions, &c->branches, &c->branch_misses };
    for (int i = 0; i < 3; i++)
        if (c->fd[i] >= 0) {
            uint64_t v = 0;
            ioctl(c->fd[i], PERF_EVENT_IOC_DISABLE, 0);
            if (read(c->fd[i], &v, sizeof v) == (ssize_t)sizeof v)
                *dst[i] += v;
        }
}

void lab_counters_close(struct lab_counters *c)
{
    for (int i = 0; i < 3; i++)
        if (c->fd[i] >= 0)
            close(c->fd[i]);
}

/* Core cycles per tick from the perf cycles counter over an add chain, if it can be read. */
static double cycles_per_tick_from_perf(uint64_t iterations)
{
    int fd = (int)perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, -1);
    if (fd < 0)
        return 0;
    uint64_t cycles = 0;
    ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    uint64_t t0 = lab_ticks();
    volatile uint64_t sink = add_chain(iterations);
    uint64_t t1 = lab_ticks();
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    (void)sink;
    ssize_t n = read(fd, &cycles, sizeof cycles);
    close(fd);
    return n == (ssize_t)sizeof cycles && cycles && t1 > t0 ? (double)cycles / (double)(t1 - t0) : 0;
}

/*
 * The tick reads enclose the clock reads (ticks, clock ... clock, ticks), so anything that
 * delays a read at either edge of a window, a preemption or a VM exit, lengthens the tick
 * interval alone: it can only raise that window's rate, and the smallest rate is the least
 * disturbed window's. (Until 2026-11-26 a window began with the clock read, so a delay before
 * its first tick read lowered the rate, and the smallest was the most disturbed.) A delay
 * inside the window moves both clocks alike. An undisturbed window overstates by the two
 * reads' cost, some 50 ns in a window of 10 ms or more.
 */
double lab_calibrate_ticks_per_ns(double (*ns)(void), uint64_t (*ticks)(void), double window_ns,
                                  int windows)
{
    double best = 0;
    for (int r = 0; r < windows; r++) {
        uint64_t t0 = ticks();
        double n0 = ns(), n1;
        while ((n1 = ns()) - n0 < window_ns)
            ;
        uint64_t t1 = ticks();
        double v = (double)(t1 - t0) / (n1 - n0);
        if (r == 0 || v < best)
            best = v;
    }
    return best;
}

void lab_clock_init(struct lab_clock *clk, int quick)
{
    memset(clk, 0, sizeof *clk);
#if defined(__x86_64__)
    clk->tick_name = "TSC ticks";
#elif defined(__aarch64__)
    clk->tick_name = "CNTVCT ticks";
#else
    clk->tick_name = "ns";
#endif

    clk->ticks_per_ns = lab_calibrate_ticks_per_ns(now_ns, lab_ticks, quick ? 10e6 : 40e6, 3);

    /* The counter's step: the smallest nonzero difference between back-to-back reads. */
    clk->granularity = UINT64_MAX;
    for (int r = 0, seen = 0; r < 100000 && seen < 64; r++) {
        uint64_t a = lab_ticks(), b = lab_ticks();
        if (b > a) {
            seen++;
            if (b - a < clk->granularity)
                clk->granularity = b - a;
        }
    }
    if (clk->granularity == UINT64_MAX)
        clk->granularity = 1;

    /* Core cycles per tick: the fastest of several add-chain runs (a run slowed by an
     * interruption only understates the clock). Warm up first so the core is at speed. */
    const uint64_t iters = quick ? 20000 : 100000;
    add_chain(iters * 4);
    double perf = cycles_per_tick_from_perf(iters);
    if (perf > 0) {
        clk->cycles_per_tick = perf;
        clk->cycles_measured = 1;
    } else {
        for (int r = 0; r < 7; r++) {
            uint64_t t0 = lab_ticks();
            volatile uint64_t sink = add_chain(iters);
            uint64_t t1 = lab_ticks();
            (void)sink;
            double v = (double)iters * 100.0 / (double)(t1 - t0);
            if (v > clk->cycles_per_tick)
                clk->cycles_per_tick = v;
        }
    }

    struct lab_counters c;
    lab_counters_open(&c);
    clk->counters = c.fd[0] >= 0 && c.fd[2] >= 0;
    clk->counters_why = clk->counters ? "" : strerror(errno);
    lab_counters_close(&c);
}
