/*
 * Protocol numbers the dissectors share: IP protocol numbers and IPv6 extension headers
 * (IANA "Assigned Internet Protocol Numbers"), EtherTypes (IEEE registry), tunnel ports.
 * The trailing underscore keeps them apart from <netinet/in.h>'s macros.
 */
#ifndef CSUM_PCAP_PROTOCOLS_H
#define CSUM_PCAP_PROTOCOLS_H

enum {
    IPPROTO_HOPOPTS_ = 0,
    IPPROTO_ICMP_ = 1,
    IPPROTO_IGMP_ = 2,
    IPPROTO_IPIP_ = 4,
    IPPROTO_TCP_ = 6,
    IPPROTO_UDP_ = 17,
    IPPROTO_DCCP_ = 33,
    IPPROTO_IPV6_ = 41,
    IPPROTO_RSVP_ = 46,
    IPPROTO_ROUTING_ = 43,
    IPPROTO_FRAGMENT_ = 44,
    IPPROTO_GRE_ = 47,
    IPPROTO_AH_ = 51,
    IPPROTO_ICMPV6_ = 58,
    IPPROTO_DSTOPTS_ = 60,
    IPPROTO_OSPF_ = 89,
    IPPROTO_PIM_ = 103,
    IPPROTO_VRRP_ = 112,
    IPPROTO_MH_ = 135,                 /* the IPv6 Mobility Header */
    IPPROTO_UDPLITE_ = 136,
    IPPROTO_SHIM6_ = 140,
};

enum {
    ETHERTYPE_IPV4 = 0x0800,
    ETHERTYPE_IPV6 = 0x86dd,
    ETHERTYPE_VLAN = 0x8100,           /* 802.1Q */
    ETHERTYPE_QINQ = 0x88a8,           /* 802.1ad service tag */
    ETHERTYPE_QINQ_OLD = 0x9100,
    ETHERTYPE_MPLS = 0x8847,
    ETHERTYPE_MPLS_MULTICAST = 0x8848,
    ETHERTYPE_PPPOE_SESSION = 0x8864,
    ETHERTYPE_MACSEC = 0x88e5,
    ETHERTYPE_TEB = 0x6558,            /* an Ethernet frame: transparent bridging (GRE, Geneve) */
    ETHERTYPE_PPP = 0x880b,
    ETHERTYPE_ERSPAN_2 = 0x88be,       /* ERSPAN types I and II */
    ETHERTYPE_ERSPAN_3 = 0x22eb,
};

enum {
    UDP_PORT_VXLAN = 4789,             /* RFC 7348 */
    UDP_PORT_VXLAN_GPE = 4790,         /* draft-ietf-nvo3-vxlan-gpe */
    UDP_PORT_GENEVE = 6081,            /* RFC 8926 */
};

#endif /* CSUM_PCAP_PROTOCOLS_H */
