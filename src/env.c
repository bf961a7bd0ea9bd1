/*
 * The library's one way to read its environment variables. Never in a set-uid or set-gid
 * program (or one the kernel otherwise marks secure, such as one that gained capabilities):
 * there the environment is the caller's, and CSUM_DISPATCH_FILE names a file to read.
 * glibc has secure_getenv for that; other C libraries on Linux (musl, bionic) have getauxval,
 * and AT_SECURE is the kernel's flag that secure_getenv reads. The BSDs and macOS have
 * issetugid (true in a program that changed its ids, and its children until they exec).
 * Elsewhere, plain getenv.
 */
#define _GNU_SOURCE /* secure_getenv */
#include "csum_internal.h"

#include <stdlib.h>

#if !defined(__GLIBC__) && defined(__linux__) && defined(__has_include)
#  if __has_include(<sys/auxv.h>)
#    include <sys/auxv.h>
#    define CSUM_HAVE_GETAUXVAL 1
#  endif
#endif
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__) || \
    defined(__DragonFly__)
#  include <unistd.h>
#  define CSUM_HAVE_ISSETUGID 1
#endif

const char *csum_getenv(const char *name)
{
#if defined(__GLIBC__)
    return secure_getenv(name);
#elif defined(CSUM_HAVE_GETAUXVAL) && defined(AT_SECURE)
    return getauxval(AT_SECURE) ? NULL : getenv(name);
#elif defined(CSUM_HAVE_ISSETUGID)
    return issetugid() ? NULL : getenv(name);
#else
    return getenv(name);
#endif
}
