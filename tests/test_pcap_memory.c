/*
 * csum_pcap out of memory: every allocation of a walk is made to fail in turn (the first, then
 * the second, ...: tests/test_util.c's test_mallocs_left), and each walk that fails must say
 * memory ran out, with the error kind CSUM_PCAP_ERROR_SYSTEM, never call the capture malformed
 * (a user told "corrupt gzip data" may throw a good capture away). Plain and gzip captures,
 * from memory and from a file, verified and fixed; the gzip ones reach zlib's own allocations
 * (the decoder's window), which csum_pcap routes through the same malloc.
 */
#include "test.h"

#include "capture.h" /* capture_read_ahead */
#include "csum_pcap.h"
#include "pcapgen.h" /* crc32_ieee, the gzip trailer's CRC */

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PACKETS = 20, MAX_ALLOCATIONS = 1000 };

static void put_le(unsigned char *p, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

/* p[0..n) (n < 65536) as a gzip member holding one stored (uncompressed) deflate block, so
 * the test needs no compressor of its own. */
static unsigned char *gzip_stored(const unsigned char *p, size_t n, size_t *len)
{
    static const unsigned char header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };
    *len = sizeof header + 5 + n + 8;
    unsigned char *z = malloc(*len), *at = z;
    if (!z)
        abort();
    memcpy(at, header, sizeof header);
    at += sizeof header;
    *at++ = 1; /* the final block, stored */
    put_le(at, (uint32_t)n, 2);
    put_le(at + 2, (uint32_t)~n & 0xffff, 2);
    memcpy(at + 4, p, n);
    at += 4 + n;
    put_le(at, crc32_ieee(p, n), 4); /* pcapgen's, not the library's */
    put_le(at + 4, (uint32_t)n, 4);
    return z;
}

enum walk { VERIFY_BUFFER, VERIFY_FD, FIX_FD };

struct subject {
    const char *what;
    enum walk walk;
    const unsigned char *cap;
    size_t len;
    int in_fd, out_fd;
};

static int run(const struct subject *s, struct csum_pcap_summary *sum, struct csum_pcap_error *e)
{
    switch (s->walk) {
    case VERIFY_BUFFER:
        return csum_pcap_verify_buffer(s->cap, s->len, NULL, sum, e);
    case VERIFY_FD:
        lseek(s->in_fd, 0, SEEK_SET);
        return csum_pcap_verify_fd(s->in_fd, NULL, sum, e);
    case FIX_FD:
        lseek(s->in_fd, 0, SEEK_SET);
        if (ftruncate(s->out_fd, 0) != 0 || lseek(s->out_fd, 0, SEEK_SET) != 0)
            return -2;
        return csum_pcap_fix_fd(s->in_fd, s->out_fd, NULL, sum, e);
    }
    return -2;
}

/* Fail the first allocation of the walk, then the second, ... until one walk goes through;
 * returns how many of the failed walks named zlib's decoder itself. */
static int each_allocation_fails(struct test_ctx *t, const struct subject *s)
{
    int zlib_failures = 0, k;
    for (k = 0; k < MAX_ALLOCATIONS; k++) {
        struct csum_pcap_summary sum;
        struct csum_pcap_error e = { 0 };
        atomic_store(&test_mallocs_left, k);
        int rc = run(s, &sum, &e);
        atomic_store(&test_mallocs_left, -1);
        if (rc == 0) {
            CHECK(t, sum.packets == PACKETS, "%s: %llu packets once memory sufficed", s->what,
                  (unsigned long long)sum.packets);
            break;
        }
        CHECK(t, rc == -1 && e.kind == CSUM_PCAP_ERROR_SYSTEM && strstr(e.message, "memory"),
              "%s, allocation %d failing: rc %d, kind %s: %s", s->what, k + 1, rc,
              csum_pcap_error_kind_name(e.kind), e.message);
        zlib_failures += strstr(e.message, "in the gzip decoder (zlib)") != NULL;
    }
    CHECK(t, k < MAX_ALLOCATIONS, "%s: still failing after %d allocations", s->what, k);
    return zlib_failures;
}

void test_pcap_memory(struct test_ctx *t)
{
    size_t len, gz_len;
    unsigned char *cap = test_udp_capture(PACKETS, &len);
    unsigned char *gz = gzip_stored(cap, len, &gz_len);
    const int gzip = csum_pcap_compression_supported(CSUM_PCAP_GZIP);
    const int gz_fd = test_temp_file(t, gz, gz_len), plain_fd = test_temp_file(t, cap, len);
    const int out_fd = test_temp_file(t, "", 0);

    const struct subject plain[] = {
        { "plain, in memory", VERIFY_BUFFER, cap, len, -1, -1 },
        { "plain, from a file", VERIFY_FD, NULL, 0, plain_fd, -1 },
        { "plain, fixed", FIX_FD, NULL, 0, plain_fd, out_fd },
    };
    const struct subject compressed[] = {
        { "gzip, in memory", VERIFY_BUFFER, gz, gz_len, -1, -1 },
        { "gzip, from a file", VERIFY_FD, NULL, 0, gz_fd, -1 },
        { "gzip, fixed", FIX_FD, NULL, 0, gz_fd, out_fd },
    };
    /* A read-ahead shorter than the capture: zlib allocates its window only when a stream
     * does not end within one call's output (zlib 1.2.13). */
    const size_t read_ahead = capture_read_ahead;
    capture_read_ahead = 4096;
    if (gz_fd >= 0 && plain_fd >= 0 && out_fd >= 0) {
        for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
            each_allocation_fails(t, &plain[i]);
        /* Without zlib the gzip captures are refused as unsupported: nothing to fail. */
        for (size_t i = 0; gzip && i < sizeof compressed / sizeof compressed[0]; i++)
            /* One of the failed walks ran out of memory inside inflate() (its window), which
             * must not be called corrupt data. */
            CHECK(t, each_allocation_fails(t, &compressed[i]) >= 1,
                  "%s: no walk ran zlib's decoder out of memory (its allocations do not reach "
                  "the test's malloc)", compressed[i].what);
    }
    capture_read_ahead = read_ahead;
    close(gz_fd);
    close(plain_fd);
    close(out_fd);
    free(gz);
    free(cap);
}
