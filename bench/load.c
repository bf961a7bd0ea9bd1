/*
 * Is the lab's CPU shared right now? A benchmark on a busy machine is slower and noisier, and
 * nothing in the numbers says why. The lab watches for other work on its CPU in three ways:
 *
 *  - run_delay (/proc/thread-self/schedstat): the time this thread spent runnable but waiting
 *    for its CPU, i.e. while other tasks ran there. Taken over the whole run.
 *  - involuntary context switches (getrusage RUSAGE_THREAD) around every timed batch: a batch
 *    during which the thread was switched out is counted as preempted.
 *  - procs_running (/proc/stat) and the 1-minute load average at the start, for context: how
 *    many tasks in the whole machine wanted a CPU.
 *
 * A run is called busy when it waited for its CPU more than 1 % of the time or when more than
 * 5 % of its batches were preempted; the report says so at the top (docs/METHOD.md says what
 * to do then).
 */
#define _GNU_SOURCE
#include "lab.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static struct lab_load state;
static uint64_t run_delay0;
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
    state.busy = (state.elapsed_ns > 0 && state.wait_ns > 0.01 * state.elapsed_ns) ||
                 (state.batches > 0 && state.preempted * 20 > state.batches);
    return &state;
}

void lab_load_describe(const struct lab_load *l, char *buf, size_t size)
{
    char wait[96] = "run_delay n/a";
    if (l->schedstat)
        snprintf(wait, sizeof wait, "waited %.1f ms for its CPU in %.1f s (%.2f %%)",
                 l->wait_ns / 1e6, l->elapsed_ns / 1e9,
                 l->elapsed_ns > 0 ? 100.0 * l->wait_ns / l->elapsed_ns : 0.0);
    snprintf(buf, size, "%s: %s; %ld of %ld timed batches preempted; at the start %.1f other "
             "runnable tasks on the machine, load average %.2f",
             l->busy ? "BUSY" : "idle", wait, l->preempted, l->batches, l->others_running,
             l->loadavg1);
}
