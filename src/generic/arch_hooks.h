/*
 * What the architecture-neutral dispatcher (src/dispatch.c) may run in place: nothing, on
 * architectures without an inline short path (see src/x86/arch_hooks.h for what one provides:
 * CSUM_ARCH_SHORT_KERNEL, CSUM_ARCH_SHORT_MAX and csum_arch_short_partial, and for copies
 * CSUM_ARCH_SHORT_COPY_MAX and csum_arch_short_copy).
 */
#ifndef CSUM_ARCH_HOOKS_H
#define CSUM_ARCH_HOOKS_H
#endif /* CSUM_ARCH_HOOKS_H */
