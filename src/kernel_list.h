/*
 * THE kernel table: one row per implementation, CSUM_KERNEL(id) for a row defined as
 * `csum_kernel_<id>` in src/<arch>/<id>.c (or src/reference/<id>.c). Dispatch, the tests, the
 * fuzz targets, the lab and the CLI all read it (through src/kernel_table.c); adding a kernel
 * is its file plus one line here (see src/kernel.h for what the file contains).
 *
 * Order: product rows first, widest ISA first, then the historical reference rows. That is the
 * order csum_impl_get() lists; it is not a speed ranking. Which row runs for which length is the
 * dispatch plan (src/dispatch_defaults.c, csum_dispatch_describe()), and only product rows are
 * ever chosen by it. The tests check that no product row follows a reference row.
 *
 * No include guard on purpose: included with different definitions of CSUM_KERNEL.
 */
/* ---- product rows: what dispatch chooses from ---- */
#if defined(__x86_64__)
CSUM_KERNEL(avx512_vnni) /* src/x86/avx512_vnni.c */
CSUM_KERNEL(avx512)      /* src/x86/avx512.c */
CSUM_KERNEL(avx_vnni)    /* src/x86/avx_vnni.c */
CSUM_KERNEL(avx2)        /* src/x86/avx2.c */
CSUM_KERNEL(x86_scalar)  /* src/x86/x86_scalar.c */
#endif
#if defined(__aarch64__)
CSUM_KERNEL(neon)        /* src/arm/neon.c */
#endif
CSUM_KERNEL(generic)     /* src/generic/generic.c */

/* ---- reference rows (src/reference/): historical algorithms, for comparison ---- */
#if defined(__x86_64__)
CSUM_KERNEL(linux_6_8)
CSUM_KERNEL(x86_adx)
CSUM_KERNEL(x86_2stream)
CSUM_KERNEL(x86_32bit4)
CSUM_KERNEL(x86_dumazet)
CSUM_KERNEL(x86_herbert)
CSUM_KERNEL(x86_laight)
CSUM_KERNEL(x86_2002)
#endif
