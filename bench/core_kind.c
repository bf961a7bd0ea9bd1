/*
 * Which kind of core a CPU is, on machines with two kinds: Intel's hybrid parts (Alder Lake and
 * later client chips: performance cores and efficient "atom" cores, listed by the kernel in
 * /sys/devices/cpu_core/cpus and /sys/devices/cpu_atom/cpus) and Arm's big.LITTLE (each CPU's
 * relative speed in /sys/devices/system/cpu/cpuN/cpu_capacity, 1024 for the fastest).
 *
 * Why the lab cares: without --cpu it pins itself to the last CPU it may run on, and on an
 * Intel hybrid laptop the kernel numbers the E-cores last, so every table measured an E-core
 * while the user's packets run wherever the scheduler puts them, most often on a P-core. Now
 * the default is the last CPU of the fastest kind, and the machine line names the kind of the
 * CPU the run is pinned to (a run pinned to an E-core with --cpu says so).
 *
 * Every path is under `sysfs` ("/sys" in use; a tree of its own in the test).
 */
#define _GNU_SOURCE
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether `cpu` is in a kernel CPU list such as "0-7,16,18-19" (read from `path`); -1 when the
 * file does not exist. */
static int list_file_has(const char *path, int cpu)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char text[4096];
    const int got = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    return got && lab_cpulist_has(text, cpu);
}

int lab_cpulist_has(const char *list, int cpu)
{
    const char *s = list;
    while (*s && *s != '\n') {
        char *end;
        const long lo = strtol(s, &end, 10);
        if (end == s)
            return 0;
        long hi = lo;
        if (*end == '-') {
            s = end + 1;
            hi = strtol(s, &end, 10);
            if (end == s)
                return 0;
        }
        if (cpu >= lo && cpu <= hi)
            return 1;
        s = *end == ',' ? end + 1 : end;
        if (*end != ',')
            break;
    }
    return 0;
}

/* The CPU's capacity (Arm: 1..1024), or -1 when the kernel gives none. */
static long capacity(const char *sysfs, int cpu)
{
    char path[256];
    snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/cpu_capacity", sysfs, cpu);
    FILE *f = fopen(path, "r");
    long v = -1;
    if (f && fscanf(f, "%ld", &v) != 1)
        v = -1;
    if (f)
        fclose(f);
    return v;
}

/* How fast a kind of core `cpu` is, against the machine's others: higher is faster; the same
 * number for every CPU of a machine with one kind. */
static long core_rank(const char *sysfs, int cpu)
{
    char path[256];
    snprintf(path, sizeof path, "%s/devices/cpu_core/cpus", sysfs);
    const int p_core = list_file_has(path, cpu);
    if (p_core >= 0) /* an Intel hybrid part */
        return p_core ? 2048 : 1;
    const long c = capacity(sysfs, cpu);
    return c > 0 ? c : 0;
}

int lab_default_cpu_in(const char *sysfs, const unsigned char *allowed, int n)
{
    int best = -1;
    long best_rank = -1;
    for (int cpu = n - 1; cpu >= 0; cpu--) {
        if (!allowed[cpu])
            continue;
        const long rank = core_rank(sysfs, cpu);
        if (rank > best_rank) { /* the last CPU of the fastest kind */
            best = cpu;
            best_rank = rank;
        }
    }
    return best;
}

void lab_core_kind(const char *sysfs, int cpu, int cpus, char *kind, size_t size)
{
    char path[256];
    kind[0] = '\0';
    snprintf(path, sizeof path, "%s/devices/cpu_core/cpus", sysfs);
    const int p_core = list_file_has(path, cpu);
    if (p_core > 0) {
        snprintf(kind, size, "a P-core");
        return;
    }
    snprintf(path, sizeof path, "%s/devices/cpu_atom/cpus", sysfs);
    if (p_core == 0 && list_file_has(path, cpu) > 0) {
        snprintf(kind, size, "an E-core, not the fastest kind here");
        return;
    }
    if (p_core == 0)
        return;
    long mine = capacity(sysfs, cpu), most = mine, least = mine;
    for (int other = 0; other < cpus && mine > 0; other++) {
        const long c = capacity(sysfs, other);
        if (c > most)
            most = c;
        if (c > 0 && c < least)
            least = c;
    }
    if (mine > 0 && least < most)
        snprintf(kind, size, "capacity %ld of %ld%s", mine, most,
                 mine < most ? ", not the fastest kind here" : ": the fastest kind");
}
