/*
 * A program that uses every function of csum.h the way an outside user would, with answers it
 * can check by hand. Written in the common subset of C99 and C++11: tests/header_test.sh
 * compiles it as C99, C11 and C++ (-pedantic, many warnings, errors), and
 * tests/install_test.sh builds it against an installed csum through pkg-config and CMake.
 * Prints one line and exits 0 when every check holds.
 */
#include <csum.h> /* first: the header must stand on its own */

#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "consumer: FAILED: %s\n", what);
        failures++;
    }
}

/* The checksum as it is stored (two bytes, network order) read as a number, e.g. 0x220d. */
static unsigned stored_value(csum_sum16 check_field)
{
    unsigned char b[2];
    memcpy(b, &check_field, sizeof b);
    return (unsigned)b[0] << 8 | b[1];
}

int main(void)
{
    /* RFC 1071, section 3: these bytes sum to 0xddf2, so the checksum is 0x220d. */
    static const unsigned char rfc[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
    size_t runtime_len = sizeof rfc;
    char plan[128];

    check(strcmp(csum_version(), CSUM_VERSION_STRING) == 0, "csum_version() = CSUM_VERSION_STRING");
    check(CSUM_VERSION_NUMBER == CSUM_VERSION_MAJOR * 10000 + CSUM_VERSION_MINOR * 100 +
                                     CSUM_VERSION_PATCH, "CSUM_VERSION_NUMBER");

    /* csum_partial with a constant length (inlined where the compiler can) and a run-time one. */
    check(stored_value(csum_fold(csum_partial(rfc, 8, 0))) == 0x220d, "RFC 1071 example");
    check(stored_value(csum_fold(csum_partial(rfc, runtime_len, 0))) == 0x220d,
          "RFC 1071 example, run-time length");

    /* Pieces: the odd-offset one is byte-rotated by csum_block_add. */
    csum_wsum whole = csum_partial(rfc, runtime_len, 0);
    csum_wsum head = csum_partial(rfc, 3, 0), tail = csum_partial(rfc + 3, 5, 0);
    check(csum_fold(csum_block_add(head, tail, 3)) == csum_fold(whole), "csum_block_add");
    check(csum_fold(csum_sub(csum_add(whole, 0x1234), 0x1234)) == csum_fold(whole),
          "csum_add then csum_sub");
    /* The same through the exported functions (parentheses defeat the inline macros). */
    check((csum_fold)((csum_block_add)(head, tail, 3)) == (csum_fold)(whole),
          "exported csum_block_add, csum_fold");
    check((csum_fold)((csum_sub)((csum_add)(whole, 0x1234), 0x1234)) == (csum_fold)(whole),
          "exported csum_add, csum_sub");
    check(stored_value((csum_fold)((csum_partial)(rfc, 8, 0))) == 0x220d, "exported csum_partial");

    /* The implementation table and the dispatcher. */
    size_t n = csum_impl_count(), supported = 0;
    check(n > 0 && csum_impl_get(n) == NULL, "csum_impl_count, csum_impl_get");
    for (size_t i = 0; i < n; i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        check(csum_impl_find(impl->name) == impl, "csum_impl_find");
        if (csum_impl_supported(impl)) {
            supported++;
            check(stored_value(csum_fold(impl->partial(rfc, runtime_len, 0))) == 0x220d,
                  impl->name);
        }
    }
    check(supported > 0 && csum_impl_supported(csum_impl_find("generic")), "generic supported");
    check(csum_impl_select("generic") == 0 && strcmp(csum_impl_active()->name, "generic") == 0,
          "csum_impl_select, csum_impl_active");
    check(csum_impl_select("no-such-implementation") == -1, "csum_impl_select rejects");
    check(csum_dispatch_set("generic@0") == 0 && csum_dispatch_source() != NULL, "csum_dispatch_set");
    check(csum_dispatch_describe(plan, sizeof plan) == strlen("generic@0") &&
          strcmp(plan, "generic@0") == 0, "csum_dispatch_describe");
    check(csum_dispatch_set("auto") == 0, "csum_dispatch_set auto");
    check(stored_value(csum_fold(csum_partial(rfc, runtime_len, 0))) == 0x220d, "auto again");

    if (failures)
        return 1;
    csum_dispatch_describe(plan, sizeof plan);
    printf("consumer: csum %s, %zu implementations (%zu supported), plan %s: all checks passed\n",
           csum_version(), n, supported, plan);
    return 0;
}
