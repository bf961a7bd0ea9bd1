/*
 * csum impls: the implementation tables as this CPU sees them: csum_partial's, then
 * csum_partial_copy's (with the length from which copies use non-temporal stores).
 */
#include "cli.h"
#include "csum.h"

#include <stdint.h>
#include <string.h>

/* "12 MiB", "768 KiB" or "1000 B". */
static const char *size_text(size_t n, char *buf, size_t bufsz)
{
    if (n >= (1u << 20) && n % (1u << 20) == 0)
        snprintf(buf, bufsz, "%zu MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, bufsz, "%zu KiB", n >> 10);
    else
        snprintf(buf, bufsz, "%zu B", n);
    return buf;
}

static void print_copy_table(void)
{
    const size_t threshold = csum_copy_nontemporal_threshold();
    const struct csum_copy_impl *small = csum_copy_impl_active(0), *large = csum_copy_impl_active(SIZE_MAX);
    char t[32], below[40], from[40];
    if (small == large) {
        snprintf(below, sizeof below, "always");
        from[0] = '\0';
        printf("\nCopy implementations (csum_partial_copy):\n");
    } else {
        size_text(threshold, t, sizeof t);
        snprintf(below, sizeof below, "< %s", t);
        snprintf(from, sizeof from, ">= %s", t);
        printf("\nCopy implementations (csum_partial_copy); non-temporal stores from %s up:\n", t);
    }
    printf("%-14s %-9s %-9s %-22s %s\n", "NAME", "SUPPORTED", "USED", "REQUIRES", "DESCRIPTION");
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        printf("%-14s %-9s %-9s %-22s %s\n", impl->name,
               csum_copy_impl_supported(impl) ? "yes" : "no",
               impl == small ? below : impl == large ? from : "",
               impl->requires[0] ? impl->requires : "-", impl->description);
    }
}

int cmd_impls(int argc, char **argv)
{
    if (argc > 1) {
        if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
            printf("Usage: csum impls\n"
                   "List every compiled-in implementation in priority order: whether this CPU\n"
                   "supports it, which one csum_partial uses now (*), what it needs, and where\n"
                   "its algorithm comes from. A second table lists csum_partial_copy's\n"
                   "implementations and the copy lengths each one is used for (USED).\n"
                   "CSUM_COPY_IMPL=NAME forces one copy implementation for every length.\n");
            return EXIT_OK;
        }
        return usage_error("impls: unexpected argument '%s'", argv[1]);
    }
    const struct csum_impl *active = csum_impl_active();
    printf("%-14s %-9s %-6s %-22s %s\n", "NAME", "SUPPORTED", "ACTIVE", "REQUIRES", "DESCRIPTION");
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        printf("%-14s %-9s %-6s %-22s %s\n", impl->name,
               csum_impl_supported(impl) ? "yes" : "no", impl == active ? "*" : "",
               impl->requires[0] ? impl->requires : "-", impl->description);
    }
    print_copy_table();
    return EXIT_OK;
}
