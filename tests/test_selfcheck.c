/*
 * The oracle's self-checks of copies and IPv4 header batches (`csum verify` runs them on every
 * copy and batch row): each passes a right implementation and refuses a wrong one, whatever is
 * wrong with it (its sum, the bytes it copied, a byte it wrote outside its destination, a
 * result written past the last).
 */
#include "test.h"

#include <string.h>

static csum_wsum generic_copy(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return csum_copy_impl_find("generic")->copy(dst, src, len, sum);
}

/* Wrong sum at one length the quick sweep reaches. */
static csum_wsum copy_wrong_sum(void *dst, const void *src, size_t len, csum_wsum sum)
{
    csum_wsum s = generic_copy(dst, src, len, sum);
    return len == 200 ? s + 1 : s;
}

/* The last byte not copied, from 100 bytes on. */
static csum_wsum copy_short(void *dst, const void *src, size_t len, csum_wsum sum)
{
    unsigned char keep = len >= 100 ? ((unsigned char *)dst)[len - 1] : 0;
    csum_wsum s = generic_copy(dst, src, len, sum);
    if (len >= 100)
        ((unsigned char *)dst)[len - 1] = keep;
    return s;
}

/* One byte written after the destination, for copies of 63 bytes. */
static csum_wsum copy_writes_after(void *dst, const void *src, size_t len, csum_wsum sum)
{
    csum_wsum s = generic_copy(dst, src, len, sum);
    if (len == 63)
        ((unsigned char *)dst)[len] = 0;
    return s;
}

static void generic_batch(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = csum_ipv4_header(hdrs[i], ((const unsigned char *)hdrs[i])[0] & 15u);
}

/* The fifteenth header of a batch gets a wrong checksum when its ihl is above 5. */
static void batch_wrong_long_header(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    generic_batch(hdrs, n, out);
    if (n > 14 && (((const unsigned char *)hdrs[14])[0] & 15u) > 5)
        out[14] ^= 1;
}

/* A batch of 17 headers writes an 18th result. */
static void batch_writes_past(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    generic_batch(hdrs, n, out);
    if (n == 17)
        out[n] = 0;
}

void test_oracle_selfchecks(struct test_ctx *t)
{
    struct selfcheck_result r;
    CHECK(t, oracle_selfcheck_copy(generic_copy, SELFCHECK_QUICK, &r) == 0 && r.checked > 0,
          "the copy self-check refused generic's copy (%zu of %zu wrong)", r.mismatches, r.checked);
    CHECK(t, oracle_selfcheck_copy(copy_wrong_sum, SELFCHECK_QUICK, &r) != 0 && r.len == 200 &&
             !r.problem && r.got != r.want,
          "the copy self-check took a wrong sum (first mismatch at len %zu)", r.len);
    CHECK(t, oracle_selfcheck_copy(copy_short, SELFCHECK_QUICK, &r) != 0 && r.len == 100 &&
             r.problem && strstr(r.problem, "differs"),
          "the copy self-check took a copy missing its last byte (len %zu, %s)", r.len,
          r.problem ? r.problem : "no problem named");
    CHECK(t, oracle_selfcheck_copy(copy_writes_after, SELFCHECK_QUICK, &r) != 0 && r.len == 63 &&
             r.problem && strstr(r.problem, "outside"),
          "the copy self-check took a copy writing past its destination (len %zu, %s)", r.len,
          r.problem ? r.problem : "no problem named");

    CHECK(t, oracle_selfcheck_batch(generic_batch, SELFCHECK_QUICK, &r) == 0 && r.checked > 0,
          "the batch self-check refused a header-by-header batch (%zu of %zu wrong)",
          r.mismatches, r.checked);
    CHECK(t, oracle_selfcheck_batch(batch_wrong_long_header, SELFCHECK_QUICK, &r) != 0 &&
             r.index == 14 && r.got != r.want,
          "the batch self-check took a wrong checksum (first at header %zu of %zu)", r.index,
          r.len);
    CHECK(t, oracle_selfcheck_batch(batch_writes_past, SELFCHECK_QUICK, &r) != 0 && r.len == 17 &&
             r.problem && strstr(r.problem, "past"),
          "the batch self-check took a result written past the last (n %zu)", r.len);
}
