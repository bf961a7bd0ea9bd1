/*
 * csum impls: the implementation tables as this CPU sees them: csum_partial's, then
 * csum_partial_copy's (with the length from which copies use non-temporal stores).
 */
#include "cli.h"
#include "csum.h"

#include <stdlib.h>
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
                   "supports it, which lengths csum_partial sends to it now (ACTIVE: the dispatch\n"
                   "plan, e.g. 0-127 and 128+), what it needs, and where its algorithm comes from.\n"
                   "A second table lists csum_partial_copy's implementations and the copy lengths\n"
                   "each one is used for (USED). CSUM_COPY_IMPL=NAME forces one copy\n"
                   "implementation for every length.\n");
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
    print_copy_table();
    return EXIT_OK;
}
