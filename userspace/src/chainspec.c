// SPDX-License-Identifier: GPL-2.0
/*
 * Chain hooks and priority names per family, as nft 1.0.6 reads and
 * prints them (chainspec.h): one table for chain add and for list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter_arp.h>

#include "chainspec.h"

static const struct { const char *name; uint32_t num; int netdev; } hooks[] = {
	{ "prerouting", NF_INET_PRE_ROUTING, 0 },
	{ "input", NF_INET_LOCAL_IN, 0 },
	{ "forward", NF_INET_FORWARD, 0 },
	{ "output", NF_INET_LOCAL_OUT, 0 },
	{ "postrouting", NF_INET_POST_ROUTING, 0 },
	{ "ingress", NF_NETDEV_INGRESS, 1 },
	{ "egress", NF_NETDEV_EGRESS, 1 },
};

int chain_hook_parse(uint16_t family, const char *name, uint32_t *hook)
{
	/* arp has hooks of its own: NF_ARP_IN 0, NF_ARP_OUT 1 */
	if (family == NFPROTO_ARP) {
		if (strcmp(name, "input") && strcmp(name, "output"))
			return -EINVAL;
		*hook = name[0] == 'i' ? NF_ARP_IN : NF_ARP_OUT;
		return 0;
	}
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		if (strcmp(hooks[i].name, name))
			continue;
		if (family == NFPROTO_NETDEV && !hooks[i].netdev)
			return -EINVAL;
		if (family != NFPROTO_NETDEV && hooks[i].netdev &&
		    !(family == NFPROTO_INET && hooks[i].num == NF_NETDEV_INGRESS))
			return -EINVAL;
		/* inet ingress is NF_INET_INGRESS (5) */
		*hook = (family == NFPROTO_INET && hooks[i].netdev) ?
			NF_INET_INGRESS : hooks[i].num;
		return 0;
	}
	return -EINVAL;
}

/*
 * Priority names as nft 1.0.6 takes them (checked against it): per family,
 * some for one hook only; hook -1: any.
 */
static const struct prio_tag {
	const char *name;
	int32_t prio;
	int bridge;		/* 1: bridge, 0: ip, ip6, inet; -1: all */
	int hook;
} prio_names[] = {
	{ "raw", -300, 0, -1 }, { "mangle", -150, 0, -1 },
	{ "dstnat", -100, 0, NF_INET_PRE_ROUTING }, { "filter", 0, 0, -1 },
	{ "security", 50, 0, -1 }, { "srcnat", 100, 0, NF_INET_POST_ROUTING },
	{ "dstnat", -300, 1, NF_INET_PRE_ROUTING }, { "filter", -200, 1, -1 },
	{ "out", 100, 1, NF_INET_LOCAL_OUT },
	{ "srcnat", 300, 1, NF_INET_POST_ROUTING },
	{ "filter", 0, -1, -1 },	/* arp, netdev */
};

static int prio_name_fits(const struct prio_tag *n, uint16_t family,
			  uint32_t hook)
{
	int l3 = family == NFPROTO_IPV4 || family == NFPROTO_IPV6 ||
		 family == NFPROTO_INET;

	if (n->bridge == 1 ? family != NFPROTO_BRIDGE :
	    n->bridge == 0 ? !l3 : l3 || family == NFPROTO_BRIDGE)
		return 0;
	return n->hook < 0 || (uint32_t)n->hook == hook;
}

const char *chain_prio_list(uint16_t family)
{
	if (family == NFPROTO_BRIDGE)
		return "dstnat filter out srcnat";
	if (family == NFPROTO_ARP || family == NFPROTO_NETDEV)
		return "filter";
	return "raw mangle dstnat filter security srcnat";
}

/* The name's value; -EINVAL: no such name, -EPERM: not for this hook. */
int chain_prio_name(const char *s, size_t len, uint16_t family, uint32_t hook,
		    int32_t *prio)
{
	int err = -EINVAL;

	for (size_t i = 0; i < sizeof(prio_names) / sizeof(prio_names[0]); i++) {
		const struct prio_tag *n = &prio_names[i];

		if (strlen(n->name) != len || strncmp(n->name, s, len))
			continue;
		if (prio_name_fits(n, family, hook)) {
			*prio = n->prio;
			return 0;
		}
		if (prio_name_fits(n, family, (uint32_t)n->hook))
			err = -EPERM;	/* the family's, another hook's */
	}
	return err;
}


/* The hook's name in family, as chain_hook_parse() reads it; NULL: none */
const char *chain_hook_name(uint16_t family, uint32_t hook)
{
	uint32_t num;

	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (!chain_hook_parse(family, hooks[i].name, &num) && num == hook)
			return hooks[i].name;
	return NULL;
}

/* Some name of this family has value prio and fits hook. */
static int prio_fits(int32_t prio, const char *name, uint16_t family,
		     uint32_t hook)
{
	for (size_t i = 0; i < sizeof(prio_names) / sizeof(prio_names[0]); i++)
		if (prio_names[i].prio == prio &&
		    !strcmp(prio_names[i].name, name) &&
		    prio_name_fits(&prio_names[i], family, hook))
			return 1;
	return 0;
}

/*
 * The priority as nft 1.0.6 prints it (prio2str()): the first standard
 * priority of the family's list (bridge's or the others') within 10 of
 * it, as NAME, NAME + N or NAME - N, if that name is valid for the family
 * and hook; else (and if none is that close) the number.
 */
void chain_prio_format(uint16_t family, uint32_t hook, int32_t prio,
		       char *buf, size_t len)
{
	int bridge = family == NFPROTO_BRIDGE;

	for (size_t i = 0; i < sizeof(prio_names) / sizeof(prio_names[0]); i++) {
		const struct prio_tag *n = &prio_names[i];
		int64_t off = (int64_t)prio - n->prio;

		if (n->bridge != bridge || off < -10 || off > 10)
			continue;
		if (!prio_fits(n->prio, n->name, family, hook))
			break;
		if (off)
			snprintf(buf, len, "%s %c %lld", n->name, off > 0 ? '+' : '-',
				 (long long)(off > 0 ? off : -off));
		else
			snprintf(buf, len, "%s", n->name);
		return;
	}
	snprintf(buf, len, "%d", prio);
}
