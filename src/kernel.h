/*
 * The kernel table's row type. A kernel is one implementation of the checksum for one ISA, with
 * every entry point it has: csum_partial always; csum_partial_copy with normal stores and with
 * streaming stores where it has them; csum_ipv4_header_batch where it has one. The public
 * tables (csum_impl_*, csum_copy_impl_*) are views of these rows (src/kernel_table.c), and the
 * dispatcher (src/dispatch.c) picks entry points from them.
 *
 * A kernel file looks like this (src/x86/avx2.c is a complete example):
 *
 *     #define CSUM_KERNEL_ISA avx2          // an ISA of src/isa.h
 *     #include "kernel.h"
 *     CSUM_TARGET_BEGIN                     // everything in here is compiled for that ISA
 *     static csum_wsum partial(const void *buf, size_t len, csum_wsum sum) { ... }
 *     CSUM_TARGET_END
 *     const struct csum_kernel csum_kernel_avx2 = {
 *         CSUM_KERNEL_NAME("avx2"),         // the gate and `requires` come from the ISA
 *         .sum.partial = partial,
 *         .sum.description = "...",
 *     };
 *
 * plus one line CSUM_KERNEL(avx2) in src/kernel_list.h. Nothing else needs editing: the tests,
 * the fuzz targets, the lab and the CLI walk the table.
 */
#ifndef CSUM_KERNEL_H
#define CSUM_KERNEL_H

#include "csum_internal.h"
#include "isa.h"

/* csum_ipv4_header_batch's signature. */
typedef void (*csum_ipv4_batch_fn)(const void *const *hdrs, size_t n, csum_sum16 *out);

struct csum_kernel {
    struct csum_impl sum;           /* the csum_impl view: always present */
    struct csum_copy_impl copy;     /* csum_partial_copy, normal stores (.copy NULL: none) */
    struct csum_copy_impl copy_nt;  /* streaming stores, named "<name>-nt" (.copy NULL: none) */
    csum_ipv4_batch_fn ipv4_batch;  /* NULL: none */
    uint32_t features;              /* CSUM_CPU_* bits its ISA needs: the run-time gate */
};

/*
 * The identity of a row, from its public name and its file's ISA: the names of its views, the
 * gate and the `requires` text. A file that defines no CSUM_KERNEL_ISA cannot use it.
 * CSUM_REFERENCE_NAME marks a historical algorithm kept for comparison (src/reference/):
 * reachable by name, listed apart, never chosen by dispatch on its own.
 */
#define CSUM_KERNEL_IDENTITY_(isa, name_, ref)                                               \
    .sum.name = name_, .sum.requires = CSUM_ISA_REQUIRES(isa), .sum.reference = ref,         \
    .copy.name = name_, .copy.requires = CSUM_ISA_REQUIRES(isa),                             \
    .copy_nt.name = name_ "-nt", .copy_nt.requires = CSUM_ISA_REQUIRES(isa),                 \
    .copy_nt.nontemporal = 1, .features = CSUM_ISA_MASK(isa)
#define CSUM_KERNEL_IDENTITY(isa, name_, ref) CSUM_KERNEL_IDENTITY_(isa, name_, ref)
#define CSUM_KERNEL_NAME(name_) CSUM_KERNEL_IDENTITY(CSUM_KERNEL_ISA, name_, 0)
#define CSUM_REFERENCE_NAME(name_) CSUM_KERNEL_IDENTITY(CSUM_KERNEL_ISA, name_, 1)

/* Every row, declared from the list. */
#define CSUM_KERNEL(id) extern const struct csum_kernel csum_kernel_##id;
#include "kernel_list.h"
#undef CSUM_KERNEL

/* The table (src/kernel_table.c): rows in list order, NULL past the end. */
const struct csum_kernel *csum_kernel_at(size_t i);
/* Nonzero if this CPU (and OS) has every feature the row's ISA needs. */
int csum_kernel_supported(const struct csum_kernel *k);
/* The row a public view belongs to, or NULL for a pointer that is not one of ours. */
const struct csum_kernel *csum_kernel_of_impl(const struct csum_impl *impl);
const struct csum_kernel *csum_kernel_of_copy(const struct csum_copy_impl *impl);

#endif /* CSUM_KERNEL_H */
