/*
 * The lab's lists of non-csum_partial subjects, for the copy, memops and iov tables
 * (csum_partial subjects come from the library's implementation table in bench/subjects.c).
 *
 *  - copy: every row of the library's copy table this CPU supports, then csum_partial_copy
 *    itself (through dispatch, as users call it);
 *  - memops: zeroing and copying (bench/memops*.c), then the same fused copies as above, so
 *    the 400 MiB column compares streaming and normal stores for csum_partial_copy too;
 *  - iov: csum_iov, a naive "csum_partial per segment + csum_block_add" baseline, and
 *    csum_iov_copy gathering into a buffer of the lab's.
 */
#include "lab.h"

#include <stdlib.h>
#include <sys/uio.h>

enum { MAX_COPY = LAB_COPY_SUBJECTS_MAX, MAX_MEMOPS = 96, MAX_IOV = 8 };

const struct lab_copy_subject *lab_copy_subjects[MAX_COPY + 1];
const struct lab_memop *lab_memops[MAX_MEMOPS + 1];
const struct lab_iov_subject *lab_iov_subjects[MAX_IOV + 1];

static struct lab_copy_subject copy_rows[MAX_COPY];
static struct lab_memop fused_rows[MAX_COPY];

/* ---- iov subjects -------------------------------------------------------------------------- */

/* What a caller without csum_iov writes: every segment summed on its own, added at its offset. */
static csum_wsum iov_naive(const struct iovec *iov, size_t n, csum_wsum sum)
{
    size_t off = 0;
    for (size_t k = 0; k < n; k++) {
        sum = csum_block_add(sum, csum_partial(iov[k].iov_base, iov[k].iov_len, 0), off);
        off += iov[k].iov_len;
    }
    return sum;
}

/* csum_iov_copy into a buffer of ours, grown (outside the timed loops, on the first call of
 * each size) to the gather's total; if that fails the sum comes back wrong and the table's
 * oracle check refuses the subject. */
static unsigned char *gather;
static size_t gather_cap;

static csum_wsum iov_copy(const struct iovec *iov, size_t n, csum_wsum sum)
{
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += iov[k].iov_len;
    if (total > gather_cap) {
        unsigned char *p = realloc(gather, total);
        if (!p)
            return ~sum;
        gather = p;
        gather_cap = total;
    }
    return csum_iov_copy(gather, iov, n, sum);
}

static const struct lab_iov_subject iov_subjects[] = {
    { "csum_iov", "the library: segments summed by csum_partial, odd offsets byte-rotated", csum_iov },
    { "naive", "csum_partial per segment + csum_block_add, no small-segment path", iov_naive },
    { "csum_iov_copy", "the library's gather-copy (lab's destination; includes summing the lengths)", iov_copy },
};

/* ---- building the lists --------------------------------------------------------------------- */

static const struct lab_copy_subject public_copy = {
    "csum_partial_copy", "the public entry point, through dispatch (normal or streaming stores by length)",
    csum_partial_copy,
};

void lab_registry_init(void)
{
    if (lab_copy_subjects[0])
        return;
    size_t n_copy = 0;
    for (size_t i = 0; i < csum_copy_impl_count() && n_copy + 1 < MAX_COPY; i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        if (csum_copy_impl_supported(impl))
            copy_rows[n_copy++] = (struct lab_copy_subject){ impl->name, impl->description, impl->copy };
    }
    copy_rows[n_copy++] = public_copy;
    for (size_t i = 0; i < n_copy; i++) {
        fused_rows[i] = (struct lab_memop){ copy_rows[i].name, copy_rows[i].origin, MEMOP_CSUM_COPY,
                                            NULL, copy_rows[i].fn };
        lab_copy_subjects[i] = &copy_rows[i];
    }

    size_t n = lab_memops_collect(MEMOP_ZERO, lab_memops, MAX_MEMOPS);
    n += lab_memops_collect(MEMOP_COPY, lab_memops + n, MAX_MEMOPS - n);
    for (size_t i = 0; i < n_copy && n < MAX_MEMOPS; i++)
        lab_memops[n++] = &fused_rows[i];

    for (size_t i = 0; i < sizeof iov_subjects / sizeof *iov_subjects; i++)
        lab_iov_subjects[i] = &iov_subjects[i];
}
