// SPDX-License-Identifier: GPL-2.0
/*
 * rule add FAMILY TABLE CHAIN [--set SET [--lookups N]] [--counter]
 *          [--verdict accept|drop|continue|return|jump:CHAIN|goto:CHAIN]
 *
 * Each lookup loads the packet fields matching the set's key type (as nft
 * would for "ip daddr . th dport @set") into consecutive 32-bit registers
 * and looks them up in SET; N lookups repeat that N times in one rule (a
 * lab knob for lookup cost).  Field sources: ipv4_addr ip daddr, ipv6_addr
 * ip6 daddr, inet_service th dport, inet_proto meta l4proto, ether_addr
 * ether daddr, mark meta mark.  Address fields get the L3 protocol check
 * nft adds in netdev, bridge and inet tables (meta protocol / nfproto).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>

#include "cmd.h"
#include "setinfo.h"

enum { TYPE_IPADDR = 7, TYPE_IP6ADDR = 8, TYPE_ETHERADDR = 9,
       TYPE_INET_PROTOCOL = 12, TYPE_INET_SERVICE = 13, TYPE_MARK = 19 };

static const char rule_usage[] =
	"rule add FAMILY TABLE CHAIN [--set SET [--lookups N]] [--counter]"
	" [--verdict accept|drop|continue|return|jump:CHAIN|goto:CHAIN]";

struct rule_opts {
	const char *set, *verdict;
	uint64_t lookups;
	int counter;
};

static int rule_expr(struct nftnl_rule *r, struct nftnl_expr **out,
		     const char *name)
{
	*out = nftnl_expr_alloc(name);
	if (!*out)
		return -ENOMEM;
	nftnl_rule_add_expr(r, *out);
	return 0;
}

static int rule_payload(struct nftnl_rule *r, uint32_t base, uint32_t off,
			uint32_t len, uint32_t dreg)
{
	struct nftnl_expr *e;
	int err = rule_expr(r, &e, "payload");

	if (err)
		return err;
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, off);
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
	return 0;
}

static int rule_meta(struct nftnl_rule *r, uint32_t key, uint32_t dreg)
{
	struct nftnl_expr *e;
	int err = rule_expr(r, &e, "meta");

	if (err)
		return err;
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, dreg);
	return 0;
}

static int rule_cmp_eq(struct nftnl_rule *r, const void *data, uint32_t len)
{
	struct nftnl_expr *e;
	int err = rule_expr(r, &e, "cmp");

	if (err)
		return err;
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, NFT_CMP_EQ);
	nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
	return 0;
}

static int rule_hton32(struct nftnl_rule *r, uint32_t reg)
{
	struct nftnl_expr *e;
	int err = rule_expr(r, &e, "byteorder");

	if (err)
		return err;
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SREG, reg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_DREG, reg);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_OP, NFT_BYTEORDER_HTON);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_LEN, 4);
	nftnl_expr_set_u32(e, NFTNL_EXPR_BYTEORDER_SIZE, 4);
	return 0;
}

/* The L3 check nft puts before ip/ip6 fields in netdev/bridge/inet. */
static int rule_l3_dep(struct ctx *c, struct nftnl_rule *r, uint16_t family,
		       uint32_t type)
{
	int v6 = type == TYPE_IP6ADDR;
	uint16_t proto = htons(v6 ? ETH_P_IPV6 : ETH_P_IP);
	uint8_t nfproto = v6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
	int err;

	switch (family) {
	case NFPROTO_NETDEV:
	case NFPROTO_BRIDGE:
		err = rule_meta(r, NFT_META_PROTOCOL, NFT_REG_1);
		return err ? err : rule_cmp_eq(r, &proto, sizeof(proto));
	case NFPROTO_INET:
		err = rule_meta(r, NFT_META_NFPROTO, NFT_REG_1);
		return err ? err : rule_cmp_eq(r, &nfproto, sizeof(nfproto));
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
		if ((family == NFPROTO_IPV6) == v6)
			return 0;
		break;
	}
	fprintf(stderr, "nftlab: %s: %s key field in a %s table\n", c->op,
		v6 ? "ipv6_addr" : "ipv4_addr", nl_family_name(family));
	return -EINVAL;
}

static int rule_load_field(struct ctx *c, struct nftnl_rule *r, uint16_t family,
			   const struct kt_field *f, int interval, uint32_t dreg)
{
	int err;

	switch (f->type) {
	case TYPE_IPADDR:
		return rule_payload(r, NFT_PAYLOAD_NETWORK_HEADER, 16, 4, dreg);
	case TYPE_IP6ADDR:
		return rule_payload(r, NFT_PAYLOAD_NETWORK_HEADER, 24, 16, dreg);
	case TYPE_INET_SERVICE:
		return rule_payload(r, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, dreg);
	case TYPE_INET_PROTOCOL:
		return rule_meta(r, NFT_META_L4PROTO, dreg);
	case TYPE_MARK:
		err = rule_meta(r, NFT_META_MARK, dreg);
		/* interval sets hold marks big endian */
		return err || !interval ? err : rule_hton32(r, dreg);
	case TYPE_ETHERADDR:
		if (family == NFPROTO_NETDEV || family == NFPROTO_BRIDGE)
			return rule_payload(r, NFT_PAYLOAD_LL_HEADER, 0, 6, dreg);
		break;
	}
	fprintf(stderr, "nftlab: %s: cannot match a %s field in a %s table\n",
		c->op, keytype_field_name(f->type), nl_family_name(family));
	return -EINVAL;
}

static int rule_lookups(struct ctx *c, struct nftnl_rule *r,
			const struct setinfo *si, uint64_t n)
{
	const struct keytype *kt = &si->kt;
	int err;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		if (kt->f[i].type == TYPE_ETHERADDR &&
		    si->family == NFPROTO_NETDEV) {
			uint16_t ether = ARPHRD_ETHER;	/* host order */

			err = rule_meta(r, NFT_META_IIFTYPE, NFT_REG_1);
			if (!err)
				err = rule_cmp_eq(r, &ether, sizeof(ether));
			if (err)
				return err;
			break;
		}
	}
	for (unsigned int i = 0; i < kt->nfields; i++) {
		uint32_t type = kt->f[i].type;

		if (type == TYPE_IPADDR || type == TYPE_IP6ADDR) {
			err = rule_l3_dep(c, r, si->family, type);
			if (err)
				return err;
			break;
		}
	}
	while (n--) {
		struct nftnl_expr *e;

		for (unsigned int i = 0; i < kt->nfields; i++) {
			/* first field in reg 1 (as nft), then 32-bit regs */
			uint32_t dreg = i ? NFT_REG32_00 + kt->f[i].offset / 4 :
				NFT_REG_1;

			err = rule_load_field(c, r, si->family, &kt->f[i],
					      kt->interval, dreg);
			if (err)
				return err;
		}
		err = rule_expr(r, &e, "lookup");
		if (err)
			return err;
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, NFT_REG_1);
		nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, si->name);
	}
	return 0;
}

static int rule_verdict(struct ctx *c, struct nftnl_rule *r, const char *v)
{
	static const struct { const char *name; int32_t code; } verdicts[] = {
		{ "accept", NF_ACCEPT }, { "drop", NF_DROP },
		{ "continue", NFT_CONTINUE }, { "return", NFT_RETURN },
		{ "jump:", NFT_JUMP }, { "goto:", NFT_GOTO },
	};
	struct nftnl_expr *e;

	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		size_t len = strlen(verdicts[i].name);
		int chain = verdicts[i].name[len - 1] == ':';
		int err;

		if (chain ? strncmp(v, verdicts[i].name, len) || !v[len] :
			    strcmp(v, verdicts[i].name))
			continue;
		err = rule_expr(r, &e, "immediate");
		if (err)
			return err;
		nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
		nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT,
				   (uint32_t)verdicts[i].code);
		if (chain)
			nftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN, v + len);
		return 0;
	}
	fprintf(stderr, "nftlab: %s: bad verdict '%s'\n", c->op, v);
	return -EINVAL;
}

static int rule_parse_opts(struct ctx *c, int argc, char **argv,
			   struct rule_opts *o)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "lookups", required_argument, NULL, 'n' },
		{ "counter", no_argument, NULL, 'c' },
		{ "verdict", required_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, err = 0;

	o->lookups = 1;
	optind = 0;
	while (!err && (ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (ch) {
		case 's': o->set = optarg; break;
		case 'n': err = cmd_u64(c, "--lookups", optarg, 64, &o->lookups); break;
		case 'c': o->counter = 1; break;
		case 'v': o->verdict = optarg; break;
		default: return cmd_usage(c, rule_usage);
		}
	}
	if (!err && optind != argc)
		return cmd_usage(c, rule_usage);
	return err;
}

static int rule_build(struct ctx *c, struct nftnl_rule *r, uint16_t family,
		      const char *table, const struct rule_opts *o)
{
	struct nftnl_expr *e;
	int err = 0;

	if (o->set && o->lookups) {
		struct setinfo si = { .family = family, .table = table,
				      .name = o->set };
		struct nl_err ne;

		err = setinfo_get(&c->nl, &si, &ne);
		if (err) {
			fprintf(stderr, "nftlab: %s: %s/%s/%s: %s%s%s%s\n", c->op,
				nl_family_name(family), table, o->set,
				err == -EOPNOTSUPP ? "set key type not supported" :
				strerror(-err), ne.msg[0] ? " (" : "", ne.msg,
				ne.msg[0] ? ")" : "");
			return err;
		}
		err = rule_lookups(c, r, &si, o->lookups);
	}
	if (!err && o->counter)
		err = rule_expr(r, &e, "counter");
	if (!err && o->verdict)
		err = rule_verdict(c, r, o->verdict);
	return err;
}

int cmd_rule(struct ctx *c, int argc, char **argv)
{
	struct rule_opts o = { 0 };
	struct nftnl_rule *r;
	struct nlmsghdr *nlh;
	uint16_t family;
	struct txn t;
	int err;

	if (argc < 4 || strcmp(argv[0], "add"))
		return cmd_usage(c, rule_usage);
	err = cmd_family(c, argv[1], &family);
	if (!err)
		err = rule_parse_opts(c, argc - 3, argv + 3, &o);
	if (err)
		return err;
	r = nftnl_rule_alloc();
	if (!r)
		return -ENOMEM;
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, argv[2]);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, argv[3]);
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, family);
	err = rule_build(c, r, family, argv[2], &o);
	if (!err)
		err = cmd_txn_begin(c, &t);
	if (err) {
		nftnl_rule_free(r);
		return err;
	}
	nlh = txn_msg_begin(&t, NFT_MSG_NEWRULE, family,
			    NLM_F_CREATE | NLM_F_APPEND);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	err = txn_msg_end(&t);
	if (err) {
		txn_fini(&t);
		return cmd_fail(c, argv[3], err);
	}
	return cmd_commit(c, &t);
}
