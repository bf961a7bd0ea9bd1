/*
 * The version of the library itself, as opposed to CSUM_VERSION_STRING, which is the version
 * of the header a program was compiled with: a program linked to libcsum.so can compare them.
 */
#include "csum_internal.h"

const char *csum_version(void)
{
    return CSUM_VERSION_STRING;
}
