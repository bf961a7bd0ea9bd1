/*
 * tests/secure_env_test.sh's probe: what csum_getenv (src/env.c) returns for CSUM_DISPATCH, and
 * whether the kernel marked this run secure (AT_SECURE), built with src/env.c alone for each C
 * library at hand.
 */
#include "csum_internal.h"

#include <stdio.h>
#include <sys/auxv.h>

int main(void)
{
    const char *value = csum_getenv("CSUM_DISPATCH");
    printf("secure=%lu value=%s\n", getauxval(AT_SECURE), value ? value : "(none)");
    return 0;
}
