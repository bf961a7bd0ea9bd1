/*
 * CPU feature detection. This file is compiled with the baseline target flags only: nothing
 * here may execute an instruction the CPU might lack.
 */
#include "cpu_features.h"
#include "csum_internal.h" /* csum_getenv */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#  include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#  include <sys/auxv.h>
#  ifndef HWCAP_ASIMD
#    define HWCAP_ASIMD (1 << 1)
#  endif
#endif

static const char *const feature_names[CSUM_CPU_FEATURE_COUNT] = {
#define CSUM_X(name) #name,
    CSUM_CPU_FEATURE_LIST(CSUM_X)
#undef CSUM_X
};

const char *csum_cpu_feature_name(unsigned bit)
{
    return bit < CSUM_CPU_FEATURE_COUNT ? feature_names[bit] : NULL;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    /* xgetbv with ecx = 0; encoded as bytes so old assemblers accept it. */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const int osxsave = (c >> 27) & 1;
    /* The OS must save YMM (XCR0 bits 1-2) and for AVX-512 also opmask/ZMM (bits 5-7),
     * otherwise the registers are not preserved across context switches. */
    const uint64_t xcr0 = osxsave ? read_xcr0() : 0;
    const int os_avx = (xcr0 & 0x06) == 0x06;
    const int os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;

    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    if (b & (1u << 8))  f |= CSUM_CPU_bmi2;
    if (b & (1u << 19)) f |= CSUM_CPU_adx;
    if (b & (1u << 9))  f |= CSUM_CPU_erms;
    if (d & (1u << 4))  f |= CSUM_CPU_fsrm;
    if (os_avx && (b & (1u << 5)))
        f |= CSUM_CPU_avx2;
    if (os_avx && a >= 1) { /* a: the highest subleaf of leaf 7 */
        unsigned a1, b1, c1, d1;
        __cpuid_count(7, 1, a1, b1, c1, d1);
        if (a1 & (1u << 4)) f |= CSUM_CPU_avxvnni; /* the VEX-encoded 256-bit vpdpwssd */
    }
    if (os_avx512) {
        if (b & (1u << 16)) f |= CSUM_CPU_avx512f;
        if (b & (1u << 17)) f |= CSUM_CPU_avx512dq;
        if (b & (1u << 30)) f |= CSUM_CPU_avx512bw;
        if (b & (1u << 31)) f |= CSUM_CPU_avx512vl;
        if (c & (1u << 11)) f |= CSUM_CPU_avx512vnni;
    }
    return f;
}

void csum_cpu_identify(struct csum_cpu_id *id)
{
    unsigned a, b, c, d;
    memset(id, 0, sizeof *id);
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    memcpy(id->vendor, &b, 4);
    memcpy(id->vendor + 4, &d, 4);
    memcpy(id->vendor + 8, &c, 4);
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    /* The display family and model (Intel SDM vol. 2A, CPUID leaf 1; AMD APM vol. 3). */
    unsigned base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
    id->family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
    id->model = base_family == 0x6 || base_family == 0xf ? base_model | (((a >> 16) & 0xf) << 4)
                                                          : base_model;
}
#elif defined(__aarch64__)
void csum_cpu_identify(struct csum_cpu_id *id)
{
    memset(id, 0, sizeof *id); /* plans for arm64 are keyed by features alone */
}

static uint32_t detect(void)
{
#  if defined(__linux__)
    /* Advanced SIMD is architecturally mandatory on AArch64; ask anyway. */
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) ? CSUM_CPU_neon : 0;
#  else
    return CSUM_CPU_neon;
#  endif
}
#else
void csum_cpu_identify(struct csum_cpu_id *id)
{
    memset(id, 0, sizeof *id);
}

static uint32_t detect(void)
{
    return 0;
}
#endif

void csum_cpu_class(char *buf, size_t size)
{
    struct csum_cpu_id id;
    csum_cpu_identify(&id);
    if (id.vendor[0])
        snprintf(buf, size, "%s family %u model %u", id.vendor, id.family, id.model);
    else if (size)
        buf[0] = '\0';
}

/* CSUM_CPU_DISABLE="avx512bw,avx2" pretends the CPU lacks those features, so fallbacks can
 * be exercised on a machine that has everything. Returns the mask of the names that are
 * features; the others are skipped, and listed comma-separated in `unknown` (like snprintf:
 * their whole length in *unknown_len) for `csum impls` to report. */
static uint32_t parse_disable(char *unknown, size_t size, size_t *unknown_len)
{
    const char *env = csum_getenv("CSUM_CPU_DISABLE"); /* ignored in set-uid programs */
    uint32_t mask = 0;
    size_t len = 0;
    if (size)
        unknown[0] = '\0';
    const char *name = env ? env : "";
    while (*(name += strspn(name, ", "))) { /* the next name, separators skipped */
        size_t n = strcspn(name, ", ");
        unsigned bit = 0;
        while (bit < CSUM_CPU_FEATURE_COUNT &&
               !(strlen(feature_names[bit]) == n && strncmp(name, feature_names[bit], n) == 0))
            bit++;
        if (bit < CSUM_CPU_FEATURE_COUNT) {
            mask |= 1u << bit;
        } else {
            int w = snprintf(len < size ? unknown + len : NULL, len < size ? size - len : 0,
                             "%s%.*s", len ? "," : "", (int)n, name);
            len += w > 0 ? (size_t)w : 0;
        }
        name += n;
    }
    *unknown_len = len;
    return mask;
}

size_t csum_cpu_disable_ignored(char *buf, size_t size)
{
    size_t len;
    parse_disable(buf, size, &len);
    return len;
}

uint32_t csum_cpu_features_hidden(void)
{
    size_t ignored;
    return detect() & parse_disable(NULL, 0, &ignored);
}

uint32_t csum_cpu_features(void)
{
    /* Bit 31 marks "computed"; racing first callers compute the same value. */
    static _Atomic uint32_t cached;
    uint32_t v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (!(v & 0x80000000u)) {
        size_t ignored;
        v = (detect() & ~parse_disable(NULL, 0, &ignored)) | 0x80000000u;
        atomic_store_explicit(&cached, v, memory_order_relaxed);
    }
    return v & 0x7fffffffu;
}
