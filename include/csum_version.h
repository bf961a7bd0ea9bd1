/*
 * csum_version.h: the one place the version is set (zstd and xxHash keep theirs in a header
 * too). CMakeLists.txt reads these three numbers for project(), the shared library's file
 * name, csum(1), csum.pc and the CMake package, so `-Iinclude` alone is enough to build
 * against the source tree. Included by csum.h; installed beside it. See CHANGELOG.md.
 */
#ifndef CSUM_VERSION_H
#define CSUM_VERSION_H

#define CSUM_VERSION_MAJOR 1
#define CSUM_VERSION_MINOR 0
#define CSUM_VERSION_PATCH 0
/** MAJOR * 10000 + MINOR * 100 + PATCH, for `#if CSUM_VERSION_NUMBER >= 10100`. */
#define CSUM_VERSION_NUMBER \
    (CSUM_VERSION_MAJOR * 10000 + CSUM_VERSION_MINOR * 100 + CSUM_VERSION_PATCH)
#define CSUM_VERSION_QUOTE_(x) #x
#define CSUM_VERSION_QUOTE(x) CSUM_VERSION_QUOTE_(x)
/** "MAJOR.MINOR.PATCH" of the header; csum_version() gives the library's. */
#define CSUM_VERSION_STRING                                                               \
    CSUM_VERSION_QUOTE(CSUM_VERSION_MAJOR) "." CSUM_VERSION_QUOTE(CSUM_VERSION_MINOR) "." \
        CSUM_VERSION_QUOTE(CSUM_VERSION_PATCH)

#endif /* CSUM_VERSION_H */
