/*
 * What a run was measured on, and how: the machine (CPU, caches, features, the library's plans,
 * host, kernel, compiler, date) and the method lines, for the JSON and the report
 * (bench/results.c) and csum tune's first line.
 */
#define _GNU_SOURCE
#include "lab.h"

#include "cpu_features.h"
#include "plan.h" /* internal: the copy and batch plans, and their sources */

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const char *const lab_method_lines[] = {
    "Pinned to one CPU; each measurement warms up, sizes a batch to last at least the batch "
    "time, then times several batches; the median per call is reported with the minimum and "
    "the p10..p90 spread over the batches. A spread above the noise limit is measured again "
    "and, if it stays wide, the result is marked * (noisy).",
    "Load: the lab records how long it waited for its CPU (schedstat run_delay), how long a "
    "hypervisor ran something else on it (steal time, /proc/stat) and how many batches were "
    "preempted (involuntary context switches); above 1 % waiting or stolen, or 5 % preempted "
    "batches, the run is called busy, at the top of the report.",
    "Latency mode: each call's result is the next call's initial sum (a true dependency chain: "
    "a chained csum_partial(..., sum) over one buffer in pieces). Throughput mode: independent "
    "calls, each result sunk through an empty asm statement (separate headers or packets). "
    "Fenced mode: lfence (x86) or isb (arm64) before and after every call.",
    "Peers are built the way their projects build them for users (DPDK: its pkg-config flags "
    "and -O3), and again with -march=native; every subject's flags are listed.",
    "Roofline: the same loads with no arithmetic, widest vectors, the vector rows' tail "
    "handling, vzeroupper; its best batch is the limit. From 256 bytes on only; a subject "
    "above 100 % gets a note with the measured cause.",
    "Functions are called through their table entry (a function pointer), so nothing is "
    "inlined into the loop; a per-call time includes the call and the loop.",
    "Side by side: the subjects of the short table and the pairs behind the summary's ratios "
    "(csum_partial and linux-6.8 in sizes, lenalign's NEW and OLD; memcpy, memcpy+csum_partial "
    "and csum_partial_copy in copy; the loop and the batch in batch) are timed with their "
    "batches interleaved round by round (the JSON's group); every other measurement is made "
    "alone, the dpdk rows behind the summary's other ratios too. A ratio is always the ratio of "
    "two medians.",
    "Ticks are the CPU's fixed-rate counter (TSC on x86-64), not core cycles; nanoseconds come "
    "from ticks calibrated against CLOCK_MONOTONIC_RAW. Core cycles per tick are measured with "
    "perf_event when available, otherwise estimated from a chain of dependent 1-cycle adds; a "
    "result's cycles (cycles_est_median) are its ticks times that ratio, an estimate either "
    "way. Instructions and branch misses are shown only when counters exist.",
    "Every subject is checked against the byte-at-a-time RFC 1071 oracle before it is timed, "
    "and again on each case's exact buffer; one that disagrees is refused: no number for it.",
    "Buffers hold aperiodic pseudo-random bytes; alignment is the offset from a 64-byte "
    "aligned base; buffers larger than a cache level are streamed through whole, so their "
    "data comes from that level.",
    "The lab runs with address-space randomization turned off (it re-executes itself as "
    "`setarch -R` would), so code and data sit at the same addresses in every run: branch "
    "prediction and cache indexing depend on them.",
    "This is a shared virtual machine: compare numbers as ratios within one run.",
    NULL,
};

/* The size of `cpu`'s cache of `level` and `type` (the pinned CPU's: on a hybrid part an
 * E-core's L2 is not a P-core's). */
static long cache_size(int cpu, int level, const char *type)
{
    for (int idx = 0; idx < 8; idx++) {
        char path[128], buf[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int lvl = 0;
        if (fscanf(f, "%d", &lvl) != 1)
            lvl = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
        f = fopen(path, "r");
        if (!f || !fgets(buf, sizeof buf, f)) {
            if (f)
                fclose(f);
            continue;
        }
        fclose(f);
        if (lvl != level || strncmp(buf, type, strlen(type)) != 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, idx);
        f = fopen(path, "r");
        long kib = 0;
        if (f && fscanf(f, "%ldK", &kib) != 1)
            kib = 0;
        if (f)
            fclose(f);
        return kib * 1024;
    }
    return 0;
}

const char *lab_pinned_text(const struct lab_machine *m)
{
    static char text[96];
    snprintf(text, sizeof text, "CPU %d%s%s%s", m->pinned_cpu, m->core_kind[0] ? " (" : "",
             m->core_kind, m->core_kind[0] ? ")" : "");
    return text;
}

/* The CPU features that decide which rows can run (what "ISA used" rests on): the library's
 * own detection, CSUM_CPU_DISABLE applied, so a run with features hidden says so. */
static void describe_features(char *buf, size_t size)
{
    const uint32_t have = csum_cpu_features();
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned bit = 0; bit < CSUM_CPU_FEATURE_COUNT; bit++)
        if ((have >> bit & 1) && used < size)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "",
                                     csum_cpu_feature_name(bit));
    if (!buf[0])
        snprintf(buf, size, "baseline only");
}

void lab_machine_cpu(struct lab_machine *m, FILE *cpuinfo)
{
    char line[512];
    char name[96] = "", family[16] = "", model[16] = "", vendor[32] = "";
    char implementer[16] = "", part[16] = "";
    while (cpuinfo && fgets(line, sizeof line, cpuinfo)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *val = colon + 1 + (colon[1] == ' ');
        val[strcspn(val, "\n")] = '\0';
        if (!vendor[0] && !strncmp(line, "vendor_id", 9))
            snprintf(vendor, sizeof vendor, "%s", val);
        else if (!name[0] && (!strncmp(line, "model name", 10) || !strncmp(line, "Model\t", 6)))
            snprintf(name, sizeof name, "%s", val);
        else if (!family[0] && !strncmp(line, "cpu family", 10))
            snprintf(family, sizeof family, "%s", val);
        else if (!model[0] && !strncmp(line, "model\t", 6))
            snprintf(model, sizeof model, "%s", val);
        else if (!implementer[0] && !strncmp(line, "CPU implementer", 15))
            snprintf(implementer, sizeof implementer, "%s", val);
        else if (!part[0] && !strncmp(line, "CPU part", 8))
            snprintf(part, sizeof part, "%s", val);
    }
    /* Names like "AMD EPYC" say little under a hypervisor; family/model pin the core. Arm
     * Linux prints no name for a 64-bit process (arch/arm64/kernel/cpuinfo.c), only the MIDR
     * fields: implementer and part pin the core there, as family and model do on x86. */
    if (implementer[0] && part[0])
        snprintf(m->cpu, sizeof m->cpu, "%.90s (implementer %.15s part %.15s)",
                 name[0] ? name : "arm64", implementer, part);
    else if (family[0])
        snprintf(m->cpu, sizeof m->cpu, "%.90s (family %.15s model %.15s)", name[0] ? name : "unknown",
                 family, model);
    else
        snprintf(m->cpu, sizeof m->cpu, "%s", name[0] ? name : "unknown");
    snprintf(m->vendor, sizeof m->vendor, "%s", vendor);
    m->family = family[0] ? atoi(family) : -1;
    m->model = model[0] ? atoi(model) : -1;
}

void lab_machine_describe(struct lab_machine *m, const struct lab_options *o)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen("/proc/cpuinfo", "r");
    lab_machine_cpu(m, f);
    if (f)
        fclose(f);
    describe_features(m->features, sizeof m->features);
    csum_dispatch_describe(m->dispatch, sizeof m->dispatch);
    snprintf(m->dispatch_source, sizeof m->dispatch_source, "%s", csum_dispatch_source());
    csum_copy_describe(m->copy_dispatch, sizeof m->copy_dispatch);
    snprintf(m->copy_source, sizeof m->copy_source, "%s", csum_copy_source());
    csum_ipv4_batch_describe(m->batch_dispatch, sizeof m->batch_dispatch);
    snprintf(m->batch_source, sizeof m->batch_source, "%s", csum_ipv4_batch_source());
    gethostname(m->host, sizeof m->host - 1);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m->kernel, sizeof m->kernel, "%.20s %.64s %.20s", u.sysname, u.release, u.machine);
#if defined(__clang__)
    snprintf(m->compiler, sizeof m->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(m->compiler, sizeof m->compiler, "gcc %s", __VERSION__);
#endif
    static char run_date[32]; /* the run's start: the first description of the machine */
    if (!run_date[0]) {
        time_t now = time(NULL);
        strftime(run_date, sizeof run_date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    }
    snprintf(m->date, sizeof m->date, "%s", run_date);
    m->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    m->pinned_cpu = o->cpu;
    lab_core_kind("/sys", o->cpu, m->cpus, m->core_kind, sizeof m->core_kind);
    const int cpu = o->cpu >= 0 ? o->cpu : 0;
    m->l1d = cache_size(cpu, 1, "Data");
    m->l2 = cache_size(cpu, 2, "Unified");
    m->l3 = cache_size(cpu, 3, "Unified");
}
