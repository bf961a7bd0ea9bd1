/*
 * The lab's lists of non-csum_partial subjects. csum_partial subjects come from the library's
 * implementation table (bench/subjects.c); these lists are for the copy, memops and iov tables.
 * They stay empty until the library provides csum_partial_copy, its memory operations and
 * csum_iov; until then those tables print "not available yet" rather than invented rows.
 */
#include "lab.h"

#include <stddef.h>

const struct lab_copy_subject *const lab_copy_subjects[] = {
    NULL,
};

const struct lab_memop *const lab_memops[] = {
    NULL,
};

const struct lab_iov_subject *const lab_iov_subjects[] = {
    NULL,
};
