/*
 * What the architecture-neutral dispatcher (src/dispatch.c) may run in place, x86-64's part.
 * The build puts exactly one arch_hooks.h on the include path: this one on x86-64,
 * src/generic/arch_hooks.h elsewhere.
 *
 * Short buffers are the common case (headers), and there a second indirect jump costs about a
 * tick: when a plan's first range is x86-scalar, csum_partial runs its short path right in the
 * dispatcher for lengths up to CSUM_ARCH_SHORT_MAX (x86_scalar.h: straight-line code, no calls,
 * baseline instructions only). The dispatcher tests for it first, against a bound kept at a
 * fixed address, so a short call pays one compare more than the row itself.
 */
#ifndef CSUM_ARCH_HOOKS_H
#define CSUM_ARCH_HOOKS_H

#include "x86_scalar.h"

#define CSUM_ARCH_SHORT_KERNEL csum_kernel_x86_scalar
#define CSUM_ARCH_SHORT_MAX 256
#define csum_arch_short_partial x86_scalar_partial_short
/* The same for copies shorter than 64 bytes (x86_scalar_copy_short: the short sum and
 * overlapping moves), which the automatic copy plan gives to x86-scalar on every x86-64 CPU. */
#define CSUM_ARCH_SHORT_COPY_MAX 63
#define csum_arch_short_copy x86_scalar_copy_short

#endif /* CSUM_ARCH_HOOKS_H */
