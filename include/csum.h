/*
 * csum — the Internet checksum (RFC 1071), fast on the CPU it runs on.
 *
 * Vocabulary follows Linux's include/net/checksum.h:
 *  - csum_wsum  is an unfolded 32-bit ones'-complement running sum. Pass it back in as the
 *               `sum` argument to continue a checksum; it is not yet a checksum.
 *  - csum_sum16 is the folded and complemented 16-bit value that is stored in a header.
 *
 * Byte order: data is summed as 16-bit words in memory order, exactly as the kernel does, so
 * `csum_fold(csum_partial(p, n, 0))` stored in memory as-is (memcpy, or a uint16_t field of a
 * packet header) is the network-order checksum on little- and big-endian hosts alike. Do not
 * byte-swap it. To print it the way Wireshark does, read the two stored bytes big-endian.
 *
 * Different implementations may return different 32-bit csum_wsum values for the same bytes,
 * but they are always congruent modulo 0xffff, and 0 only when the initial sum and every byte
 * are 0, so csum_fold() agrees and every value composes with csum_add()/csum_block_add().
 * Congruence alone would not do: 0 and the nonzero multiples of 0xffff (ones'-complement
 * negative zero) are congruent, but csum_fold() makes 0xffff of 0 and 0x0000 of the others.
 * Subtraction (csum_sub(), csum_block_sub()) can give negative zero where the sum of what is
 * left is 0. The result never depends on the address of the buffer.
 *
 * Pointers: where a function takes NULL, its comment says what it does with it (csum_partial,
 * the copy, iovec and IPv4 header functions, the table lookups and selections). Every other
 * pointer must be valid for what the comment says is read or written; it is not checked
 * (csum_ipv6_magic's addresses, csum_replace*'s arguments, the buffer of
 * csum_dispatch_describe and csum_dispatch_file when `size` > 0).
 *
 * Threads and first use: every function may be called from any thread, concurrently, with no
 * set-up call. Each dispatched operation (csum_partial, csum_iov and csum_iov_range;
 * csum_partial_copy and csum_iov_copy; csum_ipv4_header_batch) chooses its plan on its first
 * call, or on the first query of it (csum_impl_active, csum_dispatch_describe,
 * csum_dispatch_source, csum_copy_impl_active): that call reads the environment (CSUM_IMPL,
 * CSUM_DISPATCH and the plan file; CSUM_COPY_IMPL; CSUM_BATCH_IMPL; and, once for the process,
 * CSUM_CPU_DISABLE with the CPU's features) and allocates the plan. Threads that race through a
 * first call agree on one plan, and a selection made meanwhile (csum_impl_select() and the
 * like) is kept. After that the library reads none of it again: setting a variable or rewriting
 * the plan file changes nothing in a running process, with one exception: when a usable
 * CSUM_IMPL chose the first plan, the automatic plan is built at the first
 * csum_impl_select("auto") or csum_dispatch_set("auto"), from CSUM_DISPATCH and the plan file
 * as they are then. (csum_dispatch_file() reads its variables on every call.) A thread that
 * must not pay for this on its first packet calls csum_impl_active(), csum_copy_impl_active(0)
 * and csum_ipv4_header_batch(NULL, 0, NULL) at startup. The variables are read with getenv
 * (glibc's secure_getenv), which must not run while another thread calls setenv() or putenv():
 * set them before starting threads, or make those calls first.
 *
 * Language: this header is C99 and C++11 (or later) clean, -pedantic and -Wshadow included
 * (tested by tests/header_test.sh); only the optional constant-length inline path uses GNU C
 * (gcc, clang).
 * Link with -lcsum (pkg-config csum; CMake: find_package(csum), target csum::csum).
 */
#ifndef CSUM_H
#define CSUM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h> /* struct iovec */

#include "csum_version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CSUM_BUILDING_LIBRARY) && defined(__GNUC__)
#  define CSUM_API __attribute__((visibility("default")))
#else
#  define CSUM_API
#endif

/** The library's version, "MAJOR.MINOR.PATCH" (CSUM_VERSION_STRING is the header's). */
CSUM_API const char *csum_version(void);

/** Unfolded 32-bit ones'-complement sum (the kernel's __wsum). Feed it back in as `sum`. */
typedef uint32_t csum_wsum;
/** Folded, complemented 16-bit checksum in memory (network) order (the kernel's __sum16). */
typedef uint16_t csum_sum16;

/**
 * Ones'-complement sum of `len` bytes at `buf`, added to `sum`.
 *
 * @param buf  the bytes; any alignment. May be NULL when `len` is 0. NULL with a nonzero `len`
 *             is a caller bug that the exported function treats as empty: it returns `sum`
 *             and reads nothing (the constant-length inline path below does not check).
 * @param len  number of bytes, any value (odd lengths and lengths above 4 GiB included).
 * @param sum  running sum to continue (0 to start). The bytes are treated as if they started
 *             at an even offset of the whole message; see csum_block_add() otherwise.
 * @return     the new unfolded sum. Never reads outside [buf, buf + len).
 *
 * Follows the dispatch plan (csum_dispatch_describe()): one set by csum_impl_select() (one
 * implementation for every length) or csum_dispatch_set(), else the one chosen at first use:
 * CSUM_IMPL's implementation for every length, else CSUM_DISPATCH's plan, the plan file's or
 * the compiled-in plan for this kind of CPU, which choose the implementation by length. With
 * gcc or clang, a call with a constant `len` of 2, 4, 8, 12, 14, 16, 20 or 40 is compiled
 * inline instead (in C++ a call of csum_inline_partial(); see below).
 */
CSUM_API csum_wsum csum_partial(const void *buf, size_t len, csum_wsum sum);

/**
 * Copy `len` bytes from `src` to `dst` and return their ones'-complement sum added to `sum`,
 * in one pass over the data (the kernel's csum_partial_copy_nocheck, with a seed).
 *
 * @param dst  where the bytes go; any alignment. Exactly [dst, dst + len) is written.
 * @param src  the bytes; any alignment. Exactly [src, src + len) is read.
 *             The two ranges must not overlap (like memcpy; the result is then undefined).
 * @param len  number of bytes, any value.
 * @param sum  running sum to continue, as for csum_partial(). Seeding with 0xffffffff makes
 *             the result never 0, whatever the data, so a caller can reserve 0 as an error
 *             value (how Linux's csum_and_copy_*_user() report a fault).
 * @return     the new unfolded sum, congruent to csum_partial(src, len, sum) modulo 0xffff.
 *             If `dst` or `src` is NULL nothing is copied and `sum` is returned unchanged.
 *
 * Uses the implementation from csum_copy_impl_select() or the CSUM_COPY_IMPL environment
 * variable, else the fastest one for this CPU and length: copies of at least
 * csum_copy_nontemporal_threshold() bytes use non-temporal (streaming) stores, which bypass
 * the caches, so a huge copy does not evict everything else. Streaming stores are ordered
 * (sfence) before the function returns.
 */
CSUM_API csum_wsum csum_partial_copy(void *dst, const void *src, size_t len, csum_wsum sum);

/**
 * The sum of the concatenation of `n` segments (scatter-gather), added to `sum`: the same
 * value modulo 0xffff as csum_partial() over one buffer holding the segments back to back.
 * Segments may have any length and alignment, odd and empty ones included; a segment with
 * an odd length shifts the byte lanes of everything after it, which is accounted for.
 * A NULL `iov` (with any `n`) returns `sum`; a segment whose iov_base is NULL counts as empty.
 */
CSUM_API csum_wsum csum_iov(const struct iovec *iov, size_t n, csum_wsum sum);

/**
 * The sum of bytes [offset, offset + len) of the concatenation of the `n` segments, added to
 * `sum`: the same value modulo 0xffff as csum_partial() over those `len` bytes copied to one
 * buffer (treated, as there, as if they started at an even offset of the whole message; see
 * csum_block_add() otherwise). The range may start and end anywhere, inside a segment or at a
 * boundary, across segments of any length, odd and empty ones included; csum_iov(iov, n, sum)
 * is csum_iov_range(iov, n, 0, total length, sum), to the bit. For software segmentation
 * (TSO/GSO) and retransmission from a send queue held as an iovec: each segment's payload sum
 * without building an iovec for it (Linux's skb_checksum(skb, offset, len, sum)). Segments
 * before the range are skipped by their iov_len, their bytes unread: only the range is read.
 * A segment whose iov_base is NULL counts as empty, as in csum_iov(). A `len` of 0 returns
 * `sum`, whatever `offset`. A range that does not lie within the segments (offset + len above
 * their total length, or above SIZE_MAX) and a NULL `iov` (with any `n`) are caller bugs that
 * return `sum` without reading any segment's bytes.
 */
CSUM_API csum_wsum csum_iov_range(const struct iovec *iov, size_t n, size_t offset, size_t len,
                                  csum_wsum sum);

/**
 * Copy the `n` segments back to back into `dst` and return the sum of the concatenation, as
 * csum_iov(). `dst` must have room for the total length and must not overlap any segment.
 * Segments of 64 bytes or more are copied by the implementation csum_partial_copy() uses for
 * the total length (csum_copy_impl_active(total), chosen once per call): so in a gather of at
 * least csum_copy_nontemporal_threshold() bytes they use streaming stores, and after
 * csum_copy_impl_select() (or with CSUM_COPY_IMPL) the selected implementation. Segments
 * shorter than 64 bytes are always copied inline with normal stores, whatever the total and
 * the selection: for them the indirect call and a vector implementation's set-up and
 * reduction cost more than the copy. A NULL `dst` or `iov` copies nothing and returns `sum`;
 * a segment whose iov_base is NULL counts as empty.
 */
CSUM_API csum_wsum csum_iov_copy(void *dst, const struct iovec *iov, size_t n, csum_wsum sum);

/**
 * Fold a 32-bit sum to 16 bits and complement it: the value to store in a checksum field.
 * A buffer that already contains a correct checksum folds to 0.
 */
CSUM_API csum_sum16 csum_fold(csum_wsum sum);

/**
 * Widen a folded 16-bit value, as stored in a checksum field, to a running sum: the value
 * itself, zero-extended, neither uncomplemented nor byte-swapped (Linux's csum_unfold). It
 * lets a stored checksum enter csum_add()/csum_sub() arithmetic: ~csum_unfold(check) is the
 * sum the stored `check` stands for (congruent modulo 0xffff), which is how
 * csum_replace_by_diff() updates a field. csum_unfold(csum_fold(s)) is congruent modulo
 * 0xffff to ~s, so csum_fold(~csum_unfold(csum_fold(s))) == csum_fold(s), but for the fold
 * 0xffff (of a zero sum): ~csum_unfold(0xffff) is 0xffff0000, negative zero, which folds to
 * 0x0000. Inline as csum_inline_unfold() (see below).
 *
 * A sum computed elsewhere and handed over as a number, RFC 1071's 16-bit sum of the data read
 * as big-endian words (a NIC's raw receive checksum in a descriptor, a value from a trace),
 * joins these sums as (csum_wsum)htons(raw): a csum_wsum sums the same bytes as native-order
 * words, which on a little-endian host is the byte-swapped number, and the same number on a
 * big-endian one. It is a sum, not a checksum: not complemented, and not csum_unfold()'s input.
 */
CSUM_API csum_wsum csum_unfold(csum_sum16 n);

/** Ones'-complement addition of two sums (end-around carry). */
CSUM_API csum_wsum csum_add(csum_wsum a, csum_wsum b);

/**
 * Ones'-complement subtraction: removes `b`'s contribution from `a`. When `a` and `b` are equal
 * modulo 0xffff the result is negative zero, a nonzero multiple of 0xffff (0xffffffff when they
 * are equal), which csum_fold() makes 0x0000, not the 0xffff of csum_fold(0); the exception is
 * csum_sub(0, 0xffffffff), which is 0.
 */
CSUM_API csum_wsum csum_sub(csum_wsum a, csum_wsum b);

/**
 * Add `block`, the sum of a block of bytes computed on its own (csum_partial(bytes, n, 0)),
 * into `sum`, the sum of a whole message, given that the block starts at byte `offset` of that
 * message. A block at an odd offset has its bytes in the other half of each 16-bit word, so
 * its sum is byte-rotated before adding; only the parity of `offset` matters.
 */
CSUM_API csum_wsum csum_block_add(csum_wsum sum, csum_wsum block, size_t offset);

/**
 * The inverse of csum_block_add(): remove from `sum` the sum `block` of a block that starts at
 * byte `offset` of the message, as csum_block_add(sum, ~block, offset) does (Linux's
 * csum_block_sub). `block` and `offset` are what csum_block_add() was given, or would have
 * been: trimming the last n bytes of a message of len bytes is
 * csum_block_sub(sum, csum_partial(msg + len - n, n, 0), len - n).
 *
 * The result is congruent modulo 0xffff to the sum of what is left, so it folds and composes
 * as that sum does, but for the case every ones'-complement subtraction has (csum_sub() too):
 * when what is left sums to exactly 0 (a zero seed, and only zero bytes or none: the block was
 * the whole message, say), the result is a nonzero multiple of 0xffff (negative zero), which
 * csum_fold() makes 0x0000 where the fold of that 0 is 0xffff. Once a nonzero sum (a
 * pseudo-header's, say) is added to it, it folds as that sum alone does.
 */
CSUM_API csum_wsum csum_block_sub(csum_wsum sum, csum_wsum block, size_t offset);

/*
 * Protocol helpers (Linux's ip_fast_csum, csum_tcpudp_*, csum_ipv6_magic, csum_replace*).
 * Addresses and stored checksum fields are passed as they sit in the packet (network order,
 * copied with memcpy or read as a uint16_t/uint32_t field, never byte-swapped); lengths and
 * protocol numbers are plain host-order numbers.
 */

/*
 * The header's casts: static_cast in C++, whose strict builds forbid C casts
 * (-Wold-style-cast), a plain cast in C. Not part of the API.
 */
#ifdef __cplusplus
#  define CSUM_CAST_(type, value) (static_cast<type>(value))
#else
#  define CSUM_CAST_(type, value) ((type)(value))
#endif

/** What csum_ipv4_header() returns for an `ihl` outside 5..15 or a NULL header (see there). */
#define CSUM_IPV4_BAD_IHL CSUM_CAST_(csum_sum16, 0xffff)

/**
 * Checksum of an IPv4 header of `ihl` 32-bit words (the kernel's ip_fast_csum).
 *
 * Over a received header (checksum field as received) the result is 0 when the header is
 * intact. Over a header whose checksum field was zeroed it is the value to store there.
 *
 * @param iph  the header; ihl * 4 bytes are read, nothing else (any alignment).
 * @param ihl  header length in 32-bit words, the low nibble of the first byte: 5..15.
 * @return     the folded checksum; CSUM_IPV4_BAD_IHL (0xffff) without reading `iph` when
 *             `ihl` is outside 5..15 or `iph` is NULL (a caller bug, never a crash). With a
 *             valid `ihl`, 0xffff comes only from ihl * 4 zero bytes, never from an IPv4
 *             header, whose first byte holds the version and the ihl (the function takes
 *             `ihl` from the argument, not from that byte).
 */
CSUM_API csum_sum16 csum_ipv4_header(const void *iph, unsigned ihl);

/**
 * Checksums of `n` IPv4 headers at once: out[i] = csum_ipv4_header(hdrs[i], ihl of hdrs[i]),
 * where the ihl is the low nibble of the header's first byte. Headers may have different
 * lengths. For each header the first byte is read and, when its ihl is 5..15, exactly
 * ihl * 4 bytes; a header may end right before an unmapped page. Every hdrs[i] (i < n) must
 * point to a readable header; a NULL `hdrs` or `out` reads and writes nothing, whatever `n`
 * (a caller bug, never a crash). From 8 headers on (fewer are summed one by one), uses SIMD
 * across headers (16 per step with AVX-512) where the CPU has it, portable C otherwise (and
 * AVX2 where the compiled-in csum_partial plan keeps to 256-bit rows, as on Intel
 * Skylake-SP); CSUM_BATCH_IMPL=name in the environment forces one implementation's batch for
 * every count.
 */
CSUM_API void csum_ipv4_header_batch(const void *const *hdrs, size_t n, csum_sum16 *out);

/**
 * Unfolded sum of the TCP/UDP pseudo-header for IPv4 (RFC 793, RFC 768), added to `sum`.
 *
 * @param saddr  source address as stored in the IPv4 header (network order)
 * @param daddr  destination address as stored
 * @param len    TCP/UDP length (header + payload) in bytes, host order. Values above 0xffff
 *               are summed as a 32-bit big-endian field, as in the IPv6 pseudo-header.
 * @param proto  IP protocol number (6 for TCP, 17 for UDP)
 * @param sum    sum of the TCP/UDP header and payload, e.g. from csum_partial()
 */
CSUM_API csum_wsum csum_tcpudp_nofold(uint32_t saddr, uint32_t daddr, uint32_t len,
                                      uint8_t proto, csum_wsum sum);

/**
 * csum_fold(csum_tcpudp_nofold(...)): over a segment with its checksum field as received, 0
 * when intact; over a segment whose checksum field was zeroed, the value to store (for UDP
 * pass that through csum_udp_fixup()). A UDP datagram received over IPv4 with a stored 0 was
 * sent without a checksum (RFC 768): look at the field before summing, the sum says nothing
 * about such a datagram (over IPv6 a stored 0 is invalid).
 *
 * Checksum offload: a NIC that computes the checksum (Linux's CHECKSUM_PARTIAL, DPDK's TX
 * L4 checksum flags) sums the segment from the TCP/UDP header on and stores the complement,
 * so the field must hold the pseudo-header's sum, folded but not complemented:
 * (csum_sum16)~csum_tcpudp_magic(saddr, daddr, len, proto, 0), as Linux stores
 * ~tcp_v4_check(len, saddr, daddr, 0) and DPDK rte_ipv4_phdr_cksum(). After an address
 * rewrite, update that placeholder as the checksum of the pseudo-header alone: complement it,
 * csum_replace4(), complement it back (what Linux's inet_proto_csum_replace4() does for a
 * pseudo-header field under CHECKSUM_PARTIAL); a rewrite of a field the NIC sums (a port)
 * needs no update.
 */
CSUM_API csum_sum16 csum_tcpudp_magic(uint32_t saddr, uint32_t daddr, uint32_t len,
                                      uint8_t proto, csum_wsum sum);

/**
 * Pseudo-header checksum for IPv6 (RFC 8200 section 8.1), folded like csum_tcpudp_magic():
 * over an upper-layer packet with its checksum field as received, 0 when intact; over one
 * whose field was zeroed, the value to store, for UDP (and UDP-Lite) through csum_udp_fixup(),
 * since RFC 8200 sends a computed 0 as 0xffff there too, and for TCP and ICMPv6 as it is. For
 * checksum offload the placeholder is (csum_sum16)~csum_ipv6_magic(saddr16, daddr16, len,
 * proto, 0), updated after an address rewrite with csum_replace16() between two complements
 * (see csum_tcpudp_magic()).
 *
 * @param saddr16  the 16-byte source address as stored
 * @param daddr16  the 16-byte destination address as stored; with a Routing header, the
 *                 final destination
 * @param len      upper-layer packet length in bytes, host order (32-bit in the IPv6 pseudo-header)
 * @param proto    next-header value of the upper layer (6 TCP, 17 UDP, 58 ICMPv6)
 * @param sum      sum of the upper-layer header and payload
 */
CSUM_API csum_sum16 csum_ipv6_magic(const void *saddr16, const void *daddr16, uint32_t len,
                                    uint8_t proto, csum_wsum sum);

/** UDP's transmitted form of a computed checksum of 0 (RFC 768): all ones (Linux's
 * CSUM_MANGLED_0). */
#define CSUM_MANGLED_0 CSUM_CAST_(csum_sum16, 0xffff)

/**
 * The value to store in a UDP checksum field for a computed checksum `check`: UDP sends a
 * computed 0 as 0xffff, because a stored 0 means "no checksum" (over IPv4; over IPv6 a zero
 * checksum is invalid). Every other value is returned unchanged. UDP-Lite has the same rule
 * (RFC 3828 section 3.1), though a stored 0 is invalid there over IPv4 too.
 */
CSUM_API csum_sum16 csum_udp_fixup(csum_sum16 check);

/**
 * Update a stored checksum after a 16-bit field of the covered data changed from `from` to
 * `to` (both as stored), without recomputing it: RFC 1624 eqn. 3, HC' = ~(~HC + ~m + m'),
 * which unlike eqn. 2 never turns a correct 0x0000 into 0xffff. Its one difference from
 * computing the checksum again: when the change leaves the covered data all zeros, it gives
 * 0x0000 where the sum of zeros complemented is 0xffff (the same ones'-complement number;
 * Linux's csum_replace2 does the same), which no real header meets: an IPv4 header's version
 * and a pseudo-header's protocol are never 0. The result is never 0xffff, whatever the
 * stored value: a stored 0xffff (UDP's form of a computed 0, or a correct 0x0000 that another
 * box's eqn. 2 update left as 0xffff) is updated to what recomputing gives, even when the
 * field goes from all ones to all zeros. The field must start at an even offset of the
 * checksummed data, as every IPv4/IPv6/TCP/UDP header field does. `check` is read and written
 * as a csum_sum16, so it must be 2-byte aligned, as C requires of any uint16_t: in a packet
 * at an odd address, update a copy of the field and copy it back (memcpy).
 * UDP is the caller's to handle, as in Linux: a stored 0 over IPv4 means "no checksum" and must
 * stay 0, and a result of 0 must be stored as csum_udp_fixup() gives it.
 */
CSUM_API void csum_replace2(csum_sum16 *check, uint16_t from, uint16_t to);

/** csum_replace2() for a 32-bit field (an IPv4 address, a port pair), `from`/`to` as stored. */
CSUM_API void csum_replace4(csum_sum16 *check, uint32_t from, uint32_t to);

/** csum_replace2() for a 16-byte field (an IPv6 address), `from16`/`to16` as stored. */
CSUM_API void csum_replace16(csum_sum16 *check, const void *from16, const void *to16);

/**
 * Update a stored checksum by `diff`, the change of the covered data's sum already computed
 * as a running sum: *check = csum_fold(csum_add(diff, ~csum_unfold(*check))), RFC 1624 eqn. 3
 * with the difference given whole (Linux's csum_replace_by_diff). Use it when the change is
 * more than one field, or its sum is known anyway: bytes rewritten at any offset, a field that
 * csum_replace2/4/16 do not fit, or a sum that must be updated in several checksums (the inner
 * and outer headers of a tunnel). The incremental-update idiom, for bytes p[off, off + n)
 * changed in place:
 *
 *     csum_wsum diff = csum_block_sub(0, csum_partial(old_bytes, n, 0), off);
 *     diff = csum_block_add(diff, csum_partial(p + off, n, 0), off);
 *     csum_replace_by_diff(&check, diff);
 *
 * (csum_block_add/sub take care of an odd `off`.) `diff` may be any value congruent modulo
 * 0xffff to the new sum less the old one, negative zero included. As with csum_replace2(),
 * the result is never 0xffff: when the change leaves the covered data all zeros it is 0x0000
 * where computing the checksum again gives 0xffff (the same ones'-complement number), which no
 * real header meets; and UDP's zero rules are the caller's (see csum_replace2()).
 */
CSUM_API void csum_replace_by_diff(csum_sum16 *check, csum_wsum diff);

/**
 * The name of the `requires` member of struct csum_impl and struct csum_copy_impl. `requires`
 * is a keyword from C++20 on (and with gcc's -fconcepts before it), so there the member is
 * named `requires_`; C, and C++ before C++20, keep `requires`, so no existing source changes.
 * Same type, same place: the layout and the ABI are the same in every language. Code built
 * under several standards can write impl->CSUM_REQUIRES_MEMBER.
 */
#if defined(__cplusplus) && (__cplusplus > 201703L || defined(__cpp_concepts))
#  define CSUM_REQUIRES_MEMBER requires_
#else
#  define CSUM_REQUIRES_MEMBER requires
#endif

/** Signature shared by every csum_partial implementation. */
typedef csum_wsum (*csum_partial_fn)(const void *buf, size_t len, csum_wsum sum);

/**
 * One compiled-in implementation of csum_partial. The library hands out pointers to these;
 * never allocate one (fields may be added at the end in a later minor version).
 */
struct csum_impl {
    const char *name;         /**< short name: "generic", "avx512", "x86-scalar", "linux-6.8" */
    const char *description;  /**< one line, including where the algorithm comes from */
    csum_partial_fn partial;  /**< the function itself; call only if csum_impl_supported() */
    const char *CSUM_REQUIRES_MEMBER; /**< `requires` (C++20: `requires_`): CPU features
                                           it needs, space-separated ("" for none) */
    int reference;            /**< 1: a reference implementation, a historical algorithm (Linux's,
                                   earlier kernel proposals) kept so it can be compared with;
                                   never chosen by the automatic dispatch plan. 0: a product
                                   implementation, one the automatic plan may choose. */
};

/** Number of compiled-in implementations, supported by this CPU or not. */
CSUM_API size_t csum_impl_count(void);

/**
 * The i-th implementation; NULL when i >= count. Product implementations come first, widest
 * instruction set first, then the reference implementations. The order is not a speed
 * ranking: which implementation runs for which length is the dispatch plan
 * (csum_dispatch_describe()).
 */
CSUM_API const struct csum_impl *csum_impl_get(size_t i);

/** The implementation called `name`, or NULL (also for NULL). */
CSUM_API const struct csum_impl *csum_impl_find(const char *name);

/**
 * Nonzero if this CPU (and OS) can run `impl`; 0 for NULL or a pointer not from the table, and
 * for an implementation that needs a feature CSUM_CPU_DISABLE hides.
 */
CSUM_API int csum_impl_supported(const struct csum_impl *impl);

/**
 * The implementation csum_partial() uses now for the longest buffers, the last range of the
 * dispatch plan (csum_dispatch_describe() gives every range), choosing the plan if that was
 * not done yet.
 */
CSUM_API const struct csum_impl *csum_impl_active(void);

/**
 * Make csum_partial() use the implementation called `name` for every length (a reference
 * implementation too: the caller asked for it by name); "auto" restores the automatic plan.
 * Returns 0 on success, -1 if the name is unknown (or NULL), this CPU cannot run it, or there
 * is no memory for the plan (the active implementation is then unchanged). Safe to call from any
 * thread at any time.
 */
CSUM_API int csum_impl_select(const char *name);

/**
 * The dispatch plan csum_partial() follows: which implementation handles which lengths, as
 * "name@from,name@from,..." (e.g. "x86-scalar@0,avx512-vnni@128": x86-scalar below 128 bytes,
 * avx512-vnni from 128 on). The same text is accepted by csum_dispatch_set() and by the
 * CSUM_DISPATCH environment variable. Writes at most `size` bytes, NUL-terminated when size > 0,
 * and returns the length of the whole text (like snprintf).
 *
 * The automatic plan comes from CSUM_DISPATCH, else the plan file (csum_dispatch_file(),
 * written by `csum tune --write`), else a compiled-in plan measured by the csum developers on
 * a CPU of this kind, made of product implementations only. csum_impl_active() names the
 * implementation of the last range (the one used for the longest buffers).
 */
CSUM_API size_t csum_dispatch_describe(char *buf, size_t size);

/** The most length ranges a dispatch plan holds. */
#define CSUM_DISPATCH_MAX_RANGES 4

/**
 * Replace the dispatch plan: "auto", or up to four ranges "name@from[,name@from...]" whose
 * first range starts at 0 and whose starts, as written, increase (decimal digits only, 0 to
 * SIZE_MAX inclusive; a name without "@from" starts at 0; a range naming the same
 * implementation as the range before it is merged into that one; spaces, tabs and newlines
 * around names, '@', numbers and commas are skipped, so " generic @ 0 , avx2 @ 64 " is
 * "generic@0,avx2@64"); every name must be supported by this CPU (reference implementations
 * are accepted). Returns 0, or -1 with the plan unchanged (also for NULL). Safe from any
 * thread; each distinct plan costs a small allocation that is kept for the life of the process
 * (another thread may be using it).
 */
CSUM_API int csum_dispatch_set(const char *plan);

/**
 * Where the current plan came from, and why: "compiled-in defaults" (followed by the CPU class
 * the plan was measured on, e.g. "compiled-in defaults: AMD Zen 4 (family 25 with AVX-512),
 * measured 2026-11-25 with csum tune and csum bench short"), "CSUM_DISPATCH", the plan file's
 * path, "one implementation for all lengths" (csum_impl_select or CSUM_IMPL),
 * "csum_dispatch_set", or "generic (out of memory)" (the first call found no memory for the
 * plan it chose, and runs generic until a selection succeeds). When CSUM_DISPATCH, the plan
 * file or CSUM_IMPL was set but not used, the text ends with the reason in parentheses, e.g.
 * "(CSUM_DISPATCH ignored: no implementation 'avx3')", "(/home/u/.config/csum/dispatch ignored:
 * cannot be opened: permission denied)", or with CSUM_IMPL set too
 * "(CSUM_DISPATCH ignored: CSUM_IMPL comes first)". A plan file that does not exist is not
 * named. Valid until the plan changes.
 */
CSUM_API const char *csum_dispatch_source(void);

/**
 * The plan file the automatic plan is read from: CSUM_DISPATCH_FILE when set (set but empty:
 * no file), else $XDG_CONFIG_HOME/csum/dispatch, else $HOME/.config/csum/dispatch; a relative
 * XDG_CONFIG_HOME or HOME is not used (the XDG Base Directory rule). Writes at most `size`
 * bytes, NUL-terminated when size > 0, and returns the length of the whole path (like
 * snprintf), or 0 when there is no plan file (the file itself need not exist). The library
 * ignores a file tuned on another kind of CPU: `csum tune --write` names the CPU in a
 * "# cpu: ..." comment before the plan (x86-64: "AuthenticAMD family 25 model 17").
 * Environment variables are not read in set-uid or set-gid programs on Linux (glibc's
 * secure_getenv; with another C library, the kernel's AT_SECURE flag through getauxval), nor
 * on the BSDs and macOS where issetugid() is true.
 */
CSUM_API size_t csum_dispatch_file(char *buf, size_t size);

/** Signature shared by every csum_partial_copy implementation. */
typedef csum_wsum (*csum_partial_copy_fn)(void *dst, const void *src, size_t len, csum_wsum sum);

/**
 * One compiled-in implementation of csum_partial_copy. Every copy implementation belongs to a
 * csum_partial implementation of the same name (the "-nt" ones: streaming stores), and shares
 * its summing code; the library hands out pointers to these, never allocate one.
 */
struct csum_copy_impl {
    const char *name;          /**< short name: "generic", "avx512-vnni", "avx512-vnni-nt", ... */
    const char *description;   /**< one line, including where the algorithm comes from */
    csum_partial_copy_fn copy; /**< the function itself; call only if csum_copy_impl_supported() */
    const char *CSUM_REQUIRES_MEMBER; /**< `requires` (C++20: `requires_`): CPU features
                                           it needs, space-separated ("" for none) */
    int nontemporal;           /**< 1: streaming stores that bypass the caches; "auto" uses it
                                    only from csum_copy_nontemporal_threshold() bytes up */
};

/** Number of compiled-in copy implementations, supported by this CPU or not. */
CSUM_API size_t csum_copy_impl_count(void);

/**
 * The i-th copy implementation; NULL when i >= count. First those with normal stores, in the
 * order of csum_impl_get(), then the streaming ("-nt") ones in the same order: like
 * csum_impl_get()'s, not a speed ranking.
 */
CSUM_API const struct csum_copy_impl *csum_copy_impl_get(size_t i);

/**
 * The copy implementation called `name`, or NULL (also for NULL). On x86-64 "x86-adc", the
 * 1.0 name of x86-scalar's copy, still finds it (csum_copy_impl_select() and CSUM_COPY_IMPL
 * take it too).
 */
CSUM_API const struct csum_copy_impl *csum_copy_impl_find(const char *name);

/**
 * Nonzero if this CPU (and OS) can run `impl`; 0 for NULL, a pointer not from the table, or an
 * implementation that needs a feature CSUM_CPU_DISABLE hides.
 */
CSUM_API int csum_copy_impl_supported(const struct csum_copy_impl *impl);

/**
 * The implementation csum_partial_copy() uses now for a copy of `len` bytes: the selected
 * one, or under "auto" below the threshold the temporal rows measured for this kind of CPU by
 * length (AMD Zen 4: avx512-vnni below 4 KiB, avx2 from there) or else the first supported
 * temporal row, and from the threshold up the first supported non-temporal row, among the rows
 * no wider than those of the CPU's compiled-in csum_partial plan (so 256-bit rows on Intel
 * Skylake-SP and Cascade Lake, whose clock drops for 512-bit code); on x86-64, "x86-scalar"
 * below 64 bytes (its short copy runs inside csum_partial_copy itself).
 */
CSUM_API const struct csum_copy_impl *csum_copy_impl_active(size_t len);

/**
 * Make csum_partial_copy() use the copy implementation `name` for every length, and
 * csum_iov_copy() for every segment of 64 bytes or more (shorter segments are always copied
 * inline, see csum_iov_copy()); "auto" restores the choice by CPU and length. Returns 0 on
 * success, -1 if the name is unknown (or NULL), this CPU cannot run it, or there is no memory
 * for the plan (nothing changes then). Safe from any thread.
 */
CSUM_API int csum_copy_impl_select(const char *name);

/**
 * Copies of at least this many bytes use non-temporal stores under "auto": 3/4 of one
 * logical CPU's share of the last-level cache (its size divided by the CPUs sharing it, from
 * CPUID), as glibc 2.33 to 2.37 set memcpy's threshold; 3 MiB when the cache cannot be read.
 * Never below 1 MiB: that floor is ours, not glibc's. A copy that small fits in one core's
 * private L2 (1 MiB on Zen 4 and Zen 5), which a small share of a shared last-level cache
 * says nothing about, so streaming it would send to memory data the caller is about to read.
 * SIZE_MAX when no non-temporal row runs on this CPU.
 */
CSUM_API size_t csum_copy_nontemporal_threshold(void);

/*
 * Inline fast paths. The functions above are all exported (for FFI and dlsym users, and for
 * taking their address). The csum_inline_* functions below are the single definition of this
 * arithmetic, inline: csum_inline_fold, csum_inline_unfold, csum_inline_add, csum_inline_sub,
 * csum_inline_block_add, csum_inline_block_sub and (gcc, clang) csum_inline_partial, which is
 * inline for constant header-sized lengths. Their parameters and locals are named csum_*_, in
 * the library's own namespace: a parameter named `sum` or `len` would shadow an includer's
 * global variable of that name declared before the header (-Wshadow; an error under -Werror),
 * and an includer's macro of that name would rewrite it.
 *
 * In C, macros named like the exported functions (csum_fold, csum_unfold, csum_add, csum_sub,
 * csum_block_add, csum_block_sub, csum_partial) make direct calls use them. Define
 * CSUM_NO_INLINE before including this header to always call the exported functions.
 *
 * In C++ there are no such macros unless CSUM_INLINE_MACROS is defined before including this
 * header: a function-like macro would rewrite every member or namespace function of the same
 * name (obj.csum_add(a, b), ns::csum_fold(x)), which a C++ user of a C library does not expect
 * (DPDK's checksum helpers, for one, are static inline functions). There the plain names call
 * the exported functions, and the csum_inline_* functions are the inline code.
 */
static inline csum_sum16 csum_inline_fold(csum_wsum csum_sum_)
{
    /* Two steps: the first may carry out of bit 15, the second cannot. */
    csum_sum_ = (csum_sum_ & 0xffff) + (csum_sum_ >> 16);
    csum_sum_ = (csum_sum_ & 0xffff) + (csum_sum_ >> 16);
    return CSUM_CAST_(csum_sum16, ~csum_sum_);
}

static inline csum_wsum csum_inline_unfold(csum_sum16 csum_n_)
{
    return csum_n_; /* zero-extended: ~ of it is then a 32-bit sum congruent to ~n's 16 bits */
}

static inline csum_wsum csum_inline_add(csum_wsum csum_a_, csum_wsum csum_b_)
{
    csum_wsum csum_r_ = csum_a_ + csum_b_;
    return csum_r_ + (csum_r_ < csum_b_); /* end-around carry */
}

static inline csum_wsum csum_inline_sub(csum_wsum csum_a_, csum_wsum csum_b_)
{
    return csum_inline_add(csum_a_, ~csum_b_); /* adding the complement subtracts */
}

static inline csum_wsum csum_inline_block_add(csum_wsum csum_sum_, csum_wsum csum_block_,
                                               size_t csum_offset_)
{
    /* Rotating a 32-bit sum by 8 bits swaps the bytes of every 16-bit word modulo 0xffff. */
    if (csum_offset_ & 1)
        csum_block_ = (csum_block_ >> 8) | (csum_block_ << 24);
    return csum_inline_add(csum_sum_, csum_block_);
}

static inline csum_wsum csum_inline_block_sub(csum_wsum csum_sum_, csum_wsum csum_block_,
                                               size_t csum_offset_)
{
    /* The complement of a rotated sum is the rotated complement, so subtracting at an offset
     * is adding the complement there. */
    return csum_inline_block_add(csum_sum_, ~csum_block_, csum_offset_);
}

#if !defined(CSUM_NO_INLINE) && (!defined(__cplusplus) || defined(CSUM_INLINE_MACROS))
#  define CSUM_INLINE_MACROS_ 1 /* the macros below are defined */
#define csum_fold(sum)                   csum_inline_fold(sum)
#define csum_unfold(n)                   csum_inline_unfold(n)
#define csum_add(a, b)                   csum_inline_add((a), (b))
#define csum_sub(a, b)                   csum_inline_sub((a), (b))
#define csum_block_add(sum, block, off)  csum_inline_block_add((sum), (block), (off))
#define csum_block_sub(sum, block, off)  csum_inline_block_sub((sum), (block), (off))
#endif

#if !defined(CSUM_NO_INLINE) && defined(__GNUC__)
/*
 * Constant-length csum_partial (the idea from the 2016 review of Herbert's patch; VPP does the
 * same for 12/20/40-byte headers): when `len` is a compile-time constant in
 * {2, 4, 8, 12, 14, 16, 20, 40} (UDP, Ethernet, IPv4 and IPv6 header sizes), csum_partial()
 * compiles to a few inline loads and adds, with no call. Any other length, or a length known
 * only at run time, calls the exported function. Unlike the exported function, this inline
 * path does not check for a NULL buffer: with a constant nonzero length, pass a valid one.
 *
 * Portable C: 32-bit words in host order summed into 64 bits, then folded. Each 32-bit word
 * holds two whole 16-bit words of the buffer (all these lengths are even and the words start
 * at even offsets), so the result is the same on little- and big-endian hosts, and memcpy
 * loads are legal at any alignment. With a constant zero initial sum the compiler drops the
 * addition of `sum`, which is the zero-initial-sum specialisation of Arjan van de Ven's 2021
 * csum_partial write-up.
 */
#define CSUM_INLINE_LEN_OK(len) \
    ((len) == 2 || (len) == 4 || (len) == 8 || (len) == 12 || (len) == 14 || (len) == 16 || \
     (len) == 20 || (len) == 40)

static inline __attribute__((always_inline)) uint64_t
csum_inline_word32(const unsigned char *csum_p_)
{
    uint32_t csum_v_;
    __builtin_memcpy(&csum_v_, csum_p_, sizeof csum_v_);
    return csum_v_;
}

static inline __attribute__((always_inline)) csum_wsum
csum_inline_partial(const void *csum_buf_, size_t csum_len_, csum_wsum csum_sum_)
{
    if (__builtin_constant_p(csum_len_) && CSUM_INLINE_LEN_OK(csum_len_)) {
        const unsigned char *csum_p_ = CSUM_CAST_(const unsigned char *, csum_buf_);
        /* Straight-line: with a constant len every condition below is decided at compile
         * time, and a load is only evaluated when it lies inside the buffer. Two
         * accumulators halve the dependency chain; the sum joins last, so a caller chaining
         * sums waits for one add, not for the loads. */
        uint64_t csum_even_ = 0, csum_odd_ = 0, csum_acc_;
        csum_even_ += csum_len_ >= 4 ? csum_inline_word32(csum_p_ + 0) : 0;
        csum_odd_ += csum_len_ >= 8 ? csum_inline_word32(csum_p_ + 4) : 0;
        csum_even_ += csum_len_ >= 12 ? csum_inline_word32(csum_p_ + 8) : 0;
        csum_odd_ += csum_len_ >= 16 ? csum_inline_word32(csum_p_ + 12) : 0;
        csum_even_ += csum_len_ >= 20 ? csum_inline_word32(csum_p_ + 16) : 0;
        csum_odd_ += csum_len_ >= 24 ? csum_inline_word32(csum_p_ + 20) : 0;
        csum_even_ += csum_len_ >= 28 ? csum_inline_word32(csum_p_ + 24) : 0;
        csum_odd_ += csum_len_ >= 32 ? csum_inline_word32(csum_p_ + 28) : 0;
        csum_even_ += csum_len_ >= 36 ? csum_inline_word32(csum_p_ + 32) : 0;
        csum_odd_ += csum_len_ >= 40 ? csum_inline_word32(csum_p_ + 36) : 0;
        if (csum_len_ & 2) {
            uint16_t csum_w_;
            __builtin_memcpy(&csum_w_, csum_p_ + (csum_len_ & ~CSUM_CAST_(size_t, 3)),
                             sizeof csum_w_);
            csum_odd_ += csum_w_;
        }
        csum_acc_ = csum_even_ + csum_odd_;
#if defined(__clang__)
        /* An empty asm (no instruction, any target): keeps clang from reassociating the
         * additions into one chain that starts at the sum (measured 8 ticks instead of 3 for
         * chained 40-byte sums). gcc keeps the order by itself, and is slower with it. */
        __asm__("" : "+r"(csum_acc_));
#endif
        csum_acc_ += csum_sum_;
        /* csum_acc_ < 2^37: two folds of the 32-bit halves leave at most 32 bits. */
        csum_acc_ = (csum_acc_ & 0xffffffffu) + (csum_acc_ >> 32);
        csum_acc_ = (csum_acc_ & 0xffffffffu) + (csum_acc_ >> 32);
        return CSUM_CAST_(csum_wsum, csum_acc_);
    }
    return (csum_partial)(csum_buf_, csum_len_, csum_sum_);
}

#ifdef CSUM_INLINE_MACROS_
#define csum_partial(buf, len, sum) csum_inline_partial((buf), (len), (sum))
#endif
#endif /* !CSUM_NO_INLINE && __GNUC__ */

#ifdef __cplusplus
}
#endif

#endif /* CSUM_H */
