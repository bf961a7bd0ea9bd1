/*
 * Whether this CPU can run a peer object: each extension in its lab_peer_needs list
 * (peer_needs.h) is looked up with the compiler's own __builtin_cpu_supports, which also checks
 * that the OS saves the AVX/AVX-512 state. The few names clang 14's builtin does not know are
 * read from CPUID directly, gated on the state they need. A name the lab cannot check counts as
 * missing: a peer that might die of SIGILL is refused, never run.
 */
#include "lab.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

/* CPUID leaf 1 ECX, leaf 7.0 ECX/EDX and leaf 7.1 EAX, for the names checked by hand. */
static int cpuid_has(const char *f)
{
    unsigned a, b, c, d, c1 = 0, c7 = 0, d7 = 0, a71 = 0, c81 = 0;
    if (__get_cpuid(1, &a, &b, &c, &d))
        c1 = c;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        c7 = c;
        d7 = d;
    }
    if (__get_cpuid_count(7, 1, &a, &b, &c, &d))
        a71 = a;
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d))
        c81 = c;
    const int avx = __builtin_cpu_supports("avx"), avx512 = __builtin_cpu_supports("avx512f");
    if (!strcmp(f, "movbe"))
        return !!(c1 & bit_MOVBE);
    if (!strcmp(f, "lzcnt"))
        return !!(c81 & bit_LZCNT);
    if (!strcmp(f, "f16c"))
        return avx && (c1 & bit_F16C);
    if (!strcmp(f, "vaes"))
        return avx && (c7 & bit_VAES);
    if (!strcmp(f, "avxvnni"))
        return avx && (a71 & bit_AVXVNNI);
    if (!strcmp(f, "avx512fp16"))
        return avx512 && (d7 & bit_AVX512FP16);
    return -1;
}

static int cpu_has(const char *f)
{
#define HAS(name) \
    if (!strcmp(f, name)) \
        return __builtin_cpu_supports(name);
    HAS("sse3") HAS("ssse3") HAS("sse4.1") HAS("sse4.2") HAS("sse4a") HAS("popcnt") HAS("bmi")
    HAS("bmi2") HAS("avx") HAS("fma") HAS("avx2") HAS("gfni") HAS("vpclmulqdq") HAS("avx512f")
    HAS("avx512bw") HAS("avx512vl") HAS("avx512dq") HAS("avx512cd") HAS("avx512vnni")
    HAS("avx512ifma") HAS("avx512vbmi") HAS("avx512vbmi2") HAS("avx512bitalg")
    HAS("avx512vpopcntdq") HAS("avx512bf16") HAS("avx512vp2intersect")
#undef HAS
    return cpuid_has(f) > 0;
}
#else
static int cpu_has(const char *f)
{
    (void)f;
    return 0; /* nothing is listed on other architectures */
}
#endif

size_t lab_cpu_lacks(const char *needs, char *missing, size_t size)
{
    size_t n = 0, used = 0;
    int cut = 0;
    if (size)
        missing[0] = '\0';
    for (const char *p = needs ? needs : ""; *p;) {
        p += strspn(p, " ");
        size_t k = strcspn(p, " ");
        if (!k)
            break;
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)k, p);
        if (!cpu_has(name)) {
            /* Names that do not fit (with room left for " ...") become one " ...". */
            if (used + k + 6 <= size)
                used += (size_t)snprintf(missing + used, size - used, "%s%s", n ? " " : "", name);
            else if (!cut && used + 5 <= size)
                used += (size_t)snprintf(missing + used, size - used, " ..."), cut = 1;
            n++;
        }
        p += k;
    }
    return n;
}
