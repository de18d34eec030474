// SPDX-License-Identifier: GPL-2.0
/*
 * chain add FAMILY TABLE NAME [--hook HOOK --priority PRIO [--dev DEV]
 *                              [--type filter|route|nat] [--policy accept|drop]]
 * chain del FAMILY TABLE NAME
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter_arp.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>

#include "chain_target.h"
#include "chainspec.h"
#include "cmd.h"
#include "name.h"

/*
 * NUMBER, NAME, or NAME + N / NAME - N (blanks optional), as nft.  Numbers
 * as nft reads them (strtoull() base 0, as for ports): 010 is 8, 0x10 is
 * 16, 08 is refused; a '-' only before a number alone.
 */
static int chain_prio(struct ctx *c, uint16_t family, uint32_t hook,
		      const char *s, int32_t *prio)
{
	const char *arg = s;
	int64_t base = 0, sign = 1;
	long long v;
	size_t len = 0;
	struct qbuf q;
	char *end;
	int err;

	while (s[len] >= 'a' && s[len] <= 'z')
		len++;
	if (len) {
		int32_t named;

		err = chain_prio_name(s, len, family, hook, &named);
		if (err == -EPERM)
			return cmd_refuse(c, "priority '%.*s' is not for this "
					  "hook (as in nft: dstnat prerouting, "
					  "srcnat postrouting, out output only)",
					  (int)len, s);
		if (err)
			return cmd_refuse(c, "bad priority '%s' (a number, or "
					  "NAME [+|- N], NAME one of %s)",
					  quote(&q, arg), chain_prio_list(family));
		base = named;
		s += len;
		s += strspn(s, " ");
		if (!*s) {
			*prio = named;
			return 0;
		}
		if (*s != '+' && *s != '-')
			return cmd_refuse(c, "bad priority '%s'", quote(&q, arg));
		sign = *s++ == '-' ? -1 : 1;
		s += strspn(s, " ");
	} else if (*s == '-') {
		sign = -1;
		s++;
	}
	/* strtoll() would skip blanks and take a sign of its own */
	if (*s < '0' || *s > '9')
		return cmd_refuse(c, "bad priority '%s'", quote(&q, arg));
	errno = 0;
	v = strtoll(s, &end, 0);
	/* v beyond 2^32 first: base + v must not overflow */
	if (errno || end == s || *end || v > (long long)UINT32_MAX ||
	    base + sign * v < INT32_MIN || base + sign * v > INT32_MAX)
		return cmd_refuse(c, "bad priority '%s'", quote(&q, arg));
	*prio = (int32_t)(base + sign * v);
	return 0;
}

/* Chain types the kernel has, and where (nf_tables chain type tables). */
static int chain_type_check(struct ctx *c, uint16_t family, uint32_t hook,
			    const char *type)
{
	int l3 = family == NFPROTO_IPV4 || family == NFPROTO_IPV6 ||
		 family == NFPROTO_INET;
	struct qbuf q;

	if (!type || !strcmp(type, "filter"))
		return 0;
	if (!strcmp(type, "route")) {
		if (l3 && hook == NF_INET_LOCAL_OUT)
			return 0;
		return cmd_refuse(c, "chain type route: ip, ip6 and inet "
				  "output hooks only");
	}
	if (!strcmp(type, "nat")) {
		if (l3 && hook <= NF_INET_POST_ROUTING && hook != NF_INET_FORWARD)
			return 0;
		return cmd_refuse(c, "chain type nat: ip, ip6 and inet "
				  "prerouting, input, output, postrouting only");
	}
	return cmd_refuse(c, "unknown chain type '%s' (filter, route, nat)",
			  quote(&q, type));
}

struct chain_opts {
	const char *hook, *prio, *dev, *type, *policy;
};

static int chain_parse_opts(struct ctx *c, int argc, char **argv,
			    struct chain_opts *o)
{
	static const struct option opts[] = {
		{ "hook", required_argument, NULL, 'k' },
		{ "priority", required_argument, NULL, 'p' },
		{ "dev", required_argument, NULL, 'd' },
		{ "type", required_argument, NULL, 't' },
		{ "policy", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int seen = 0;
	int ch, li = 0, err = 0;

	optind = 0;
	opterr = 0;
	while (!err && (ch = cmd_getopt(argc, argv, "+:", opts, &li)) != -1) {
		switch (ch) {
		case 'k': o->hook = optarg; break;
		case 'p': o->prio = optarg; break;
		case 'd': o->dev = optarg; break;
		case 't': o->type = optarg; break;
		case 'P': o->policy = optarg; break;
		default: return cmd_opt_err(c, ch, argv);
		}
		err = cmd_once(c, &seen, li, opts[li].name);
	}
	if (err)
		return err;
	if (optind != argc)
		return cmd_usage(c);
	if (!o->hook != !o->prio)
		return cmd_refuse(c, "--hook and --priority go together");
	if ((o->dev || o->type || o->policy) && !o->hook)
		return cmd_refuse(c, "--dev, --type and --policy need --hook");
	return 0;
}

static int chain_fill(struct ctx *c, struct nftnl_chain *ch, uint16_t family,
		      const struct chain_opts *o)
{
	uint32_t hook;
	int32_t prio = 0;
	char why[128];
	struct qbuf q;
	int err;

	if (!o->hook)
		return 0;
	if (chain_hook_parse(family, o->hook, &hook))
		return cmd_refuse(c, "hook '%s' not valid for family %s",
				  quote(&q, o->hook), nl_family_name(family));
	err = chain_prio(c, family, hook, o->prio, &prio);
	if (err)
		return err;
	if (family == NFPROTO_NETDEV && !o->dev)
		return cmd_refuse(c, "netdev chains need --dev");
	if (o->dev && family != NFPROTO_NETDEV &&
	    !(family == NFPROTO_INET && hook == NF_INET_INGRESS))
		return cmd_refuse(c, "--dev only for netdev chains and inet "
				  "ingress chains");
	if (o->dev && dev_name_check(o->dev, why, sizeof(why)))
		return cmd_refuse(c, "--dev '%s': %s", quote(&q, o->dev), why);
	err = chain_type_check(c, family, hook, o->type);
	if (err)
		return err;
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_HOOKNUM, hook);
	nftnl_chain_set_s32(ch, NFTNL_CHAIN_PRIO, prio);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TYPE, o->type ? o->type : "filter");
	if (o->dev)
		nftnl_chain_set_str(ch, NFTNL_CHAIN_DEV, o->dev);
	if (o->policy) {
		if (strcmp(o->policy, "accept") && strcmp(o->policy, "drop"))
			return cmd_refuse(c, "bad policy '%s' (accept, drop)",
					  quote(&q, o->policy));
		nftnl_chain_set_u32(ch, NFTNL_CHAIN_POLICY,
				    strcmp(o->policy, "drop") ? NF_ACCEPT : NF_DROP);
	}
	return 0;
}

int cmd_chain(struct ctx *c, int argc, char **argv)
{
	struct chain_opts o = { 0 };
	struct nftnl_chain *ch;
	struct nlmsghdr *nlh;
	uint16_t family, type;
	struct txn own, *t;
	int err;

	if (argc < 4)
		return cmd_usage(c);
	if (!strcmp(argv[0], "add"))
		type = NFT_MSG_NEWCHAIN;
	else if (!strcmp(argv[0], "del"))
		type = NFT_MSG_DELCHAIN;
	else
		return cmd_usage(c);
	err = cmd_family(c, argv[1], &family);
	if (!err)
		err = cmd_name(c, "table", argv[2]);
	if (!err)
		err = cmd_name(c, "chain", argv[3]);
	if (!err)
		err = chain_parse_opts(c, argc - 3, argv + 3, &o);
	if (err)
		return err;
	if (type == NFT_MSG_DELCHAIN && o.hook)
		return cmd_refuse(c, "chain del takes no options");
	ch = nftnl_chain_alloc();
	if (!ch)
		return -ENOMEM;
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TABLE, argv[2]);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_NAME, argv[3]);
	err = chain_fill(c, ch, family, &o);
	if (!err)
		err = cmd_txn_begin(c, &own, &t);
	if (err) {
		nftnl_chain_free(ch);
		return err;
	}
	nlh = txn_msg_begin(t, type, family,
			    type == NFT_MSG_NEWCHAIN ? NLM_F_CREATE : 0);
	nftnl_chain_nlmsg_build_payload(nlh, ch);
	nftnl_chain_free(ch);
	err = txn_msg_end(t);
	if (!err)
		err = chain_target_note(c, type, family, argv[2], argv[3],
					!!o.hook);
	if (err) {
		cmd_txn_abort(c, t);
		return cmd_fail(c, argv[3], err);
	}
	return cmd_commit(c, t);
}
