/* Standard output's first failed write, kept: see stdout_error.h. */
#include "stdout_error.h"

#include <errno.h>
#include <stdio.h>

static int seen, seen_errno;

int stdout_error_errno(void)
{
    if (!seen && ferror(stdout)) {
        seen = 1;
        seen_errno = errno; /* right after the write, as the callers promise */
    }
    return seen_errno;
}
