/*
 * lab_peer_needs: the instruction-set extensions the compiler was allowed to use in the peer
 * object that includes this header, as " sse4.1 avx2 ..." (names as __builtin_cpu_supports
 * spells them). A peer is built with its own project's flags (DPDK's -march=corei7) or with
 * -march=native on the build machine, so its code may need what the CPU running the lab lacks;
 * lab_cpu_lacks() (peer_cpu.c) checks the list before the peer is ever called.
 *
 * Listed: the extensions a compiler uses on its own, without intrinsics (vector ISAs and scalar
 * bit manipulation). Those reached only through intrinsics (rdrand, sha, clflushopt, ...)
 * cannot appear in a peer's plain C. The list is data, so no code of the peer object runs
 * before the check. Include it from exactly one file per peer object.
 */
#ifndef LAB_PEER_NEEDS_H
#define LAB_PEER_NEEDS_H

/* Empty on other architectures (there -march=native is the build machine's own baseline). */
static const char lab_peer_needs[] = ""
#if defined(__x86_64__)
#ifdef __SSE3__
    " sse3"
#endif
#ifdef __SSSE3__
    " ssse3"
#endif
#ifdef __SSE4_1__
    " sse4.1"
#endif
#ifdef __SSE4_2__
    " sse4.2"
#endif
#ifdef __SSE4A__
    " sse4a"
#endif
#ifdef __POPCNT__
    " popcnt"
#endif
#ifdef __LZCNT__
    " lzcnt"
#endif
#ifdef __MOVBE__
    " movbe"
#endif
#ifdef __BMI__
    " bmi"
#endif
#ifdef __BMI2__
    " bmi2"
#endif
#ifdef __AVX__
    " avx"
#endif
#ifdef __F16C__
    " f16c"
#endif
#ifdef __FMA__
    " fma"
#endif
#ifdef __AVX2__
    " avx2"
#endif
#ifdef __AVXVNNI__
    " avxvnni"
#endif
#ifdef __GFNI__
    " gfni"
#endif
#ifdef __VAES__
    " vaes"
#endif
#ifdef __VPCLMULQDQ__
    " vpclmulqdq"
#endif
#ifdef __AVX512F__
    " avx512f"
#endif
#ifdef __AVX512BW__
    " avx512bw"
#endif
#ifdef __AVX512VL__
    " avx512vl"
#endif
#ifdef __AVX512DQ__
    " avx512dq"
#endif
#ifdef __AVX512CD__
    " avx512cd"
#endif
#ifdef __AVX512VNNI__
    " avx512vnni"
#endif
#ifdef __AVX512IFMA__
    " avx512ifma"
#endif
#ifdef __AVX512VBMI__
    " avx512vbmi"
#endif
#ifdef __AVX512VBMI2__
    " avx512vbmi2"
#endif
#ifdef __AVX512BITALG__
    " avx512bitalg"
#endif
#ifdef __AVX512VPOPCNTDQ__
    " avx512vpopcntdq"
#endif
#ifdef __AVX512BF16__
    " avx512bf16"
#endif
#ifdef __AVX512FP16__
    " avx512fp16"
#endif
#ifdef __AVX512VP2INTERSECT__
    " avx512vp2intersect"
#endif
#endif
    ;

#endif /* LAB_PEER_NEEDS_H */
