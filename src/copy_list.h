/*
 * The copy table: one row per implementation of csum_partial_copy, in priority order. Under
 * "auto", copies below csum_copy_nontemporal_threshold() use the first supported row with
 * normal stores, larger ones the first supported non-temporal row (pub.nontemporal). The
 * tests, the lab and `csum impls` read it through csum_copy_impl_get(); adding an
 * implementation is one file that defines `csum_copy_impl_<id>` plus one row here.
 *
 * No include guard on purpose: included with different definitions of CSUM_COPY_ROW.
 */
#if defined(__x86_64__)
CSUM_COPY_ROW(avx512_vnni)
CSUM_COPY_ROW(avx512)
CSUM_COPY_ROW(avx2)
CSUM_COPY_ROW(x86_adc)
#endif
CSUM_COPY_ROW(generic)
#if defined(__x86_64__)
CSUM_COPY_ROW(avx512_vnni_nt)
CSUM_COPY_ROW(avx2_nt)
#endif
