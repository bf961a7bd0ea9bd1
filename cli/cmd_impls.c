/*
 * csum impls: the implementation table as this CPU sees it.
 */
#include "cli.h"
#include "csum.h"

#include <stdlib.h>
#include <string.h>

int cmd_impls(int argc, char **argv)
{
    if (argc > 1) {
        if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
            printf("Usage: csum impls\n"
                   "List every compiled-in implementation in priority order: whether this CPU\n"
                   "supports it, which lengths csum_partial sends to it now (ACTIVE: the dispatch\n"
                   "plan, e.g. 0-127 and 128+), what it needs, and where its algorithm comes from.\n");
            return EXIT_OK;
        }
        return usage_error("impls: unexpected argument '%s'", argv[1]);
    }
    /* The ACTIVE column shows the lengths each row of the dispatch plan handles. */
    char plan[256];
    csum_dispatch_describe(plan, sizeof plan);
    printf("%-14s %-9s %-10s %-22s %s\n", "NAME", "SUPPORTED", "ACTIVE", "REQUIRES", "DESCRIPTION");
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        char range[32] = "";
        const char *p = plan;
        size_t name_len = strlen(impl->name);
        while (*p) { /* "name@from,name@from,..." */
            const char *at = strchr(p, '@');
            unsigned long long from = strtoull(at + 1, NULL, 10);
            const char *next = strchr(at, ',');
            if ((size_t)(at - p) == name_len && !strncmp(p, impl->name, name_len)) {
                if (next)
                    snprintf(range, sizeof range, "%llu-%llu", from,
                             strtoull(strchr(next + 1, '@') + 1, NULL, 10) - 1);
                else
                    snprintf(range, sizeof range, from ? "%llu+" : "all", from);
            }
            p = next ? next + 1 : at + strlen(at);
        }
        printf("%-14s %-9s %-10s %-22s %s\n", impl->name, csum_impl_supported(impl) ? "yes" : "no",
               range, impl->requires[0] ? impl->requires : "-", impl->description);
    }
    printf("\ndispatch: %s (%s)\n", plan, csum_dispatch_source());
    return EXIT_OK;
}
