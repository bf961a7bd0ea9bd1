/*
 * The implementation table: one row per implementation of csum_partial, in priority order
 * (the first row this CPU supports is what "auto" picks). Dispatch, the tests, the lab and the
 * CLI all read this list through csum_impl_get(); adding an implementation is one file that
 * defines `csum_impl_<id>` plus one row here.
 *
 * No include guard on purpose: included with different definitions of CSUM_IMPL_ROW.
 */
#if defined(__x86_64__)
/* SIMD (src/x86/): what "auto" uses for all but short buffers. */
CSUM_IMPL_ROW(avx512_vnni)
CSUM_IMPL_ROW(avx512)
CSUM_IMPL_ROW(avx2)
/* x86-64 scalar family (src/x86/): our best first, then the algorithms it is measured against. */
CSUM_IMPL_ROW(scalar)
CSUM_IMPL_ROW(linux68)
CSUM_IMPL_ROW(adx)
CSUM_IMPL_ROW(2stream)
CSUM_IMPL_ROW(32bit4)
CSUM_IMPL_ROW(dumazet)
CSUM_IMPL_ROW(herbert)
CSUM_IMPL_ROW(laight)
CSUM_IMPL_ROW(x86_2002)
#endif
#if defined(__aarch64__)
CSUM_IMPL_ROW(neon)
#endif
CSUM_IMPL_ROW(generic)
