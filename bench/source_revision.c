/*
 * Which source revision the lab was built from: `git 9ca13d2e1f0a-dirty` (uncommitted changes)
 * or `unknown (not a git checkout)`. The header is written at build time
 * (cmake/source_revision.cmake), and this file alone includes it, so a new commit recompiles
 * one file.
 */
#include "lab.h"
#include "lab_source_revision.h"

const char *lab_build_source(void)
{
    return CSUM_LAB_SOURCE_REVISION;
}
