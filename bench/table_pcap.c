/*
 * pcap: how fast `csum pcap verify` walks a capture. A bulk capture (Ethernet, IPv4/IPv6,
 * TCP/UDP/ICMP, mostly full-size packets, every checksum correct: tools/pcapgen, checksums
 * from the oracle) is written to a temporary file, read into memory, and verified by
 * csum_pcap_verify_buffer, the function behind the command. GB/s of capture and packets/s.
 */
#include "lab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csum_pcap.h"
#include "pcapgen.h"

struct pcap_ctx {
    const unsigned char *data;
    size_t len;
    struct csum_pcap_summary summary;
};

static uint64_t body_verify(const void *vctx, uint64_t iters)
{
    struct pcap_ctx *c = (struct pcap_ctx *)vctx;
    for (uint64_t i = 0; i < iters; i++)
        if (csum_pcap_verify_buffer(c->data, c->len, NULL, &c->summary, NULL) != 0)
            return 0;
    return c->summary.packets;
}

static unsigned char *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = n > 0 ? lab_buffer((size_t)n) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        lab_buffer_free(data, (size_t)n);
        data = NULL;
    }
    fclose(f);
    *len = data ? (size_t)n : 0;
    return data;
}

void table_pcap(const struct lab_env *env)
{
    const size_t mib = env->o->quick ? 32 : 256;
    char path[] = "/tmp/csum-lab-XXXXXX";
    int fd = mkstemp(path);
    lab_table_title(env, "pcap", "csum pcap verify on a generated capture held in memory");
    if (fd < 0) {
        lab_note("pcap", "cannot create a temporary file: %s", strerror(errno));
        return;
    }
    close(fd);
    size_t len = 0;
    unsigned char *data = write_bulk(path, (uint64_t)mib << 20, 0x9c4) == 0 ? load(path, &len) : NULL;
    unlink(path);
    if (!data) {
        lab_note("pcap", "cannot generate the %zu MiB capture", mib);
        return;
    }
    struct pcap_ctx c = { data, len, { 0 } };
    struct csum_pcap_error err;
    if (csum_pcap_verify_buffer(data, len, NULL, &c.summary, &err) != 0) {
        lab_note("pcap", "the generated capture does not parse (offset %llu: %s): refused",
                 (unsigned long long)err.offset, err.message);
    } else {
        uint64_t bad = 0;
        for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++)
            bad += c.summary.count[l][CSUM_PCAP_BAD];
        if (bad) {
            lab_note("pcap", "%llu checksums reported bad in a clean capture: refused",
                     (unsigned long long)bad);
        } else {
            struct lab_stats st;
            lab_measure(env->o, env->clk, body_verify, &c, &st);
            lab_result_add("pcap", "csum_pcap_verify_buffer", "", MODE_THROUGHPUT, len, 0, &st);
            lab_out("%-28s %10.1f MiB %10llu packets %8.2f GB/s %10.1f Mpackets/s\n",
                    "csum_pcap_verify_buffer", (double)len / (1 << 20),
                    (unsigned long long)c.summary.packets, (double)len / st.ns_median,
                    (double)c.summary.packets / st.ns_median * 1e3);
        }
    }
    lab_buffer_free(data, len);
}
