/*
 * A program that uses every function of csum.h the way an outside user would, with answers it
 * can check by hand. Written in the common subset of C99 and C++11: tests/header_test.sh
 * compiles it as C99, C11 and C++11 to C++23 (-pedantic, many warnings, errors), and
 * tests/install_test.sh builds it against an installed csum through pkg-config and CMake.
 * Prints one line and exits 0 when every check holds.
 */
#include <csum.h> /* first: the header must stand on its own */

#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

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
    return b[0] * 256u + b[1]; /* no cast: C++ builds forbid C casts (-Wold-style-cast) */
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
    check(csum_fold(csum_block_sub(whole, tail, 3)) == csum_fold(head), "csum_block_sub");
    check(csum_fold(csum_sub(csum_add(whole, 0x1234), 0x1234)) == csum_fold(whole),
          "csum_add then csum_sub");
    /* The same through the exported functions (parentheses defeat the inline macros). */
    check((csum_fold)((csum_block_add)(head, tail, 3)) == (csum_fold)(whole),
          "exported csum_block_add, csum_fold");
    check((csum_fold)((csum_block_sub)(whole, tail, 3)) == (csum_fold)(head),
          "exported csum_block_sub");
    check((csum_fold)((csum_sub)((csum_add)(whole, 0x1234), 0x1234)) == (csum_fold)(whole),
          "exported csum_add, csum_sub");
    check(stored_value((csum_fold)((csum_partial)(rfc, 8, 0))) == 0x220d, "exported csum_partial");

    /* The implementation table and the dispatcher. */
    size_t n = csum_impl_count(), supported = 0;
    check(n > 0 && csum_impl_get(n) == NULL, "csum_impl_count, csum_impl_get");
    for (size_t i = 0; i < n; i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        check(csum_impl_find(impl->name) == impl, "csum_impl_find");
        /* `requires`, or `requires_` where that is a keyword (C++20): one spelling for both. */
        check(impl->CSUM_REQUIRES_MEMBER != NULL, "csum_impl's requires");
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
    size_t file_len = csum_dispatch_file(plan, sizeof plan);
    check(file_len == strlen(plan), "csum_dispatch_file");
    check(csum_dispatch_set("auto") == 0, "csum_dispatch_set auto");
    check(stored_value(csum_fold(csum_partial(rfc, runtime_len, 0))) == 0x220d, "auto again");

    /* Protocol helpers: an IPv4 header with a known checksum (0xb861), and checksums that
     * verify to 0 once stored. */
    unsigned char iph[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                              0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
    unsigned char zeroed[20];
    memcpy(zeroed, iph, sizeof zeroed);
    zeroed[10] = zeroed[11] = 0;
    check(csum_ipv4_header(iph, 5) == 0, "csum_ipv4_header: intact header verifies to 0");
    check(stored_value(csum_ipv4_header(zeroed, 5)) == 0xb861, "csum_ipv4_header: 0xb861");
    check(csum_ipv4_header(iph, 4) == CSUM_IPV4_BAD_IHL, "csum_ipv4_header: ihl 4 rejected");
    const void *hdrs[2] = { iph, zeroed };
    csum_sum16 batch[2];
    csum_ipv4_header_batch(hdrs, 2, batch);
    check(batch[0] == 0 && stored_value(batch[1]) == 0xb861, "csum_ipv4_header_batch");

    /* Change the TTL/protocol word and the source address, update incrementally (RFC 1624). */
    csum_sum16 field;
    memcpy(&field, iph + 10, 2);
    uint16_t from16, to16 = 0;
    uint32_t from32, to32 = 0x0a000001;
    memcpy(&from16, iph + 8, 2);
    memcpy(iph + 8, &to16, 2);
    csum_replace2(&field, from16, to16);
    memcpy(&from32, iph + 12, 4);
    memcpy(iph + 12, &to32, 4);
    csum_replace4(&field, from32, to32);
    memcpy(iph + 10, &field, 2);
    check(csum_ipv4_header(iph, 5) == 0, "csum_replace2, csum_replace4");

    /* Rewrite the identification and fragment words together (offsets 4..7) by the
     * difference of their sums. */
    static const unsigned char new_id[4] = { 0xbe, 0xef, 0x00, 0x00 };
    unsigned char old_id[4];
    memcpy(old_id, iph + 4, 4);
    memcpy(iph + 4, new_id, 4);
    csum_wsum diff = csum_sub(csum_partial(new_id, 4, 0), csum_partial(old_id, 4, 0));
    memcpy(&field, iph + 10, 2);
    csum_replace_by_diff(&field, diff);
    memcpy(iph + 10, &field, 2);
    check(csum_ipv4_header(iph, 5) == 0, "csum_replace_by_diff");
    /* The stored field stands for the sum of the rest of the header: taking that sum out of
     * it leaves (negative) zero. */
    csum_wsum rest = csum_add(csum_partial(iph, 10, 0), csum_partial(iph + 12, 8, 0));
    check(csum_fold(csum_sub(~csum_unfold(field), rest)) == 0, "csum_unfold");
    check((csum_unfold)(field) == csum_unfold(field) && csum_unfold(0xffff) == 0xffffu,
          "exported csum_unfold");

    /* A UDP datagram over IPv4 and over IPv6: the stored checksum makes the sum verify. */
    unsigned char udp[12] = { 0x30, 0x39, 0x00, 0x35, 0x00, 0x0c, 0x00, 0x00, 'c', 's', 'u', 'm' };
    uint32_t saddr, daddr;
    memcpy(&saddr, zeroed + 12, 4);
    memcpy(&daddr, zeroed + 16, 4);
    csum_sum16 udp_check = csum_udp_fixup(
        csum_tcpudp_magic(saddr, daddr, sizeof udp, 17, csum_partial(udp, sizeof udp, 0)));
    check(csum_fold(csum_tcpudp_nofold(saddr, daddr, sizeof udp, 17, csum_partial(udp, sizeof udp, 0))) ==
              csum_tcpudp_magic(saddr, daddr, sizeof udp, 17, csum_partial(udp, sizeof udp, 0)),
          "csum_tcpudp_nofold folds to csum_tcpudp_magic");
    memcpy(udp + 6, &udp_check, 2);
    check(csum_tcpudp_magic(saddr, daddr, sizeof udp, 17, csum_partial(udp, sizeof udp, 0)) == 0,
          "UDP over IPv4 verifies");
    unsigned char src6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    unsigned char dst6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };
    udp[6] = udp[7] = 0;
    udp_check = csum_udp_fixup(csum_ipv6_magic(src6, dst6, sizeof udp, 17, csum_partial(udp, sizeof udp, 0)));
    memcpy(udp + 6, &udp_check, 2);
    check(csum_ipv6_magic(src6, dst6, sizeof udp, 17, csum_partial(udp, sizeof udp, 0)) == 0,
          "UDP over IPv6 verifies");
    /* Rewrite the IPv6 source (NAT66-style) and update the UDP checksum in place. */
    unsigned char new6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9 };
    memcpy(&field, udp + 6, 2);
    csum_replace16(&field, src6, new6);
    memcpy(udp + 6, &field, 2);
    check(csum_ipv6_magic(new6, dst6, sizeof udp, 17, csum_partial(udp, sizeof udp, 0)) == 0,
          "csum_replace16");
    check(csum_udp_fixup(0) == CSUM_MANGLED_0 && csum_udp_fixup(0x1234) == 0x1234, "csum_udp_fixup");

    /* Copy and checksum in one pass; scatter-gather. */
    unsigned char copy[8], flat[8];
    static const unsigned char zeros[8] = { 0 };
    check(stored_value(csum_fold(csum_partial_copy(copy, rfc, sizeof rfc, 0))) == 0x220d &&
              memcmp(copy, rfc, sizeof rfc) == 0, "csum_partial_copy");
    check(csum_partial_copy(copy, zeros, sizeof zeros, 0xffffffffu) != 0,
          "csum_partial_copy seeded with ~0 never returns 0");
    unsigned char msg[8]; /* iov_base is not const */
    memcpy(msg, rfc, sizeof msg);
    struct iovec iov[2];
    iov[0].iov_base = msg;
    iov[0].iov_len = 3;
    iov[1].iov_base = msg + 3;
    iov[1].iov_len = 5;
    check(stored_value(csum_fold(csum_iov(iov, 2, 0))) == 0x220d, "csum_iov");
    /* Bytes 2..7, across the boundary at 3, after the sum of bytes 0..1: the whole again. */
    check(stored_value(csum_fold(csum_iov_range(iov, 2, 2, 6, csum_partial(rfc, 2, 0)))) ==
              0x220d && csum_iov_range(iov, 2, 4, 5, 0x1234) == 0x1234, "csum_iov_range");
    check(stored_value(csum_fold(csum_iov_copy(flat, iov, 2, 0))) == 0x220d &&
              memcmp(flat, rfc, sizeof rfc) == 0, "csum_iov_copy");
    size_t n_copy = csum_copy_impl_count();
    check(n_copy > 0 && csum_copy_impl_get(n_copy) == NULL, "csum_copy_impl_count, _get");
    for (size_t i = 0; i < n_copy; i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        check(csum_copy_impl_find(impl->name) == impl, "csum_copy_impl_find");
        check(impl->CSUM_REQUIRES_MEMBER != NULL, "csum_copy_impl's requires");
        if (csum_copy_impl_supported(impl)) {
            memset(copy, 0, sizeof copy);
            check(stored_value(csum_fold(impl->copy(copy, rfc, sizeof rfc, 0))) == 0x220d &&
                      memcmp(copy, rfc, sizeof rfc) == 0, impl->name);
        }
    }
    check(csum_copy_impl_select("generic") == 0 &&
              strcmp(csum_copy_impl_active(sizeof rfc)->name, "generic") == 0,
          "csum_copy_impl_select, csum_copy_impl_active");
    check(csum_copy_impl_select("auto") == 0 && csum_copy_nontemporal_threshold() > 0,
          "csum_copy_impl_select auto, csum_copy_nontemporal_threshold");

    if (failures)
        return 1;
    csum_dispatch_describe(plan, sizeof plan);
    printf("consumer: csum %s, %zu implementations (%zu supported), plan %s: all checks passed\n",
           csum_version(), n, supported, plan);
    return 0;
}
