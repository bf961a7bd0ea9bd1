/*
 * Incremental checksum update, RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m').
 *
 * Eqn. 2 of RFC 1624 (HC' = HC - ~m - m', RFC 1141's form) can turn a checksum whose correct
 * value is 0x0000 into 0xffff; eqn. 3 cannot, because it ends with a complement of a
 * ones'-complement sum of nonzero terms. csum_sub() is the "+ ~m" and csum_add() the "+ m'".
 * 32-bit ones'-complement arithmetic is congruent modulo 0xffff (2^32 - 1 = 0xffff * 0x10001),
 * so 16- and 32-bit fields can be subtracted from the 32-bit running sum directly.
 * csum_replace_by_diff (the name and the formula are Linux's, include/net/checksum.h) is the
 * same equation with m' - m handed in as one running sum.
 */
#include "proto/proto_internal.h"

/*
 * ~HC as a running sum: the 32-bit complement of the zero-extended field, as Linux's
 * csum_replace4 and csum_replace_by_diff take it. Its high half is all ones, so it is never 0,
 * nor is any end-around sum it starts, and the fold never stores 0xffff. The 16-bit complement
 * is 0 for a stored 0xffff (UDP's form of a computed 0, or another box's eqn. 2 update of a
 * correct 0x0000); with a field going from all ones to all zeros the sum stayed 0 and the
 * update stored 0xffff where recomputing gives 0x0000.
 */
static inline csum_wsum unfolded_check(const csum_sum16 *check)
{
    return ~csum_inline_unfold(*check);
}

void csum_replace2(csum_sum16 *check, uint16_t from, uint16_t to)
{
    csum_wsum s = csum_inline_add(unfolded_check(check), (uint16_t)~from);
    *check = csum_inline_fold(csum_inline_add(s, to));
}

void csum_replace4(csum_sum16 *check, uint32_t from, uint32_t to)
{
    csum_wsum s = csum_inline_add(unfolded_check(check), ~from);
    *check = csum_inline_fold(csum_inline_add(s, to));
}

void csum_replace16(csum_sum16 *check, const void *from16, const void *to16)
{
    const unsigned char *f = from16, *t = to16;
    csum_wsum s = unfolded_check(check);
    for (int i = 0; i < 16; i += 4) {
        s = csum_inline_add(s, ~csum_load32(f + i));
        s = csum_inline_add(s, csum_load32(t + i));
    }
    *check = csum_inline_fold(s);
}

void csum_replace_by_diff(csum_sum16 *check, csum_wsum diff)
{
    /* ~HC as the kernel writes it: the 32-bit complement of the zero-extended field. Its high
     * half is all ones, so it is never 0 and neither is the sum: the fold never stores 0xffff
     * (eqn. 3's guarantee, as in csum_replace2), whatever sign of zero `diff` has. */
    *check = csum_inline_fold(csum_inline_add(diff, ~csum_inline_unfold(*check)));
}
