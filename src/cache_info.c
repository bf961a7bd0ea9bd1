/*
 * How much of the last-level cache one logical CPU can count on: the input of
 * csum_partial_copy's non-temporal threshold. Read once from CPUID. This file is compiled with
 * baseline flags.
 *
 * Not sysconf(_SC_LEVEL3_CACHE_SIZE): on AMD, glibc 2.36 answers from CPUID 0x80000006, which
 * on the development VM (Zen 5 under KVM) says 384 MiB for a 32 MiB L3, and it says nothing
 * about how many CPUs share the cache. The deterministic cache leaves below give both.
 */
#include "csum_internal.h"

#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
#  include <cpuid.h>
#endif

enum { FALLBACK_SHARE = 4 << 20 }; /* when nothing can be read: 4 MiB per CPU */

#if defined(__x86_64__) || defined(__i386__)
/*
 * Deterministic cache parameters, the same layout in Intel's leaf 4 and AMD's 0x8000001D:
 * EAX[4:0] type (0: no more caches, 2: instruction), EAX[7:5] level, EAX[25:14] logical CPUs
 * sharing the cache minus 1; EBX ways, partitions and line size, ECX sets, each minus 1.
 * Returns the highest data or unified level's size divided by its sharers, or 0.
 */
static size_t share_from_leaf(unsigned leaf)
{
    size_t share = 0;
    unsigned top_level = 0;
    for (unsigned sub = 0; sub < 16; sub++) {
        unsigned a, b, c, d;
        __cpuid_count(leaf, sub, a, b, c, d);
        unsigned type = a & 31, level = (a >> 5) & 7;
        if (type == 0)
            break;
        if (type == 2 || level < top_level)
            continue;
        size_t size = (size_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) *
                      ((size_t)c + 1);
        top_level = level;
        share = size / (((a >> 14) & 0xfff) + 1);
    }
    return share;
}

static size_t detect(void)
{
    unsigned max_leaf, vendor_b, c, d, a;
    if (!__get_cpuid(0, &max_leaf, &vendor_b, &c, &d))
        return 0;
    const int amd_like = vendor_b == 0x68747541u /* "Auth"enticAMD */ ||
                         vendor_b == 0x6f677948u /* "Hygo"nGenuine */;
    if (!amd_like)
        return max_leaf >= 4 ? share_from_leaf(4) : 0;
    unsigned max_ext, b;
    if (!__get_cpuid(0x80000000u, &max_ext, &b, &c, &d) || max_ext < 0x8000001du)
        return 0;
    __cpuid(0x80000001u, a, b, c, d);
    return (c & (1u << 22)) /* TOPOEXT: leaf 0x8000001D is valid */ ? share_from_leaf(0x8000001du) : 0;
}
#else
static size_t detect(void)
{
    return 0; /* no non-temporal copy rows outside x86 yet */
}
#endif

size_t csum_llc_share(void)
{
    static _Atomic size_t cached; /* 0: not read yet; racing readers compute the same value */
    size_t v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (v == 0) {
        v = detect();
        if (v == 0)
            v = FALLBACK_SHARE;
        atomic_store_explicit(&cached, v, memory_order_relaxed);
    }
    return v;
}
