/*
 * CPU features the implementations depend on, detected once.
 *
 * The list is written once as an X-macro (zstd/xxHash style): the enum, the bit masks and the
 * names printed by `csum impls` all come from it.
 */
#ifndef CSUM_CPU_FEATURES_H
#define CSUM_CPU_FEATURES_H

#include <stdint.h>

/* X(identifier, name as printed) */
#define CSUM_CPU_FEATURE_LIST(X) \
    X(BMI2,       "bmi2")        \
    X(ADX,        "adx")         \
    X(ERMS,       "erms")        \
    X(FSRM,       "fsrm")        \
    X(AVX2,       "avx2")        \
    X(AVX512F,    "avx512f")     \
    X(AVX512BW,   "avx512bw")    \
    X(AVX512VL,   "avx512vl")    \
    X(AVX512VNNI, "avx512vnni")  \
    X(NEON,       "neon")

enum csum_cpu_feature_bit {
#define CSUM_X(id, name) CSUM_CPU_BIT_##id,
    CSUM_CPU_FEATURE_LIST(CSUM_X)
#undef CSUM_X
    CSUM_CPU_FEATURE_COUNT
};

enum csum_cpu_feature_mask {
#define CSUM_X(id, name) CSUM_CPU_##id = 1u << CSUM_CPU_BIT_##id,
    CSUM_CPU_FEATURE_LIST(CSUM_X)
#undef CSUM_X
};

/*
 * Features this CPU and OS support (AVX state enabled by the OS per XGETBV, not just CPUID),
 * minus any the user masked off with CSUM_CPU_DISABLE. Computed once; thread-safe.
 */
uint32_t csum_cpu_features(void);

/* Printable name of feature bit `bit`, or NULL when out of range. */
const char *csum_cpu_feature_name(unsigned bit);

#endif /* CSUM_CPU_FEATURES_H */
