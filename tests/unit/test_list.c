// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of what nftlab list prints as nft 1.0.6 does: priorities
 * (chainspec.c) and elements (nft_elem.c); the integration tests compare
 * whole listings with nft's.
 */
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter_arp.h>

#include "chainspec.h"
#include "elem.h"
#include "nft_elem.h"
#include "tap.h"

static int prio_is(uint16_t family, uint32_t hook, int32_t prio,
		   const char *want)
{
	char buf[64];

	chain_prio_format(family, hook, prio, buf, sizeof(buf));
	return !strcmp(buf, want);
}

static void test_prio(struct tap *t)
{
	TAP_OK(t, prio_is(NFPROTO_IPV4, NF_INET_LOCAL_IN, 0, "filter") &&
	       prio_is(NFPROTO_IPV4, NF_INET_LOCAL_IN, 10, "filter + 10") &&
	       prio_is(NFPROTO_IPV4, NF_INET_LOCAL_IN, -140, "mangle + 10") &&
	       prio_is(NFPROTO_IPV4, NF_INET_LOCAL_IN, 11, "11"),
	       "prio: names within 10, as nft prints them");
	TAP_OK(t, prio_is(NFPROTO_IPV4, NF_INET_LOCAL_IN, -95, "-95") &&
	       prio_is(NFPROTO_IPV4, NF_INET_PRE_ROUTING, -95, "dstnat + 5") &&
	       prio_is(NFPROTO_INET, NF_INET_POST_ROUTING, 90, "srcnat - 10"),
	       "prio: dstnat and srcnat only on their hooks, else the number");
	TAP_OK(t, prio_is(NFPROTO_NETDEV, NF_NETDEV_INGRESS, -150, "-150") &&
	       prio_is(NFPROTO_NETDEV, NF_NETDEV_INGRESS, -10, "filter - 10") &&
	       prio_is(NFPROTO_ARP, NF_ARP_OUT, 3, "filter + 3"),
	       "prio: netdev and arp know filter only");
	TAP_OK(t, prio_is(NFPROTO_BRIDGE, NF_INET_PRE_ROUTING, -290, "dstnat + 10") &&
	       prio_is(NFPROTO_BRIDGE, NF_INET_LOCAL_OUT, 101, "out + 1") &&
	       prio_is(NFPROTO_BRIDGE, NF_INET_FORWARD, -199, "filter + 1") &&
	       prio_is(NFPROTO_BRIDGE, NF_INET_FORWARD, 0, "0"),
	       "prio: bridge names and values");
	TAP_OK(t, !strcmp(chain_hook_name(NFPROTO_INET, NF_INET_INGRESS), "ingress") &&
	       !strcmp(chain_hook_name(NFPROTO_ARP, NF_ARP_OUT), "output") &&
	       !strcmp(chain_hook_name(NFPROTO_NETDEV, NF_NETDEV_EGRESS), "egress") &&
	       !chain_hook_name(NFPROTO_ARP, 2),
	       "hook names per family, none for hooks nftlab does not take");
}

static int elem_is(const char *type, int interval, const char *in,
		   const char *want)
{
	struct setinfo si = { 0 };
	struct elem_raw r = { 0 };
	struct elem el;
	char why[128], buf[256];

	if (keytype_parse(&si.kt, type))
		return 0;
	si.kt.interval = interval;
	si.flags = interval ? 4 : 0;	/* NFT_SET_INTERVAL */
	if (elem_parse(&el, &si.kt, in, why, sizeof(why)))
		return 0;
	memcpy(r.key, el.key, sizeof(r.key));
	memcpy(r.key_end, el.key_end, sizeof(r.key_end));
	return !nft_elem_text(&si, &r, buf, sizeof(buf)) && !strcmp(buf, want);
}

static void test_elems(struct tap *t)
{
	char buf[32];

	TAP_OK(t, elem_is("mark", 1, "0x20-0x2f", "0x00000020/28") &&
	       elem_is("mark", 1, "0x10-0x20", "0x00000010-0x00000020") &&
	       elem_is("ipv4_addr", 1, "10.2.0.0-10.2.0.1", "10.2.0.0/31"),
	       "nft elements: marks and addresses as prefixes where ranges are");
	TAP_OK(t, elem_is("inet_service", 1, "0-1023", "0-1023") &&
	       elem_is("ether_addr", 1, "00:11:22:33:44:00-00:11:22:33:44:ff",
		       "00:11:22:33:44:00-00:11:22:33:44:ff"),
	       "nft elements: no prefixes of ports and MAC addresses");
	TAP_OK(t, elem_is("inet_proto", 0, "6", "tcp") &&
	       elem_is("inet_proto", 1, "6-17", "6-17") &&
	       elem_is("inet_proto", 0, "58", "ipv6-icmp"),
	       "nft elements: protocols by /etc/protocols, numbers in ranges");
	nft_time_text(0, buf, sizeof(buf));
	TAP_OK(t, !*buf && (nft_time_text(93784000, buf, sizeof(buf)),
			    !strcmp(buf, "1d2h3m4s")),
	       "nft time: nothing for 0, d h m s ms");
}

void test_list(struct tap *t)
{
	test_prio(t);
	test_elems(t);
}
