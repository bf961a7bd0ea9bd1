/*
 * The implementation table: one row per implementation of csum_partial, in priority order
 * (the first row this CPU supports is what "auto" picks). Dispatch, the tests, the lab and the
 * CLI all read this list through csum_impl_get(); adding an implementation is one file that
 * defines `csum_impl_<id>` plus one row here.
 *
 * No include guard on purpose: included with different definitions of CSUM_IMPL_ROW.
 */
CSUM_IMPL_ROW(generic)
