/*
 * csum impls: the implementation table as this CPU sees it.
 */
#include "cli.h"
#include "csum.h"

#include <string.h>

int cmd_impls(int argc, char **argv)
{
    if (argc > 1) {
        if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
            printf("Usage: csum impls\n"
                   "List every compiled-in implementation in priority order: whether this CPU\n"
                   "supports it, which one csum_partial uses now (*), what it needs, and where\n"
                   "its algorithm comes from.\n");
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
    return EXIT_OK;
}
