/*
 * pcapng (draft-ietf-opsawg-pcapng): a sequence of blocks, each
 *   type (4) | total length (4) | body | total length (4),
 * grouped in sections that start with a Section Header Block whose byte-order magic sets
 * the byte order of the section. Interface Description Blocks give each interface its link
 * type; packets arrive in Enhanced, Simple or (obsolete) Packet Blocks. Anything else is
 * skipped by its length.
 */
#include "capture.h"
#include "bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    BLOCK_SHB = 0x0a0d0d0a,
    BLOCK_IDB = 1,
    BLOCK_PB = 2,   /* obsolete Packet Block */
    BLOCK_SPB = 3,
    BLOCK_EPB = 6,
    BLOCK_JOURNAL = 9,                 /* systemd journal export */
    BLOCK_CUSTOM = 0x00000bad,         /* custom block, may be copied */
    BLOCK_CUSTOM_NOCOPY = 0x40000bad,  /* custom block, must not be copied */
    BYTE_ORDER_MAGIC = 0x1a2b3c4d,
    OPT_ENDOFOPT = 0,
    OPT_EPB_FLAGS = 2,                 /* also the obsolete block's pack_flags */
    OPT_IF_FCSLEN = 13,
};

struct interface {
    uint32_t linktype;
    uint32_t snaplen;
    size_t fcs_len;            /* if_fcslen: bytes of FCS at the end of its frames */
};

struct section {
    int big;                   /* byte order of this section */
    struct interface *ifs;     /* this section's interfaces, by id */
    size_t n_ifs, cap_ifs;
};

static int add_interface(struct section *s, uint32_t linktype, uint32_t snaplen, size_t fcs_len)
{
    if (s->n_ifs == s->cap_ifs) {
        size_t cap = s->cap_ifs ? 2 * s->cap_ifs : 8;
        struct interface *p = realloc(s->ifs, cap * sizeof *p);
        if (!p)
            return -1;
        s->ifs = p;
        s->cap_ifs = cap;
    }
    s->ifs[s->n_ifs++] = (struct interface){ linktype, snaplen, fcs_len };
    return 0;
}

static size_t pad4(uint64_t n)
{
    return (size_t)((n + 3) & ~(uint64_t)3);
}

/* The value of option `code` among the options at opt[0..len) (each a code, a length and the
 * value padded to 4 bytes, up to opt_endofopt), with *value_len; NULL if absent, or if the
 * options run past their block (then they are not trusted). */
static const unsigned char *find_option(const unsigned char *opt, size_t len, int big,
                                        uint16_t code, size_t *value_len)
{
    size_t i = 0;
    while (len - i >= 4) {
        const uint16_t c = file16(opt + i, big);
        const size_t l = file16(opt + i + 2, big);
        if (c == OPT_ENDOFOPT || l > len - i - 4)
            return NULL;
        if (c == code) {
            *value_len = l;
            return opt + i + 4;
        }
        i += 4 + pad4(l);
        if (i > len)
            return NULL;
    }
    return NULL;
}

/* Hand out one packet whose bytes are body[at .. at + caplen), after checking they fit. */
static int emit(struct reader *r, const struct section *s, uint32_t if_id, unsigned char *body,
                uint64_t body_off, size_t body_len, size_t at, uint64_t caplen, uint64_t wirelen,
                uint64_t *frame, capture_packet_fn fn, void *ctx, const char *what)
{
    if (if_id >= s->n_ifs)
        return stream_error(r->err, body_off, "%s refers to interface %u, but the section has %zu",
                            what, if_id, s->n_ifs);
    if (pad4(caplen) > body_len - at)
        return stream_error(r->err, body_off, "%s claims %llu captured bytes, but its block "
                            "holds at most %zu", what, (unsigned long long)caplen, body_len - at);
    /* The packet's flags word may say how long its FCS is, in its bits 5-8, over the
     * interface's if_fcslen: in the options after the data of enhanced and obsolete blocks
     * (data at 20; a simple block has none). */
    size_t fcs_len = s->ifs[if_id].fcs_len, n;
    const size_t opts = at + pad4(caplen);
    const unsigned char *flags = at == 20 ? find_option(body + opts, body_len - opts, s->big,
                                                        OPT_EPB_FLAGS, &n) : NULL;
    if (flags && n == 4 && (file32(flags, s->big) >> 5 & 15))
        fcs_len = file32(flags, s->big) >> 5 & 15;
    struct capture_packet pkt = {
        .frame = ++*frame,
        .linktype = s->ifs[if_id].linktype,
        .data = body + at,
        .caplen = (size_t)caplen,
        .wirelen = wirelen,
        .fcs_len = fcs_len,
        .offset = body_off + at,
    };
    return capture_emit(r, fn, ctx, &pkt);
}

/* One block, whole in the window at `blk` (its length already checked); 0 or -1. */
static int block(struct reader *r, struct section *s, unsigned char *blk, uint64_t off,
                 uint32_t type, uint32_t total, uint64_t *frame, capture_packet_fn fn, void *ctx)
{
    const uint64_t body = off + 8;
    const size_t body_len = total - 12;
    unsigned char *b = blk + 8;

    switch (type) {
    case BLOCK_SHB:
        if (body_len < 16)
            return stream_error(r->err, off + 4, "pcapng section header of %u bytes is too short",
                                total);
        if (file16(b + 4, s->big) != 1) {
            /* A section csum cannot read, not a damaged one: the sections before it were. */
            char where[64] = "";
            if (off > 0)
                snprintf(where, sizeof where, " (the section at byte offset %llu)",
                         (unsigned long long)off);
            return stream_unsupported(r->err, body + 4, "pcapng version %u.%u%s, which csum does "
                                      "not read: it reads version 1 (1.0, the current one)",
                                      file16(b + 4, s->big), file16(b + 6, s->big), where);
        }
        return 0;
    case BLOCK_IDB: {
        if (body_len < 8)
            return stream_error(r->err, off + 4, "pcapng interface block of %u bytes is too short",
                                total);
        size_t n;
        const unsigned char *fcs = find_option(b + 8, body_len - 8, s->big, OPT_IF_FCSLEN, &n);
        if (add_interface(s, file16(b, s->big), file32(b + 4, s->big), fcs && n == 1 ? *fcs : 0))
            return stream_system_error(r->err, off, "out of memory for pcapng interfaces");
        return 0;
    }
    case BLOCK_EPB:
    case BLOCK_PB: {
        /* Same layout after the interface id, which the obsolete block keeps in 16 bits
         * (followed by a 16-bit drop count). */
        const char *what = type == BLOCK_EPB ? "enhanced packet block" : "packet block";
        if (body_len < 20)
            return stream_error(r->err, off + 4, "pcapng %s of %u bytes is too short", what, total);
        const uint32_t if_id = type == BLOCK_EPB ? file32(b, s->big) : file16(b, s->big);
        return emit(r, s, if_id, b, body, body_len, 20, file32(b + 12, s->big),
                    file32(b + 16, s->big), frame, fn, ctx, what);
    }
    case BLOCK_SPB: {
        /* No captured length: whatever the block holds, up to the original length and
         * interface 0's snapshot length. */
        if (body_len < 4)
            return stream_error(r->err, off + 4, "pcapng simple packet block of %u bytes is too "
                                "short", total);
        if (s->n_ifs == 0)
            return stream_error(r->err, off, "pcapng simple packet block before any interface "
                                "block");
        uint64_t wirelen = file32(b, s->big), caplen = body_len - 4;
        if (caplen > wirelen)
            caplen = wirelen;
        if (s->ifs[0].snaplen && caplen > s->ifs[0].snaplen)
            caplen = s->ifs[0].snaplen;
        return emit(r, s, 0, b, body, body_len, 4, caplen, wirelen, frame, fn, ctx,
                    "simple packet block");
    }
    case BLOCK_JOURNAL:
    case BLOCK_CUSTOM:
    case BLOCK_CUSTOM_NOCOPY: {
        /* Wireshark shows these as frames: count them so frame numbers agree. */
        struct capture_packet rec = {
            .frame = ++*frame, .linktype = CAPTURE_NOT_A_PACKET, .data = b, .offset = body,
        };
        return capture_emit(r, fn, ctx, &rec);
    }
    default:
        return 0; /* name resolution, statistics, decryption secrets...: nothing to check */
    }
}

int capture_walk_pcapng(struct reader *r, capture_packet_fn fn, void *ctx)
{
    struct section s = { 0 };
    uint64_t frame = 0;
    int rc = 0;

    for (;;) {
        int have = reader_need(r, 12);
        if (have < 0) {
            rc = -1;
            break;
        }
        const uint64_t off = reader_offset(r);
        if (have == 0) {
            if (reader_avail(r) != 0)
                rc = stream_cut_short(r->err, off, "pcapng block header cut short (%zu bytes "
                                      "left)", reader_avail(r));
            break;
        }
        const unsigned char *h = reader_at(r);
        if (le32(h) == BLOCK_SHB) {
            /* The byte-order magic decides how to read the SHB's own length. */
            const unsigned char *bom = h + 8;
            if (le32(bom) == BYTE_ORDER_MAGIC) {
                s.big = 0;
            } else if (be32(bom) == BYTE_ORDER_MAGIC) {
                s.big = 1;
            } else {
                rc = stream_error(r->err, off + 8, "pcapng section header has a bad byte-order "
                                  "magic %02x %02x %02x %02x", bom[0], bom[1], bom[2], bom[3]);
                break;
            }
            s.n_ifs = 0; /* interface ids are per section */
        } else if (off == 0) {
            rc = stream_error(r->err, 0, "pcapng file does not start with a section header");
            break;
        }
        const uint32_t type = file32(h, s.big);
        const uint32_t total = file32(h + 4, s.big);
        if (total < 12 || total % 4 != 0 || total > CAPTURE_MAX_RECORD) {
            rc = stream_error(r->err, off + 4, "pcapng block of type 0x%08x has a bad length %u",
                              type, total);
            break;
        }
        have = reader_need(r, total);
        if (have <= 0) {
            rc = have < 0 ? -1 : stream_cut_short(r->err, off + 4, "pcapng block of type "
                                                  "0x%08x cut short: %u bytes long, %zu left in "
                                                  "the file", type, total, reader_avail(r));
            break;
        }
        unsigned char *blk = reader_at(r);
        if (file32(blk + total - 4, s.big) != total) {
            rc = stream_error(r->err, off + total - 4, "pcapng block length %u at its end does "
                              "not match %u at its start", file32(blk + total - 4, s.big), total);
            break;
        }
        rc = block(r, &s, blk, off, type, total, &frame, fn, ctx);
        if (rc != 0)
            break;
        reader_consume(r, total);
    }
    free(s.ifs);
    return rc;
}
