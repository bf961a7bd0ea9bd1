/*
 * Link layers around datagrams, one per LINKTYPE_ value the verifier dissects, and the
 * encapsulations below the first IP layer: MPLS (RFC 3032), PPPoE sessions (RFC 2516) and
 * MACsec (IEEE 802.1AE) under Ethernet. Formats: see pcap/link_*.c, which reads them.
 */
#include "pcapgen.h"

#include <string.h>

static const struct link_info links[LINK_COUNT] = {
    [LINK_ETHERNET] = { "ethernet", 1, 1, NULL },
    [LINK_VLAN] = { "vlan", 1, 1, NULL },
    [LINK_QINQ] = { "qinq", 1, 1, NULL },
    [LINK_8023_SNAP] = { "ethernet-snap", 1, 1, NULL },
    [LINK_SLL] = { "sll", 113, 0, NULL },
    [LINK_SLL2] = { "sll2", 276, 0, NULL },
    [LINK_RAW] = { "raw", 101, 0, NULL },
    [LINK_RAW_VERSIONED] = { "raw-versioned", 228, 0, NULL },
    [LINK_NULL] = { "null", 0, 0, NULL },
    [LINK_LOOP] = { "loop", 108, 0, NULL },
    [LINK_WLAN] = { "wlan", 105, 0, NULL },
    [LINK_WLAN_QOS] = { "wlan-qos", 105, 0, NULL },
    [LINK_WLAN_4ADDR] = { "wlan-4addr", 105, 0, NULL },
    [LINK_WLAN_AMSDU] = { "wlan-amsdu", 105, 0, NULL },
    [LINK_WLAN_PROTECTED] = { "wlan-protected", 105, 0, NULL },
    [LINK_RADIOTAP] = { "radiotap", 127, 0, NULL },
    [LINK_PRISM] = { "prism", 119, 0, NULL },
    [LINK_AVS] = { "avs", 163, 0, NULL },
    [LINK_PPI] = { "ppi", 192, 0, NULL },
    [LINK_PPP] = { "ppp", 9, 0, NULL },
    [LINK_PPP_HDLC] = { "ppp-hdlc", 50, 0, NULL },
    [LINK_PPPOE] = { "pppoe", 51, 0, NULL },
    [LINK_PPP_DIR] = { "ppp-dir", 204, 0, NULL },
    [LINK_CHDLC] = { "chdlc", 104, 0, NULL },
    [LINK_FRELAY] = { "frelay", 107, 0, NULL },
    [LINK_FRELAY_SNAP] = { "frelay-snap", 107, 0, NULL },
    [LINK_SLIP] = { "slip", 8, 0, "tshark 4.0 does not dissect LINKTYPE_SLIP (it shows 'data')" },
    [LINK_PKTAP] = { "pktap", 258, 0, NULL },
    [LINK_NFLOG] = { "nflog", 239, 0, NULL },
};

static const char *const l2_names[L2_COUNT] = { "none", "mpls", "pppoe", "macsec",
                                                "macsec-encrypted" };

const struct link_info *link_info(enum link l) { return &links[l]; }
const char *l2_name(enum l2encap e) { return l2_names[e]; }

int link_find(const char *name)
{
    for (int i = 0; i < LINK_COUNT; i++)
        if (!strcmp(name, links[i].name))
            return i;
    return -1;
}

int l2_find(const char *name)
{
    for (int i = 0; i < L2_COUNT; i++)
        if (!strcmp(name, l2_names[i]))
            return i;
    return -1;
}

uint32_t linktype_of(enum link link, int ipv)
{
    if (link == LINK_RAW_VERSIONED)
        return ipv == 6 ? 229 : 228;
    return links[link].linktype;
}

static uint16_t ethertype_of(int ipv)
{
    return ipv == 4 ? 0x0800 : 0x86dd;
}

size_t ethernet_header(unsigned char *p, uint16_t ethertype, int vlan, uint64_t *rng)
{
    fill(p, 12, rnd(rng));
    p[0] &= 0xfe; /* unicast destination */
    size_t n = 12;
    if (vlan) {
        be16put(p + n, 0x8100);
        be16put(p + n + 2, (uint16_t)(rnd(rng) & 0x0fff));
        n += 4;
    }
    be16put(p + n, ethertype);
    return n + 2;
}

/* The PPP protocol number of an IP version. */
static uint16_t ppp_protocol(int ipv)
{
    return ipv == 4 ? 0x0021 : 0x0057;
}

/* An 802.11 data frame header: FC, duration, three addresses, sequence control (and the
 * fourth address, QoS control); returns its length. */
static size_t wlan_header(unsigned char *p, enum link link, uint64_t *rng)
{
    const int qos = link == LINK_WLAN_QOS || link == LINK_WLAN_AMSDU;
    p[0] = qos ? 0x88 : 0x08;              /* data, or QoS data */
    p[1] = link == LINK_WLAN_4ADDR ? 0x03   /* to and from the DS: four addresses */
         : link == LINK_WLAN_PROTECTED ? 0x41 : 0x01; /* to the DS (protected) */
    p[2] = 0x2c;                           /* duration, little-endian */
    p[3] = 0x00;
    fill(p + 4, 18, rnd(rng));             /* receiver, transmitter, destination */
    const unsigned seq = (unsigned)(rnd(rng) & 0xfff);      /* sequence number, fragment 0, */
    p[22] = (unsigned char)(seq << 4);                       /* little-endian like every */
    p[23] = (unsigned char)(seq >> 4);                       /* 802.11 field */
    size_t n = 24;
    if (link == LINK_WLAN_4ADDR) {
        fill(p + n, 6, rnd(rng));
        n += 6;
    }
    if (qos) {
        p[n] = link == LINK_WLAN_AMSDU ? 0x80 : 0x00; /* TID 0; A-MSDU present */
        p[n + 1] = 0;
        n += 2;
    }
    return n;
}

static size_t snap(unsigned char *p, uint16_t ethertype)
{
    memcpy(p, "\xaa\xaa\x03\x00\x00\x00", 6);
    be16put(p + 6, ethertype);
    return 8;
}

/* The 802.11 frame of `link` around dg[0..n) at p; its length. *ip_off: where the first
 * datagram starts (where the ciphertext does, protected). */
static size_t wlan_frame(unsigned char *p, enum link link, const struct datagram *dg, int n,
                         uint64_t *rng, size_t *ip_off)
{
    size_t len = wlan_header(p, link, rng);
    if (link == LINK_WLAN_PROTECTED) { /* CCMP header, ciphertext, MIC */
        fill(p + len, 8 + dg[0].len + 8, rnd(rng));
        *ip_off = len + 8;
        return len + 8 + dg[0].len + 8;
    }
    if (link != LINK_WLAN_AMSDU) {
        len += snap(p + len, ethertype_of(dg[0].ipv));
        *ip_off = len;
        memcpy(p + len, dg[0].data, dg[0].len);
        return len + dg[0].len;
    }
    *ip_off = len + 14 + 8;
    const size_t start = len;
    for (int i = 0; i < n; i++) { /* subframes: DA, SA, length, LLC + datagram, padding */
        if (i > 0)
            while ((len - start) % 4) /* every subframe but the last is padded to 4 bytes */
                p[len++] = 0;
        fill(p + len, 12, rnd(rng));
        be16put(p + len + 12, (uint16_t)(8 + dg[i].len));
        len += 14;
        len += snap(p + len, ethertype_of(dg[i].ipv));
        memcpy(p + len, dg[i].data, dg[i].len);
        len += dg[i].len;
    }
    return len;
}

/* (pcapgen.h) Bit by bit, deliberately not the library's (pcap/walk.c: zlib's crc32(), or a
 * table of nibbles without zlib): the captures are the test's expected values, and a bug
 * shared by writer and reader would agree with itself (tshark checks both, tests/pcap_test.sh). */
uint32_t crc32_ieee(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

/* The radio header of `link` in front of an 802.11 frame; its length. *fcs: the frame is
 * to end with an FCS (radiotap's Flags or PPI's 802.11-Common field say so now and then). */
static size_t radio_header(unsigned char *p, enum link link, uint64_t *rng, int *fcs)
{
    switch (link) {
    case LINK_RADIOTAP: /* TSFT, Flags, Rate, Channel */
        *fcs = rnd(rng) & 1;
        memcpy(p, "\x00\x00\x16\x00\x0f\x00\x00\x00", 8); /* version, length 22, present */
        fill(p + 8, 8, rnd(rng));          /* TSFT (8-byte aligned at 8) */
        p[16] = *fcs ? 0x10 : 0x00;        /* Flags: FCS at the end */
        p[17] = 0x6c;                      /* Rate: 54 Mb/s */
        memcpy(p + 18, "\x85\x09\xc0\x00", 4); /* Channel: 2437 MHz, 2 GHz OFDM */
        return 22;
    case LINK_PRISM: /* message code and length (144), device name, ten empty items */
        memset(p, 0, 144);
        p[0] = 0x44;
        p[4] = 144;
        memcpy(p + 8, "wlan0", 5);
        return 144;
    case LINK_AVS: /* version 0x80211001, length 64, fields left zero */
        memset(p, 0, 64);
        be32put(p, 0x80211001);
        be32put(p + 4, 64);
        return 64;
    default: /* PPI: version 0, flags 0, length 8 or 32, DLT 105 (802.11) */
        if (rnd(rng) % 3 == 0) {
            memcpy(p, "\x00\x00\x08\x00\x69\x00\x00\x00", 8);
            return 8;
        }
        *fcs = rnd(rng) & 1;
        memcpy(p, "\x00\x00\x20\x00\x69\x00\x00\x00", 8);
        memcpy(p + 8, "\x02\x00\x14\x00", 4);  /* 802.11-Common, 20 bytes: */
        fill(p + 12, 8, rnd(rng));             /* TSF timer */
        p[20] = *fcs ? 0x01 : 0x00;            /* Flags: FCS present */
        p[21] = 0;
        memcpy(p + 22, "\x6c\x00\x85\x09\xc0\x00\x00\x00\xc4\xa0", 10); /* rate 54 Mb/s,
                                                 2437 MHz, OFDM; hopset, pattern, signal, noise */
        return 32;
    }
}

/* What an Ethernet payload of EtherType `type` becomes under `l2`, at p: returns the length
 * of the headers put before the datagram; *type is the EtherType for the Ethernet header. */
static size_t l2_headers(unsigned char *p, enum l2encap l2, uint16_t *type, size_t dg_len,
                         int ipv, uint64_t *rng)
{
    switch (l2) {
    case L2_MPLS: { /* one to three labels, the last with the bottom-of-stack bit */
        const int labels = 1 + (int)(rnd(rng) % 3);
        for (int i = 0; i < labels; i++) {
            uint32_t e = (uint32_t)(16 + rnd(rng) % 100000) << 12 | 64;
            if (i == labels - 1)
                e |= 1u << 8;
            be32put(p + 4 * i, e);
        }
        *type = 0x8847;
        return 4 * (size_t)labels;
    }
    case L2_PPPOE: /* version/type 0x11, code 0, session id, length; PPP protocol */
        p[0] = 0x11;
        p[1] = 0;
        be16put(p + 2, (uint16_t)(1 + rnd(rng) % 0xfffe));
        be16put(p + 4, (uint16_t)(2 + dg_len));
        be16put(p + 6, ppp_protocol(ipv));
        *type = 0x8864;
        return 8;
    case L2_MACSEC:
    case L2_MACSEC_ENCRYPTED: { /* SecTAG with an SCI, then the EtherType (integrity only) */
        const int encrypted = l2 == L2_MACSEC_ENCRYPTED;
        p[0] = (unsigned char)(0x20 | (encrypted ? 0x0c : 0) | (rnd(rng) & 3)); /* SC (E, C) AN */
        p[1] = 2 + dg_len < 48 ? (unsigned char)(2 + dg_len) : 0;            /* short length */
        be32put(p + 2, (uint32_t)(1 + rnd(rng) % 1000000));                  /* packet number */
        fill(p + 6, 8, rnd(rng));                                            /* SCI */
        be16put(p + 14, ethertype_of(ipv));
        *type = 0x88e5;
        return 16;
    }
    default:
        *type = ethertype_of(ipv);
        return 0;
    }
}

void build_link(enum link link, enum l2encap l2, const struct datagram *dg, int n, int pad,
                uint64_t *rng, struct frame *fr)
{
    unsigned char *p = fr->data;
    const int ipv = dg[0].ipv;
    size_t len = 0;
    fr->n_expect = 0;
    fr->skipped = 0;
    fr->ip_off = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < dg[i].n_expect; k++)
            fr->expect[fr->n_expect++] = dg[i].expect[k];

    if (links[link].ethernet) {
        uint16_t type;
        unsigned char l2h[32];
        const size_t l2len = l2_headers(l2h, l2, &type, dg[0].len, ipv, rng);
        fill(p, 12, rnd(rng));
        p[0] &= 0xfe;
        len = 12;
        if (link == LINK_QINQ) { /* the outer tag: 802.1ad, or the older 0x9100 for odd VLAN ids */
            const uint16_t vid = (uint16_t)(rnd(rng) & 0x0fff);
            be16put(p + len, vid & 1 ? 0x9100 : 0x88a8);
            be16put(p + len + 2, vid);
            len += 4;
        }
        if (link == LINK_VLAN || link == LINK_QINQ) {
            be16put(p + len, 0x8100);
            be16put(p + len + 2, (uint16_t)(rnd(rng) & 0x0fff));
            len += 4;
        }
        if (link == LINK_8023_SNAP) { /* 802.3 length, then LLC/SNAP with the EtherType */
            be16put(p + len, (uint16_t)(8 + l2len + dg[0].len));
            len += 2;
            len += snap(p + len, type);
        } else {
            be16put(p + len, type);
            len += 2;
        }
        memcpy(p + len, l2h, l2len);
        len += l2len;
        if (l2 == L2_MACSEC_ENCRYPTED) { /* ciphertext and ICV: nothing to check */
            fill(p + len - 2, dg[0].len + 2 + 16, rnd(rng));
            len += dg[0].len + 16;
            fr->n_expect = 0;
            fr->skipped = 1;
        } else {
            fr->ip_off = len;
            memcpy(p + len, dg[0].data, dg[0].len);
            len += dg[0].len;
            if (l2 == L2_MACSEC) { /* the ICV */
                fill(p + len, 16, rnd(rng));
                len += 16;
            }
        }
        if (pad && len < 60) {
            memset(p + len, 0, 60 - len);
            len = 60;
        }
        fr->wirelen = fr->caplen = len;
        return;
    }

    switch (link) {
    case LINK_SLL:
        be16put(p, 0);      /* sent to us */
        be16put(p + 2, 1);  /* ARPHRD_ETHER */
        be16put(p + 4, 6);
        fill(p + 6, 6, rnd(rng));
        memset(p + 12, 0, 2);
        be16put(p + 14, ethertype_of(ipv));
        len = 16;
        break;
    case LINK_SLL2:
        be16put(p, ethertype_of(ipv));
        be16put(p + 2, 0);
        fill(p + 4, 4, rnd(rng)); /* interface index */
        be16put(p + 8, 1);
        p[10] = 0;
        p[11] = 6;
        fill(p + 12, 6, rnd(rng));
        memset(p + 18, 0, 2);
        len = 20;
        break;
    case LINK_NULL: /* the writer's byte order (little-endian here); AF_INET6 of macOS */
        p[0] = ipv == 4 ? 2 : 30;
        p[1] = p[2] = p[3] = 0;
        len = 4;
        break;
    case LINK_LOOP: /* network byte order; AF_INET6 of OpenBSD */
        be32put(p, ipv == 4 ? 2 : 24);
        len = 4;
        break;
    case LINK_WLAN: case LINK_WLAN_QOS: case LINK_WLAN_4ADDR: case LINK_WLAN_AMSDU:
    case LINK_WLAN_PROTECTED:
        len = wlan_frame(p, link, dg, n, rng, &fr->ip_off);
        if (link == LINK_WLAN_PROTECTED) {
            fr->n_expect = 0;
            fr->skipped = 1;
        }
        fr->wirelen = fr->caplen = len;
        return;
    case LINK_RADIOTAP: case LINK_PRISM: case LINK_AVS: case LINK_PPI: {
        int fcs = 0;
        const size_t radio = radio_header(p, link, rng, &fcs);
        size_t at;
        len = radio + wlan_frame(p + radio, LINK_WLAN, dg, 1, rng, &at);
        fr->ip_off = radio + at;
        if (fcs) { /* right but one in four times (over the 802.11 frame only) */
            const uint32_t crc = crc32_ieee(p + radio, len - radio);
            const uint32_t v = rnd(rng) % 4 ? crc : crc ^ (1u + (uint32_t)(rnd(rng) % 0xfffffffeu));
            for (int i = 0; i < 4; i++)
                p[len + (size_t)i] = (unsigned char)(v >> (8 * i));
            len += 4;
        }
        fr->wirelen = fr->caplen = len;
        return;
    }
    case LINK_PPP: /* with or without address/control, with or without a 1-byte protocol */
        if (rnd(rng) & 1) {
            p[len++] = 0xff;
            p[len++] = 0x03;
        }
        if (rnd(rng) & 1) {
            p[len++] = (unsigned char)ppp_protocol(ipv);
        } else {
            be16put(p + len, ppp_protocol(ipv));
            len += 2;
        }
        break;
    case LINK_PPP_HDLC: /* address, control, protocol */
    case LINK_PPP_DIR:  /* the same after a direction byte */
        if (link == LINK_PPP_DIR)
            p[len++] = (unsigned char)(rnd(rng) & 1);
        p[len] = 0xff;
        p[len + 1] = 0x03;
        be16put(p + len + 2, ppp_protocol(ipv));
        len += 4;
        break;
    case LINK_PPPOE:
        p[0] = 0x11;
        p[1] = 0;
        be16put(p + 2, 0x2f01);
        be16put(p + 4, (uint16_t)(2 + dg[0].len));
        be16put(p + 6, ppp_protocol(ipv));
        len = 8;
        break;
    case LINK_CHDLC: /* unicast address, control 0, EtherType */
        p[0] = rnd(rng) & 1 ? 0x0f : 0x8f;
        p[1] = 0;
        be16put(p + 2, ethertype_of(ipv));
        len = 4;
        break;
    case LINK_FRELAY:
    case LINK_FRELAY_SNAP: { /* Q.922 address (10-bit DLCI, EA on the second byte), UI */
        const unsigned dlci = 16 + (unsigned)(rnd(rng) % 1000);
        p[0] = (unsigned char)((dlci >> 4) << 2);
        p[1] = (unsigned char)(((dlci & 15) << 4) | 1);
        p[2] = 0x03;
        if (link == LINK_FRELAY) { /* NLPID */
            p[3] = ipv == 4 ? 0xcc : 0x8e;
            len = 4;
        } else { /* pad, NLPID SNAP, OUI 0, the EtherType */
            memcpy(p + 3, "\x00\x80\x00\x00\x00", 5);
            be16put(p + 8, ethertype_of(ipv));
            len = 10;
        }
        break;
    }
    case LINK_SLIP: /* direction, TYPE_IP, the rest of the compressed-header area unused */
        memset(p, 0, 16);
        p[0] = (unsigned char)(rnd(rng) & 1);
        p[1] = 0x40;
        len = 16;
        break;
    case LINK_PKTAP: /* length 108, PTH_TYPE_PACKET, DLT_EN10MB, the rest zero; Ethernet */
        memset(p, 0, 108);
        p[0] = 108;
        p[4] = 1;
        p[8] = 1;
        memcpy(p + 12, "en0", 3);
        len = 108 + ethernet_header(p + 108, ethertype_of(ipv), 0, rng);
        break;
    case LINK_NFLOG: { /* family, version, resource; the packet header TLV, the payload TLV */
        p[0] = ipv == 4 ? 2 : 10;
        p[1] = 0;
        be16put(p + 2, 1);
        p[4] = 8; p[5] = 0; p[6] = 1; p[7] = 0; /* NFULA_PACKET_HDR: length 8, type 1 (LE) */
        be16put(p + 8, ethertype_of(ipv));       /* hardware protocol */
        p[10] = 3;                                /* hook */
        p[11] = 0;
        const size_t tlv = 4 + dg[0].len;
        p[12] = (unsigned char)tlv;
        p[13] = (unsigned char)(tlv >> 8);
        p[14] = 9; p[15] = 0;                     /* NFULA_PAYLOAD */
        len = 16;
        fr->ip_off = len;
        memcpy(p + len, dg[0].data, dg[0].len);
        len += dg[0].len;
        while (len % 4)
            p[len++] = 0;
        fr->wirelen = fr->caplen = len;
        return;
    }
    default: /* raw IP */
        break;
    }
    fr->ip_off = len;
    memcpy(p + len, dg[0].data, dg[0].len);
    len += dg[0].len;
    fr->wirelen = fr->caplen = len;
}
