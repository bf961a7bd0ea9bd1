/*
 * A program with globals of its own named as the parameters and locals of inline code usually
 * are (sum, len, buf, offset, a, b, ...), declared before csum.h: a project built with -Wshadow
 * -Werror includes the header after its own declarations, and a parameter of one of the
 * header's inline functions named like one of them is a warning there. Written in the common
 * subset of C99 and C++11: tests/header_test.sh compiles it as C and C++ with each compiler
 * (-Wshadow, with clang -Wshadow-all too, as errors) and runs it; with -DSHADOW_FUNCTIONS the
 * names are functions instead of variables.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The names csum.h's inline functions and macros had for parameters and locals, and other
 * short names such code tends to use. */
#define SHADOW_NAMES(X)                                                                   \
    X(sum) X(len) X(buf) X(offset) X(off) X(a) X(b) X(r) X(block) X(p) X(v) X(w) X(even) \
    X(odd) X(acc) X(s) X(n) X(i) X(x) X(data) X(from) X(to) X(size) X(value) X(word)

#ifdef SHADOW_FUNCTIONS
#  define SHADOW_DECLARE(name) int name(void);
#else
#  define SHADOW_DECLARE(name) int name;
#endif
SHADOW_NAMES(SHADOW_DECLARE)

#include <csum.h>

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "shadow_names: FAILED: %s\n", what);
        failures++;
    }
}

int main(void)
{
    /* RFC 1071, section 3: these bytes sum to 0xddf2, so the checksum is 0x220d. */
    static const unsigned char rfc[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
    unsigned char stored[2];
    const csum_wsum whole = csum_partial(rfc, sizeof rfc, 0);
    const csum_wsum head = csum_partial(rfc, 3, 0), tail = csum_partial(rfc + 3, 5, 0);
    const csum_sum16 check_field = csum_inline_fold(whole);

    memcpy(stored, &check_field, sizeof stored);
    expect(stored[0] == 0x22 && stored[1] == 0x0d, "csum_inline_fold: RFC 1071 example");
    expect(csum_inline_fold(csum_inline_block_add(head, tail, 3)) == check_field,
           "csum_inline_block_add");
    expect(csum_inline_fold(csum_inline_block_sub(whole, tail, 3)) == csum_inline_fold(head),
           "csum_inline_block_sub");
    expect(csum_inline_fold(~csum_inline_unfold(check_field)) == check_field,
           "csum_inline_unfold");
    expect(csum_inline_fold(csum_inline_sub(csum_inline_add(whole, 0x1234), 0x1234)) ==
               check_field, "csum_inline_add, csum_inline_sub");
    /* The plain names: the inline macros in C, the exported functions in C++. */
    expect(csum_fold(csum_block_add(head, tail, 3)) == check_field, "csum_block_add");
    expect(csum_fold(csum_block_sub(whole, tail, 3)) == csum_fold(head), "csum_block_sub");
    expect(csum_fold(csum_sub(csum_add(whole, 0x1234), 0x1234)) == check_field,
           "csum_add, csum_sub");
    expect(csum_fold(~csum_unfold(check_field)) == check_field, "csum_unfold");
#if defined(__GNUC__) && !defined(CSUM_NO_INLINE)
    expect(csum_inline_fold(csum_inline_partial(rfc, 8, 0)) == check_field, "csum_inline_partial");
    expect(csum_inline_fold(csum_inline_partial(rfc, 4, csum_partial(rfc + 4, 4, 0))) ==
               check_field, "csum_inline_partial, continued");
#endif
    if (failures)
        return 1;
    printf("shadow_names: all checks passed\n");
    return 0;
}
