/*
 * Fuzz target: the dispatch-plan parser. Plans arrive from outside the program (the
 * CSUM_DISPATCH environment variable, a file written by `csum tune`, csum_dispatch_set()), so
 * any text must be either accepted or refused cleanly. The input is the plan text.
 *
 * Checks:
 *  - a refused plan leaves the current plan unchanged;
 *  - an accepted plan reads back (csum_dispatch_describe) in canonical form, which is itself
 *    accepted and reads back the same; csum_impl_active() names its last range;
 *  - csum_partial follows it correctly: at each range's first length, the length before it,
 *    and the length after it (those below 4 KiB), the checksum equals the oracle's.
 */
#include "fuzz_common.h"

#include "csum.h"
#include "csum_oracle.h"

#include <string.h>

enum { MAX_TEXT = 512, DATA_LEN = 4096 };

static unsigned char data[DATA_LEN];

static void check_length(size_t len, const char *plan)
{
    if (len > DATA_LEN)
        return;
    uint16_t want = oracle_checksum(data, len, 0x5a5a);
    uint16_t got = csum16_network_value(csum_fold(csum_partial(data, len, 0x5a5a)));
    FUZZ_CHECK(got == want, "plan \"%s\", length %zu: 0x%04x, oracle 0x%04x", plan, len, got, want);
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
    if (data[0] == 0 && data[1] == 0)
        testdata_fill(data, sizeof data, 0xd15a7c4);
    char text[MAX_TEXT + 1], before[MAX_TEXT], after[MAX_TEXT], again[MAX_TEXT];
    size_t n = size < MAX_TEXT ? size : MAX_TEXT;
    memcpy(text, input, n);
    text[n] = '\0';

    csum_dispatch_describe(before, sizeof before);
    if (csum_dispatch_set(text) != 0) {
        csum_dispatch_describe(after, sizeof after);
        FUZZ_CHECK(strcmp(before, after) == 0, "refused plan \"%s\" changed \"%s\" to \"%s\"",
                   text, before, after);
        return 0;
    }
    size_t len = csum_dispatch_describe(after, sizeof after);
    FUZZ_CHECK(len > 0 && len < sizeof after, "plan \"%s\" reads back as %zu bytes", text, len);
    FUZZ_CHECK(csum_dispatch_set(after) == 0, "plan \"%s\" reads back as \"%s\", which is refused",
               text, after);
    csum_dispatch_describe(again, sizeof again);
    FUZZ_CHECK(strcmp(after, again) == 0, "plan \"%s\": \"%s\" reads back as \"%s\"", text, after,
               again);

    /* Walk the canonical form "name@from,name@from...". */
    const char *last_name = after;
    for (const char *range = after; range;) {
        const char *at = strchr(range, '@');
        FUZZ_CHECK(at != NULL, "plan \"%s\" reads back as \"%s\", a range without '@'", text, after);
        size_t from = (size_t)strtoull(at + 1, NULL, 10);
        if (from > 0)
            check_length(from - 1, after);
        check_length(from, after);
        if (from < DATA_LEN)
            check_length(from + 1, after);
        last_name = range;
        range = strchr(at, ',');
        range = range ? range + 1 : NULL;
    }
    const char *active = csum_impl_active()->name;
    size_t active_len = strlen(active);
    FUZZ_CHECK(strncmp(last_name, active, active_len) == 0 && last_name[active_len] == '@',
               "plan \"%s\": csum_impl_active() is %s", after, active);
    return 0;
}
