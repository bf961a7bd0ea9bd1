/*
 * CPU features the kernels depend on, detected once.
 *
 * The list is written once as an X-macro (zstd/xxHash style): the bit numbers, the masks, the
 * names printed by `csum impls` and accepted by CSUM_CPU_DISABLE all come from it. Names are
 * spelled as the compilers spell the target option (`avx512vnni` is both gcc's and clang's
 * target("avx512vnni")), so src/isa.h can turn a kernel's feature list into its compiler
 * target as well as its run-time gate. erms, fsrm and neon enable no compiler target: an ISA
 * that lists them does not compile on x86 (the target string would be rejected).
 */
#ifndef CSUM_CPU_FEATURES_H
#define CSUM_CPU_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#define CSUM_CPU_FEATURE_LIST(X) \
    X(bmi2)                      \
    X(adx)                       \
    X(erms)                      \
    X(fsrm)                      \
    X(avx2)                      \
    X(avx512f)                   \
    X(avx512dq)                  \
    X(avx512bw)                  \
    X(avx512vl)                  \
    X(avx512vnni)                \
    X(avxvnni)                   \
    X(neon)

enum csum_cpu_feature_bit {
#define CSUM_X(name) CSUM_CPU_BIT_##name,
    CSUM_CPU_FEATURE_LIST(CSUM_X)
#undef CSUM_X
    CSUM_CPU_FEATURE_COUNT
};

/* CSUM_CPU_avx2 etc.: the mask of one feature. */
enum csum_cpu_feature_mask {
#define CSUM_X(name) CSUM_CPU_##name = 1u << CSUM_CPU_BIT_##name,
    CSUM_CPU_FEATURE_LIST(CSUM_X)
#undef CSUM_X
};

/*
 * Features this CPU and OS support (AVX state enabled by the OS per XGETBV, not just CPUID),
 * minus any the user masked off with CSUM_CPU_DISABLE. Computed once; thread-safe.
 */
uint32_t csum_cpu_features(void);

/* The names in CSUM_CPU_DISABLE that are not features, so were ignored, comma-separated
 * ("" when none): like snprintf, at most `size` bytes, returns the whole length. For
 * `csum impls`, which says so: the library itself never prints. */
size_t csum_cpu_disable_ignored(char *buf, size_t size);

/* The features this CPU and OS support that CSUM_CPU_DISABLE hides from this process (0 when
 * it hides nothing): `csum tune --write` must not store, for every program, a plan chosen
 * without rows that only this process cannot run. */
uint32_t csum_cpu_features_hidden(void);

/* Printable name of feature bit `bit`, or NULL when out of range. */
const char *csum_cpu_feature_name(unsigned bit);

/* What this CPU is, for choosing a measured dispatch plan (src/dispatch_defaults.c). */
struct csum_cpu_id {
    char vendor[13]; /* "GenuineIntel", "AuthenticAMD", ... ("" when unknown) */
    unsigned family; /* display family (base + extended) */
    unsigned model;  /* display model (extended model included) */
};
void csum_cpu_identify(struct csum_cpu_id *id);

/* How the compiled-in defaults identify this CPU: csum_cpu_identify, unless the test suite
 * (tests/test_util.c) points it elsewhere before the first dispatch, to see the plans another
 * kind of CPU gets. A pointer rather than the linker's --wrap, which cannot reach a call
 * resolved inside the library, as link-time optimisation (distributions build with -flto)
 * resolves it. */
extern void (*csum_cpu_identify_for_defaults)(struct csum_cpu_id *id);

/* The same as text, "AuthenticAMD family 25 model 17", for the plan file `csum tune --write`
 * stores and the library checks (a home directory shared by machines of different kinds);
 * "" when the CPU does not say (non-x86). */
void csum_cpu_class(char *buf, size_t size);

#endif /* CSUM_CPU_FEATURES_H */
