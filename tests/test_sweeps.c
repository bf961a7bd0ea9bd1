/*
 * Sweeps of every implementation against the oracle: known answers, every length x alignment x
 * initial sum, carry-heavy patterns, and the "no-carry" totals.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

enum { SWEEP_MAX_LEN = 4160 };

static const csum_wsum sweep_sums[] = { 0, 1, 0xffff, 0xffffffffu, 0 /* per-case random */ };
#define N_SWEEP_SUMS (sizeof sweep_sums / sizeof sweep_sums[0])

static csum_wsum sweep_sum(size_t s, size_t align, size_t len)
{
    if (s + 1 < N_SWEEP_SUMS)
        return sweep_sums[s];
    uint64_t state = (uint64_t)align << 32 | len;
    return (csum_wsum)testdata_next(&state);
}

/* Alignments (offsets from a 64-byte boundary) swept: all of them, or a spread in quick mode. */
static const size_t quick_aligns[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 31, 32, 33, 62, 63 };

static size_t n_aligns(const struct test_ctx *t)
{
    return t->quick ? sizeof quick_aligns / sizeof quick_aligns[0] : 64;
}

static size_t align_at(const struct test_ctx *t, size_t i)
{
    return t->quick ? quick_aligns[i] : i;
}

/* ---- known answers: these also check the oracle itself -------------------------------- */

void test_known_answers(struct test_ctx *t)
{
    static const struct {
        const char *what;
        unsigned char bytes[20];
        size_t len;
        uint16_t checksum;
    } kat[] = {
        /* RFC 1071 section 3: the words sum to 0xddf2, so the checksum is 0x220d. */
        { "RFC 1071 example", { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 }, 8, 0x220d },
        /* An IPv4 header with its checksum field zeroed, then with the field filled in. */
        { "IPv4 header, field zero",
          { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 }, 20, 0xb861 },
        { "IPv4 header, valid",
          { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 }, 20, 0x0000 },
        { "empty", { 0 }, 0, 0xffff },
        { "one byte", { 0x01 }, 1, 0xfeff },
        { "odd tail", { 0x12, 0x34, 0x56 }, 3, (uint16_t)~(0x1234 + 0x5600) },
        { "negative zero", { 0xff, 0xff }, 2, 0x0000 },
    };
    unsigned char *buf = alloc_aligned(64);
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        CHECK(t, oracle_checksum(kat[i].bytes, kat[i].len, 0) == kat[i].checksum,
              "the oracle is wrong on '%s'", kat[i].what);
        for (size_t align = 0; align < 8; align++) {
            memcpy(buf + align, kat[i].bytes, kat[i].len);
            check_value(t, t->impl->partial(buf + align, kat[i].len, 0), kat[i].checksum,
                        kat[i].len, align, 0, kat[i].what);
        }
    }
    free(buf);
}

/* ---- every length x alignment x initial sum -------------------------------------------- */

/* The oracle's answers depend only on the data, which is the same for every implementation:
 * compute them once, by calling the oracle for each case (not by deriving one from another). */
static uint16_t *exhaustive_expected; /* [align][len][sum] */
static int exhaustive_expected_quick = -1;

static void fill_sweep_buffer(unsigned char *mem, size_t align)
{
    testdata_fill(mem, SWEEP_MAX_LEN + 192, 0x5eed0000u + align); /* junk around the region */
    testdata_fill(mem + 64 + align, SWEEP_MAX_LEN, 0xda7a0000u + align);
}

static size_t expected_index(size_t ai, size_t len, size_t s)
{
    return (ai * (SWEEP_MAX_LEN + 1) + len) * N_SWEEP_SUMS + s;
}

void test_exhaustive(struct test_ctx *t)
{
    unsigned char *mem = alloc_aligned(SWEEP_MAX_LEN + 192);
    const size_t na = n_aligns(t);
    if (exhaustive_expected_quick != t->quick) {
        free(exhaustive_expected);
        exhaustive_expected = malloc(na * (SWEEP_MAX_LEN + 1) * N_SWEEP_SUMS * sizeof(uint16_t));
        for (size_t ai = 0; ai < na; ai++) {
            size_t align = align_at(t, ai);
            fill_sweep_buffer(mem, align);
            for (size_t len = 0; len <= SWEEP_MAX_LEN; len++)
                for (size_t s = 0; s < N_SWEEP_SUMS; s++)
                    exhaustive_expected[expected_index(ai, len, s)] =
                        oracle_checksum(mem + 64 + align, len, sweep_sum(s, align, len));
        }
        exhaustive_expected_quick = t->quick;
    }
    for (size_t ai = 0; ai < na; ai++) {
        size_t align = align_at(t, ai);
        fill_sweep_buffer(mem, align);
        const unsigned char *p = mem + 64 + align;
        for (size_t len = 0; len <= SWEEP_MAX_LEN; len++)
            for (size_t s = 0; s < N_SWEEP_SUMS; s++) {
                csum_wsum init = sweep_sum(s, align, len);
                check_value(t, t->impl->partial(p, len, init),
                            exhaustive_expected[expected_index(ai, len, s)], len, align, init,
                            "random data");
            }
    }
    free(mem);
}

/* ---- carry-heavy and degenerate patterns ------------------------------------------------ */

/* Repeating patterns are fine here: they target carries, not skipped blocks. */
static const struct { const char *name; unsigned char a, b; } patterns[] = {
    { "all 0xff", 0xff, 0xff }, { "all zero", 0x00, 0x00 }, { "all 0x01", 0x01, 0x01 },
    { "0xff 0x00", 0xff, 0x00 }, { "0x00 0xff", 0x00, 0xff }, { "all 0x80", 0x80, 0x80 },
};
#define N_PATTERNS (sizeof patterns / sizeof patterns[0])

static void fill_pattern(unsigned char *p, size_t len, size_t pat, size_t phase)
{
    for (size_t i = 0; i < len; i++)
        p[i] = ((i + phase) & 1) ? patterns[pat].b : patterns[pat].a;
}

void test_patterns(struct test_ctx *t)
{
    static const size_t aligns[] = { 0, 1, 2, 3, 5, 7, 63 };
    const size_t max_len = t->quick ? 1100 : SWEEP_MAX_LEN;
    unsigned char *mem = alloc_aligned(SWEEP_MAX_LEN + 128);
    uint16_t *want = malloc((max_len + 1) * N_SWEEP_SUMS * sizeof *want);
    for (size_t pat = 0; pat < N_PATTERNS; pat++) {
        /* The data is the same bytes at every alignment, so ask the oracle once per length. */
        fill_pattern(mem, max_len, pat, 0);
        for (size_t len = 0; len <= max_len; len++)
            for (size_t s = 0; s < N_SWEEP_SUMS; s++)
                want[len * N_SWEEP_SUMS + s] = oracle_checksum(mem, len, sweep_sum(s, 0, len));
        for (size_t ai = 0; ai < sizeof aligns / sizeof aligns[0]; ai++) {
            unsigned char *p = mem + aligns[ai];
            fill_pattern(p, max_len, pat, 0);
            for (size_t len = 0; len <= max_len; len++)
                for (size_t s = 0; s < N_SWEEP_SUMS; s++) {
                    csum_wsum init = sweep_sum(s, 0, len);
                    check_value(t, t->impl->partial(p, len, init), want[len * N_SWEEP_SUMS + s],
                                len, aligns[ai], init, patterns[pat].name);
                }
        }
    }
    free(want);
    free(mem);
}

/* ---- no-carry: totals of exactly ones'-complement zero ----------------------------------- */

/*
 * Pick the initial sum so that data + initial is exactly "negative zero" (0xffff...). The
 * correct checksum is then 0x0000; one spurious or lost carry anywhere makes it 0xfffe or
 * 0x0001. The initial sum is tried in several congruent 32-bit forms, including the complement
 * of the implementation's own 32-bit result (which makes its final 32-bit total 0xffffffff).
 */
static void no_carry_case(struct test_ctx *t, const unsigned char *p, size_t len, size_t align)
{
    uint16_t data_net = (uint16_t)~oracle_checksum(p, len, 0); /* the data's sum, network order */
    unsigned char b[2] = { (unsigned char)(data_net >> 8), (unsigned char)data_net };
    uint16_t data_host;
    memcpy(&data_host, b, 2); /* the same sum as the library holds it */
    uint16_t comp = (uint16_t)~data_host;
    const csum_wsum forms[] = {
        comp, (csum_wsum)comp << 16, 0xffff0000u | comp, ~t->impl->partial(p, len, 0),
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        uint16_t want = oracle_checksum(p, len, forms[f]);
        CHECK(t, want == 0x0000, "oracle disagrees with the no-carry construction (len %zu)", len);
        check_value(t, t->impl->partial(p, len, forms[f]), want, len, align, forms[f], "no-carry");
    }
}

void test_no_carry(struct test_ctx *t)
{
    static const size_t aligns[] = { 0, 1, 3, 6, 63 };
    const size_t max_len = t->quick ? 600 : SWEEP_MAX_LEN;
    unsigned char *mem = alloc_aligned(SWEEP_MAX_LEN + 128);
    for (size_t ai = 0; ai < sizeof aligns / sizeof aligns[0]; ai++) {
        unsigned char *p = mem + aligns[ai];
        for (int kind = 0; kind < 2; kind++) {
            if (kind == 0)
                testdata_fill(p, max_len, 0xc0ffee + aligns[ai]);
            else
                memset(p, 0xff, max_len);
            for (size_t len = 0; len <= max_len; len++)
                no_carry_case(t, p, len, aligns[ai]);
        }
    }
    free(mem);
}
