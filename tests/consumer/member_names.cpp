/*
 * C++ code of its own with functions named like csum.h's: class members and a namespace's
 * functions called csum_fold, csum_unfold, csum_add, csum_sub, csum_block_add, csum_block_sub
 * and csum_partial. Including
 * csum.h must leave them alone (in C they would be its inline macros), and the inline paths
 * must still be there under their own names, csum_inline_*. tests/header_test.sh compiles it
 * with each C++ compiler and standard (-pedantic, many warnings, errors) and runs it.
 */
#include <csum.h>

#include <cstdio>
#include <cstring>

namespace app {
/* Not checksums at all: any meaning, any signature. */
static int csum_fold(int x) { return -x; }
static size_t csum_partial(const char *text) { return std::strlen(text); }
}

/* A class whose members a macro named csum_add(a, b) would have rewritten. */
class Counter {
public:
    unsigned csum_add(unsigned a, unsigned b) const { return a + b; }
    unsigned csum_sub(unsigned a, unsigned b) const { return a - b; }
    unsigned csum_fold(unsigned s) const { return s & 0xffff; }
    unsigned csum_unfold(unsigned s) const { return s << 16; }
    unsigned csum_block_add(unsigned s, unsigned block, size_t offset) const
    {
        return s + block * static_cast<unsigned>(offset);
    }
    unsigned csum_block_sub(unsigned s, unsigned block, size_t offset) const
    {
        return s - block * static_cast<unsigned>(offset);
    }
    unsigned csum_partial(const void *, size_t len, unsigned s) const
    {
        return s + static_cast<unsigned>(len);
    }
};

static int failures;

static void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "member_names: FAILED: %s\n", what);
        failures++;
    }
}

int main()
{
    const Counter c;
    check(c.csum_add(1, 2) == 3 && c.csum_sub(5, 2) == 3 && c.csum_fold(0x12345) == 0x2345 &&
              c.csum_unfold(1) == 0x10000 &&
              c.csum_block_add(1, 2, 3) == 7 && c.csum_block_sub(7, 2, 3) == 1 &&
              c.csum_partial(nullptr, 4, 1) == 5,
          "member functions named like csum.h's");
    check(app::csum_fold(3) == -3 && app::csum_partial("abc") == 3,
          "namespace functions named like csum.h's");

    /* The exported functions by their plain names, and the inline code by its own. */
    static const unsigned char rfc[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
    const csum_wsum whole = csum_partial(rfc, sizeof rfc, 0);
    const csum_wsum head = csum_partial(rfc, 3, 0), tail = csum_partial(rfc + 3, 5, 0);
    check(csum_inline_fold(whole) == csum_fold(whole), "csum_inline_fold");
    check(csum_inline_unfold(csum_fold(whole)) == csum_unfold(csum_fold(whole)),
          "csum_inline_unfold");
    check(csum_inline_add(whole, 0x1234) == csum_add(whole, 0x1234), "csum_inline_add");
    check(csum_inline_sub(whole, 0x1234) == csum_sub(whole, 0x1234), "csum_inline_sub");
    check(csum_inline_fold(csum_inline_block_add(head, tail, 3)) == csum_fold(whole),
          "csum_inline_block_add");
    check(csum_inline_fold(csum_inline_block_sub(whole, tail, 3)) == csum_fold(head),
          "csum_inline_block_sub");
#if defined(__GNUC__) && !defined(CSUM_NO_INLINE)
    check(csum_fold(csum_inline_partial(rfc, 8, 0)) == csum_fold(whole), "csum_inline_partial");
#endif
    if (failures)
        return 1;
    std::printf("member_names: all checks passed\n");
    return 0;
}
