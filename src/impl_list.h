/*
 * The implementation table: one row per implementation of csum_partial, in priority order
 * (the first row this CPU supports is what "auto" picks). Dispatch, the tests, the lab and the
 * CLI all read this list through csum_impl_get(); adding an implementation is one file that
 * defines `csum_impl_<id>` plus one row here.
 *
 * No include guard on purpose: included with different definitions of CSUM_IMPL_ROW.
 */
#if defined(__x86_64__)
CSUM_IMPL_ROW(avx512_vnni)
CSUM_IMPL_ROW(avx512)
CSUM_IMPL_ROW(avx2)
#endif
#if defined(__aarch64__)
CSUM_IMPL_ROW(neon)
#endif
CSUM_IMPL_ROW(generic)
