/*
 * csum pcap: its help texts (csum pcap --help, verify --help, fix --help).
 */
#include "cmd_pcap.h"

#include <stdio.h>

void pcap_cli_print_pcap_help(void)
{
    printf("Usage: csum pcap verify [OPTIONS] FILE|-\n"
           "       csum pcap fix [OPTIONS] IN|- OUT|-\n"
           "\n"
           "Check the IPv4 header, TCP, UDP, UDP-Lite, DCCP, ICMP, ICMPv6, IGMP, PIM, VRRP,\n"
           "OSPF, RSVP, IPv6 Mobility Header, GRE and ICMP extension (RFC 4884) checksums\n"
           "of every packet in a pcap or pcapng capture (plain, gzip or zstd), with\n"
           "Wireshark's rules (with --fcs, the Ethernet and 802.11 FCSs too); or write a\n"
           "copy with the bad ones corrected. Link types: Ethernet (VLAN tags, LLC/SNAP),\n"
           "Linux cooked SLL/SLL2, raw IP, BSD loopback, 802.11 (radiotap, Prism, AVS, PPI),\n"
           "PPP (HDLC-like framing, PPPoE), Cisco HDLC, Frame Relay, SLIP, PKTAP, NFLOG.\n"
           "Followed: MPLS, MACsec, IP in IP, GRE, ERSPAN, VXLAN, Geneve, and the packets\n"
           "quoted in ICMP errors; every checksum says whether it is in the outer or an\n"
           "inner IP layer.\n"
           "Run 'csum pcap verify --help' or 'csum pcap fix --help' for details.\n");
    /* One line per format: a library's version string has no bound. */
    printf("Compressed captures in this build:\n");
    for (int c = CSUM_PCAP_GZIP; c <= CSUM_PCAP_ZSTD; c++) {
        const char *lib = csum_pcap_compression_library((enum csum_pcap_compression)c);
        printf("  %s: %s%s%s\n", csum_pcap_compression_name((enum csum_pcap_compression)c),
               lib ? "yes (" : "no", lib ? lib : "", lib ? ")" : "");
    }
}

static void print_policy_options(void)
{
    printf("  --rfc1624           a TCP checksum stored as 0xffff where 0x0000 is computed\n"
           "                      is good (the same ones'-complement number, RFC 1624); by\n"
           "                      default it is bad, as in Wireshark\n"
           "  --ipv6-udp-zero     a UDP checksum of 0 over IPv6 means none, as over IPv4\n"
           "                      (tunnels may send it: RFC 6935, 6936); by default it is\n"
           "                      bad, as in Wireshark\n"
           "  --fcs               also check the FCS (CRC-32) of each Ethernet or 802.11\n"
           "                      frame that has one (the capture's FCS length says so, or\n"
           "                      a radiotap or PPI header), as Wireshark's eth.check_fcs\n"
           "                      and wlan.check_checksum do; fix also rewrites a wrong\n"
           "                      one. Off by default: a host whose NIC computes the FCS\n"
           "                      captures its own frames without a right one. A frame cut\n"
           "                      by the snapshot length has its FCS not checkable\n"
           "  --vxlan-port N      UDP destination port N also carries VXLAN (besides 4789)\n"
           "  --geneve-port N     UDP destination port N also carries Geneve (besides 6081)\n"
           "                      (each up to %d times)\n", CSUM_PCAP_MAX_PORTS);
}

void pcap_cli_print_verify_help(void)
{
    printf("Usage: csum pcap verify [OPTIONS] FILE|-\n"
           "Print one line per bad checksum and per offload placeholder, as found, then a\n"
           "summary. FILE may be gzip- or zstd-compressed; '-' reads standard input, and\n"
           "after '--' a FILE may start with '-'. Lines:\n"
           "  frame 12: outer tcp checksum bad: stored 0x1234, computed 0xb1e5\n"
           "  frame 40: inner udp checksum bad: stored 0x0101, computed 0x77e2 (via vxlan)\n"
           "  frame 51: outer tcp checksum offload: stored 0x3c1a, computed 0x9e07 (...)\n"
           "  frame 52: fcs bad: stored 0x9a3c61f0, computed 0x4e7b0d15    (with --fcs)\n"
           "Frames count from 1, values are in network order (as Wireshark shows them; an\n"
           "FCS's 4 bytes as its eth.fcs shows them, reversed in its wlan.fcs);\n"
           "'outer' is the frame's first IP layer, 'inner' one inside a tunnel or quoted in\n"
           "an ICMP error. Verdicts: good; bad; offload: a placeholder left for the NIC by a\n"
           "host with checksum or segmentation offload (the pseudo-header sum, or an IP\n"
           "length of 0), not corruption; not checkable: the bytes it covers were not all\n"
           "captured, an IP fragment, lengths that disagree; none: the sender computed none\n"
           "(a UDP checksum of 0 over IPv4, over IPv6 too with --ipv6-udp-zero, or in a\n"
           "packet quoted in an ICMP error, as a UDP-Lite one there; an RSVP checksum of 0;\n"
           "OSPF with cryptographic authentication, RFC 2328, or an authentication trailer,\n"
           "RFC 7166).\n"
           "The summary counts the checksums by verdict ('4 none': four checksums of verdict\n"
           "none), and with --fcs the FCSs apart. Packets on link types not dissected,\n"
           "encrypted 802.11/MACsec frames, and packets whose headers before the transport\n"
           "are cut or malformed are counted by kind in it.\n"
           "  --json              one JSON document: {\"file\", \"checks\": [{\"frame\", \"layer\",\n"
           "                      \"depth\", \"level\", \"via\", \"verdict\", \"stored\", \"computed\",\n"
           "                      \"offset\", \"note\"}], \"format\", \"compression\", \"packets\",\n"
           "                      \"bytes\", \"summary\", \"undissected\", \"skipped\", \"error\":\n"
           "                      {\"offset\", \"kind\", \"message\"}} (format: pcap or pcapng;\n"
           "                      compression: plain, gzip, zstd; bytes: those walked), the\n"
           "                      error only when the walk stopped: of kind malformed (the\n"
           "                      offset says where), unsupported (xz, say) or system (a\n"
           "                      failed read: the bytes read before it), the offset in\n"
           "                      bytes of the capture after decompression, compressed or\n"
           "                      not; \"summary\": counts by layer and verdict,\n"
           "                      totals by verdict (FCSs included, with --fcs), and\n"
           "                      \"without_checksum\", the packets in which no checksum\n"
           "                      was found at all (not those of verdict none);\n"
           "                      each byte of the file name that is not UTF-8 as \\udcXX, as\n"
           "                      Python's os.fsdecode() gives it\n"
           "  -v, --verbose       also list not-checkable checksums (with the reason) and\n"
           "                      those the sender computed none of\n"
           "  --all               list every checksum, good ones too\n"
           "  --strict            exit 1 also for offload, not-checkable, skipped and\n"
           "                      undissected packets: every packet checked, or a failure\n"
           "                      (stderr says what was not checked)\n");
    print_policy_options();
    printf("A progress line is shown on a terminal for captures above 1 GB. A capture that\n"
           "ends inside its last record, as an interrupted one does, is not malformed: a\n"
           "warning names the byte offset, and the packets before it count as usual.\n"
           "Exit status: 0 every checkable checksum (and FCS, with --fcs) is good, 1 some\n"
           "are bad (or, with --strict, something unchecked or a capture cut short), 2 the\n"
           "file is unreadable, of a kind csum does not read (xz-compressed, say), or\n"
           "malformed (the message then names the byte offset, after the verdicts for every\n"
           "complete packet before it), or bad usage.\n");
}

void pcap_cli_print_fix_help(void)
{
    printf("Usage: csum pcap fix [OPTIONS] IN|- OUT|-\n"
           "Write OUT, a copy of the capture IN in the same format and compression in which\n"
           "every bad checksum is replaced by the correct one and every other byte is\n"
           "identical, but the FCS of an Ethernet or 802.11 frame that has one (the capture\n"
           "says so, or a radiotap or PPI header), computed again when it was right. One\n"
           "line per change, an FCS's after its frame's checksums, then a summary (which\n"
           "names packets not looked into, skipped or not dissected, as verify's does):\n"
           "  frame 12: outer tcp checksum 0x1234 -> 0xb1e5\n"
           "  frame 12: fcs 0x9a3c61f0 -> 0x4e7b0d15\n"
           "  in.pcap -> out.pcap: 40 packets, fixed 1 checksum and 1 FCS; left alone: ...\n"
           "(an FCS's 4 bytes in network order, as Wireshark's eth.fcs shows them; its\n"
           "wlan.fcs shows them reversed). With --fcs, every wrong FCS is rewritten too, and\n"
           "listed so. A checksum over another one (a tunnel's UDP checksum, an ICMP error's\n"
           "over the quoted header, an FCS over the frame) is computed after that one is\n"
           "fixed, so it may change too. Not-checkable checksums and offload placeholders\n"
           "are left alone. OUT is written to a temporary file next to it (next to the file\n"
           "a symbolic link names, the link kept: created for a dangling link; another\n"
           "user's link is refused, root's followed), created before IN is read, and\n"
           "renamed into place once complete: OUT is never partial. An existing OUT keeps\n"
           "its mode (and owner and group where allowed); a new one gets IN's mode less the\n"
           "umask, as with cp. An OUT that exists and is not a regular file (a FIFO, a\n"
           "device, /dev/stdout or /dev/fd/N on a pipe) is opened and written as the fix\n"
           "goes, never replaced: on an error, what was written stays. IN is never\n"
           "modified, and OUT may not be IN (also not through another name or a link).\n"
           "'-' reads standard input, or writes standard output (as a FIFO OUT); after '--'\n"
           "a name that starts with '-' is a file. A capture that ends inside its last\n"
           "record (interrupted) gives a warning, and OUT holds every whole record before\n"
           "it.\n"
           "  -n, --dry-run       only list what would change (OUT may then be omitted)\n"
           "  --fix-offload       also replace offload placeholders by the computed value\n");
    print_policy_options();
    printf("Exit status: 0 done (also when a reader of the list of changes stops early, as\n"
           "head does), 2 the input is unreadable, of a kind csum does not read or\n"
           "malformed, OUT cannot be written, the list cannot be written (OUT is complete\n"
           "all the same), or bad usage.\n");
}
