/*
 * Names for what the library reports: layers, verdicts, encapsulations, skips, link types,
 * formats and compressions.
 */
#include "csum_pcap.h"

#include <stddef.h>

#define NAME(table, i) ((size_t)(i) < sizeof table / sizeof table[0] ? table[i] : "?")

const char *csum_pcap_layer_name(enum csum_pcap_layer layer)
{
    static const char *const names[] = { "ipv4", "tcp", "udp", "icmp", "icmpv6", "gre",
                                         "icmp-ext", "igmp", "pim", "vrrp", "ospf", "rsvp",
                                         "dccp", "udplite", "mh", "fcs" };
    _Static_assert(sizeof names / sizeof names[0] == CSUM_PCAP_LAYER_COUNT, "layer names");
    return NAME(names, layer);
}

const char *csum_pcap_verdict_name(enum csum_pcap_verdict verdict)
{
    static const char *const names[] = { "good", "bad", "offload", "not_checkable",
                                         "no_checksum" };
    _Static_assert(sizeof names / sizeof names[0] == CSUM_PCAP_VERDICT_COUNT, "verdict names");
    return NAME(names, verdict);
}

const char *csum_pcap_error_kind_name(enum csum_pcap_error_kind kind)
{
    static const char *const names[] = { "malformed", "unsupported", "system",
                                         "interrupted" };
    _Static_assert(sizeof names / sizeof names[0] == CSUM_PCAP_ERROR_KIND_COUNT,
                   "error kind names");
    return NAME(names, kind);
}

const char *csum_pcap_via_name(enum csum_pcap_via via)
{
    static const char *const names[] = { "", "ip", "gre", "erspan", "vxlan", "vxlan-gpe",
                                         "geneve", "icmp", "icmpv6" };
    _Static_assert(sizeof names / sizeof names[0] == CSUM_PCAP_VIA_COUNT, "via names");
    return NAME(names, via);
}

const char *csum_pcap_skip_name(enum csum_pcap_skip skip)
{
    static const char *const names[] = { "wlan_protected", "wlan_fragment", "macsec_encrypted",
                                         "nesting", "truncated", "malformed" };
    _Static_assert(sizeof names / sizeof names[0] == CSUM_PCAP_SKIP_COUNT, "skip names");
    return NAME(names, skip);
}

const char *csum_pcap_skip_description(enum csum_pcap_skip skip)
{
    static const char *const text[] = {
        "encrypted 802.11 frames", "802.11 fragments after the first",
        "encrypted MACsec frames", "packets nested deeper than followed",
        "packets cut off inside the headers before their transport",
        "packets with malformed headers before their transport",
    };
    _Static_assert(sizeof text / sizeof text[0] == CSUM_PCAP_SKIP_COUNT, "skip descriptions");
    return NAME(text, skip);
}

const char *csum_pcap_compression_name(enum csum_pcap_compression c)
{
    static const char *const names[] = { "plain", "gzip", "zstd" };
    return NAME(names, c);
}

const char *csum_pcap_format_name(enum csum_pcap_format f)
{
    static const char *const names[] = { "unknown", "pcap", "pcapng" };
    return NAME(names, f);
}

/* The registry's names (draft-ietf-opsawg-pcaplinktype; tcpdump.org/linktypes.html) for the
 * link types seen in practice, dissected or not. */
const char *csum_pcap_linktype_name(uint32_t linktype)
{
    static const struct { uint16_t value; const char *name; } types[] = {
        { 0, "NULL" }, { 1, "ETHERNET" }, { 3, "AX25" }, { 6, "IEEE802_5" },
        { 7, "ARCNET_BSD" }, { 8, "SLIP" }, { 9, "PPP" }, { 10, "FDDI" },
        { 12, "RAW" }, { 14, "RAW" }, { 50, "PPP_HDLC" }, { 51, "PPP_ETHER" },
        { 100, "ATM_RFC1483" }, { 101, "RAW" }, { 104, "C_HDLC" }, { 105, "IEEE802_11" },
        { 107, "FRELAY" }, { 108, "LOOP" }, { 113, "LINUX_SLL" }, { 114, "LTALK" },
        { 117, "PFLOG" }, { 119, "IEEE802_11_PRISM" }, { 122, "IP_OVER_FC" },
        { 123, "SUNATM" }, { 127, "IEEE802_11_RADIOTAP" }, { 129, "ARCNET_LINUX" },
        { 138, "APPLE_IP_OVER_IEEE1394" }, { 139, "MTP2_WITH_PHDR" }, { 140, "MTP2" },
        { 141, "MTP3" }, { 142, "SCCP" }, { 143, "DOCSIS" }, { 144, "LINUX_IRDA" },
        { 147, "USER0" }, { 148, "USER1" }, { 149, "USER2" }, { 150, "USER3" },
        { 163, "IEEE802_11_AVS" }, { 165, "BACNET_MS_TP" }, { 166, "PPP_PPPD" },
        { 169, "GPRS_LLC" }, { 177, "LINUX_LAPD" }, { 187, "BLUETOOTH_HCI_H4" },
        { 189, "USB_LINUX" }, { 192, "PPI" }, { 195, "IEEE802_15_4_WITHFCS" },
        { 201, "BLUETOOTH_HCI_H4_WITH_PHDR" }, { 203, "LAPD" }, { 204, "PPP_WITH_DIR" },
        { 205, "C_HDLC_WITH_DIR" }, { 206, "FRELAY_WITH_DIR" }, { 207, "LAPB_WITH_DIR" },
        { 215, "IEEE802_15_4_NONASK_PHY" }, { 220, "USB_LINUX_MMAPPED" },
        { 226, "IPNET" }, { 227, "CAN_SOCKETCAN" }, { 228, "IPV4" }, { 229, "IPV6" },
        { 230, "IEEE802_15_4_NOFCS" }, { 231, "DBUS" }, { 239, "NFLOG" },
        { 240, "NETANALYZER" }, { 241, "NETANALYZER_TRANSPARENT" }, { 242, "IPOIB" },
        { 243, "MPEG_2_TS" }, { 247, "INFINIBAND" }, { 248, "SCTP" }, { 249, "USBPCAP" },
        { 251, "BLUETOOTH_LE_LL" }, { 253, "NETLINK" }, { 254, "BLUETOOTH_LINUX_MONITOR" },
        { 256, "BLUETOOTH_LE_LL_WITH_PHDR" }, { 258, "PKTAP" }, { 259, "EPON" },
        { 263, "WATTSTOPPER_DLM" }, { 264, "ISO_14443" }, { 266, "USB_DARWIN" },
        { 270, "LORATAP" }, { 271, "VSOCK" }, { 272, "NORDIC_BLE" },
        { 274, "ETHERNET_MPACKET" }, { 276, "LINUX_SLL2" }, { 280, "VPP_DISPATCH" },
        { 283, "IEEE802_15_4_TAP" }, { 290, "ETW" },
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].value == linktype)
            return types[i].name;
    return NULL;
}
