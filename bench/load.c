/*
 * Is the lab's CPU shared right now? A benchmark on a busy machine is slower and noisier, and
 * nothing in the numbers says why. The lab watches for other work on its CPU in three ways:
 *
 *  - run_delay (/proc/thread-self/schedstat): the time this thread spent runnable but waiting
 *    for its CPU, i.e. while other tasks ran there. Taken over the whole run.
 *  - involuntary context switches (getrusage RUSAGE_THREAD) around every timed batch: a batch
 *    during which the thread was switched out is counted as preempted.
 *  - steal time of its CPU (/proc/stat, the cpuN line's eighth value): in a virtual machine,
 *    the time the hypervisor ran something else on the physical CPU behind this vCPU while the
 *    guest wanted it. The guest's scheduler cannot see that (run_delay and the context switches
 *    stay 0), and the lab's batches are stretched as much. Taken over the whole run.
 *  - procs_running (/proc/stat) and the 1-minute load average at the start, for context: how
 *    many tasks in the whole machine wanted a CPU.
 *
 * A run is called busy when it waited for its CPU, or the hypervisor took it, more than 1 % of
 * the time, or when more than 5 % of its batches were preempted; the report says so at the top
 * (docs/METHOD.md says what to do then).
 */
#define _GNU_SOURCE
#include "lab.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static struct lab_load state;
static uint64_t run_delay0;
static int64_t steal0;
static int steal_cpu;
static double start_ns;

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

long lab_involuntary_switches(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

/* Nanoseconds this thread has waited on a run queue; -1 when the kernel does not say. */
static int64_t run_delay_ns(void)
{
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    unsigned long long run = 0, wait = 0;
    int ok = f && fscanf(f, "%llu %llu", &run, &wait) == 2;
    if (f)
        fclose(f);
    return ok ? (int64_t)wait : -1;
}

int64_t lab_proc_stat_steal(FILE *f, int cpu)
{
    char line[512], name[16];
    snprintf(name, sizeof name, "cpu%d ", cpu);
    const size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long v[8];
        if (strncmp(line, name, n) == 0)
            return sscanf(line + n, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                          &v[3], &v[4], &v[5], &v[6], &v[7]) == 8
                       ? (int64_t)v[7]
                       : -1;
    }
    return -1;
}

double lab_steal_ns(int64_t at_start, int64_t now, long hz)
{
    return at_start >= 0 && now >= at_start && hz > 0 ? (double)(now - at_start) * 1e9 / (double)hz
                                                      : 0;
}

/* Steal time of CPU `cpu` in clock ticks (USER_HZ); -1 when the kernel does not say. */
static int64_t steal_ticks(int cpu)
{
    if (cpu < 0)
        return -1;
    FILE *f = fopen("/proc/stat", "r");
    const int64_t v = lab_proc_stat_steal(f, cpu);
    if (f)
        fclose(f);
    return v;
}

static int procs_running(void)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[256];
    int n = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "procs_running %d", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

void lab_load_begin(void)
{
    memset(&state, 0, sizeof state);
    int64_t d = run_delay_ns();
    state.schedstat = d >= 0;
    run_delay0 = d >= 0 ? (uint64_t)d : 0;
    /* The lab is pinned by now (lab.c): the CPU it runs on is the one it will run on. */
    steal_cpu = sched_getcpu();
    steal0 = steal_ticks(steal_cpu);
    state.steal_known = steal0 >= 0;
    start_ns = mono_ns();
    /* Other runnable tasks in the machine: procs_running counts this thread too. */
    int samples = 0;
    double sum = 0;
    for (int i = 0; i < 10; i++) {
        int n = procs_running();
        if (n > 0) {
            sum += n - 1;
            samples++;
        }
        struct timespec pause = { 0, 2000000 };
        nanosleep(&pause, NULL);
    }
    state.others_running = samples ? sum / samples : -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f || fscanf(f, "%lf", &state.loadavg1) != 1)
        state.loadavg1 = -1;
    if (f)
        fclose(f);
}

void lab_load_count_batch(int preempted)
{
    state.batches++;
    state.preempted += preempted != 0;
}

const struct lab_load *lab_load_now(void)
{
    state.elapsed_ns = mono_ns() - start_ns;
    int64_t d = run_delay_ns();
    state.wait_ns = d >= 0 && (uint64_t)d >= run_delay0 ? (double)((uint64_t)d - run_delay0) : 0;
    const int64_t steal = state.steal_known ? steal_ticks(steal_cpu) : -1;
    state.steal_ns = lab_steal_ns(steal0, steal, sysconf(_SC_CLK_TCK));
    state.busy = lab_load_busy(&state);
    return &state;
}

int lab_load_busy(const struct lab_load *l)
{
    return (l->elapsed_ns > 0 && (l->wait_ns > 0.01 * l->elapsed_ns ||
                                  l->steal_ns > 0.01 * l->elapsed_ns)) ||
           (l->batches > 0 && l->preempted * 20 > l->batches);
}

void lab_load_describe(const struct lab_load *l, char *buf, size_t size)
{
    char wait[96] = "run_delay n/a";
    if (l->schedstat)
        snprintf(wait, sizeof wait, "waited %.1f ms for its CPU in %.1f s (%.2f %%)",
                 l->wait_ns / 1e6, l->elapsed_ns / 1e9,
                 l->elapsed_ns > 0 ? 100.0 * l->wait_ns / l->elapsed_ns : 0.0);
    char steal[96] = "";
    if (l->steal_known)
        snprintf(steal, sizeof steal, "; the hypervisor took %.0f ms of its CPU (steal, %.2f %%)",
                 l->steal_ns / 1e6, l->elapsed_ns > 0 ? 100.0 * l->steal_ns / l->elapsed_ns : 0.0);
    snprintf(buf, size, "%s: %s%s; %ld of %ld timed batches preempted; at the start %.1f other "
             "runnable tasks on the machine, load average %.2f",
             l->busy ? "BUSY" : "idle", wait, steal, l->preempted, l->batches, l->others_running,
             l->loadavg1);
}
