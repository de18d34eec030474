// SPDX-License-Identifier: GPL-2.0
/*
 * rule add FAMILY TABLE CHAIN [--set SET [--lookups N]] [--counter]
 *          [--verdict accept|drop|continue|return|jump:CHAIN|goto:CHAIN]
 *
 * The rule's expressions are built in rule_build.c; here the options are
 * read and checked: the set and its type, --match, the kernel's per-rule
 * limits for --lookups, the verdict and its jump target.
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

#include "chain_target.h"
#include "cmd.h"
#include "rule_build.h"
#include "setinfo.h"

/* NFT_RULE_MAXEXPRS in net/netfilter/nf_tables_api.c (128 in 6.12, 6.18) */
enum { RULE_MAX_EXPRS = 128 };

struct rule_opts {
	const char *set, *verdict, *lookups_arg, *match;
	enum rule_kind kind;	/* --set, --vmap or --map */
	uint64_t lookups;
	int counter;
};

/*
 * What the kernel counts per rule (nf_tables_newrule(), 6.12 and 6.18): at
 * most NFT_RULE_MAXEXPRS expressions, and their private data (ops->size,
 * 64-bit kernels) must stay below 1 << 12 bytes, else EFBIG.  Sizes of the
 * expressions built here, measured on 6.18 x86_64 (a netdev rule takes 55
 * lookups of an ipv4_addr set with counter and verdict, 56 bare; the
 * integration test loads the computed maximum for four key types).
 */
enum {
	SZ_PAYLOAD = 16, SZ_META = 16, SZ_CMP_FAST = 24, SZ_BYTEORDER = 16,
	SZ_LOOKUP = 56, SZ_COUNTER = 16, SZ_IMMEDIATE = 32,
	RULE_MAX_BYTES = 4095,
};

struct rule_cost {
	unsigned int exprs, bytes;
};

/* Cost of the dependencies and of one lookup, as rule_lookups() builds. */
static void rule_count(const struct setinfo *si, enum rule_kind kind,
		       struct rule_cost *deps, struct rule_cost *per)
{
	const struct keytype *kt = &si->kt;
	int ether = 0, l3 = 0;

	per->exprs = 1;		/* lookup */
	per->bytes = SZ_LOOKUP;
	if (kind == RULE_MAP) {	/* meta set mark */
		per->exprs++;
		per->bytes += SZ_META;
	}
	for (unsigned int i = 0; i < kt->nfields; i++) {
		uint32_t type = kt->f[i].type;

		per->exprs++;
		per->bytes += (type == TYPE_MARK || type == TYPE_INET_PROTOCOL) ?
			SZ_META : SZ_PAYLOAD;
		if (type == TYPE_MARK && kt->interval) {
			per->exprs++;
			per->bytes += SZ_BYTEORDER;
		}
		if (type == TYPE_ETHERADDR && si->family == NFPROTO_NETDEV)
			ether = 1;
		if ((type == TYPE_IPADDR || type == TYPE_IP6ADDR) &&
		    (si->family == NFPROTO_NETDEV ||
		     si->family == NFPROTO_BRIDGE || si->family == NFPROTO_INET))
			l3 = 1;
	}
	deps->exprs = 2 * (unsigned int)(ether + l3);	/* meta + cmp each */
	deps->bytes = (unsigned int)(ether + l3) * (SZ_META + SZ_CMP_FAST);
}

static int rule_check_exprs(struct ctx *c, const struct setinfo *si,
			    const struct rule_opts *o)
{
	struct rule_cost deps, per, rest;
	uint64_t exprs, bytes;
	unsigned int max, max_b;

	rule_count(si, o->kind, &deps, &per);
	rest.exprs = deps.exprs + !!o->counter + !!o->verdict;
	rest.bytes = deps.bytes + (o->counter ? SZ_COUNTER : 0) +
		     (o->verdict ? SZ_IMMEDIATE : 0);
	exprs = rest.exprs + per.exprs * o->lookups;
	bytes = rest.bytes + per.bytes * o->lookups;
	if (exprs <= RULE_MAX_EXPRS && bytes <= RULE_MAX_BYTES)
		return 0;
	max = (RULE_MAX_EXPRS - rest.exprs) / per.exprs;
	max_b = (RULE_MAX_BYTES - rest.bytes) / per.bytes;
	if (max_b < max)
		max = max_b;
	return cmd_refuse(c, "--lookups %llu: %llu expressions of %llu bytes "
			  "(%u of %u bytes per lookup of %s/%s/%s), the kernel "
			  "takes %d per rule and less than 4096 bytes: at most "
			  "%u lookups", (unsigned long long)o->lookups,
			  (unsigned long long)exprs, (unsigned long long)bytes,
			  per.exprs, per.bytes, nl_family_name(si->family),
			  si->table, si->name, RULE_MAX_EXPRS, max);
}

/*
 * --match 'saddr . sport': which packet field each key field is matched
 * against, as nft writes "ip saddr . th sport @set": saddr|daddr for
 * address fields, sport|dport for inet_service, l4proto and mark for the
 * others.  Default: daddr, dport.  *src: bit i set for a source field.
 */
/* The words of one key field: [0] source (or the only one), [1] dest. */
static void rule_match_words(uint32_t type, const char **w)
{
	const struct rule_field *f = rule_field(type);

	w[0] = f ? f->src : "?";
	w[1] = f ? f->dst : NULL;
}

static int rule_match(struct ctx *c, const struct setinfo *si,
		      const char *spec, unsigned int *src)
{
	const struct keytype *kt = &si->kt;
	const char *p = spec, *w[2];
	struct qbuf q;

	*src = 0;
	for (unsigned int i = 0; spec && i < kt->nfields; i++) {
		size_t len = strcspn(p, " .");

		rule_match_words(kt->f[i].type, w);
		if (w[1] && strlen(w[0]) == len && !strncmp(w[0], p, len))
			*src |= 1U << i;
		else if (strlen(w[w[1] ? 1 : 0]) != len ||
			 strncmp(w[w[1] ? 1 : 0], p, len))
			return cmd_refuse(c, "--match '%s': field %u (%s) takes "
					  "%s%s%s", quote(&q, spec), i + 1,
					  keytype_field_name(kt->f[i].type),
					  w[0], w[1] ? " or " : "",
					  w[1] ? w[1] : "");
		p += len;
		if (i + 1 == kt->nfields)
			break;
		if (strncmp(p, " . ", 3))
			return cmd_refuse(c, "--match '%s': %u fields joined by "
					  "' . ' for the key of %s",
					  quote(&q, spec), kt->nfields, si->name);
		p += 3;
	}
	if (spec && *p)
		return cmd_refuse(c, "--match '%s': %u field(s) for the key of %s",
				  quote(&q, spec), kt->nfields, si->name);
	return 0;
}

/* --verdict accept|drop|continue|return|jump:CHAIN|goto:CHAIN into s */
static int rule_verdict(struct ctx *c, uint16_t family, const char *table,
			const char *v, struct rule_shape *s)
{
	static const struct { const char *name; int32_t code; } verdicts[] = {
		{ "accept", NF_ACCEPT }, { "drop", NF_DROP },
		{ "continue", NFT_CONTINUE }, { "return", NFT_RETURN },
		{ "jump:", NFT_JUMP }, { "goto:", NFT_GOTO },
	};
	struct qbuf q;

	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		size_t len = strlen(verdicts[i].name);
		int chain = verdicts[i].name[len - 1] == ':';
		int err;

		if (chain ? strncmp(v, verdicts[i].name, len) :
			    strcmp(v, verdicts[i].name))
			continue;
		if (chain) {
			err = cmd_name(c, "chain", v + len);
			if (!err)
				err = chain_target_refuse(c, family, table,
							  v + len);
			if (err)
				return err;
			s->chain = v + len;
		}
		s->has_verdict = 1;
		s->verdict = verdicts[i].code;
		return 0;
	}
	return cmd_refuse(c, "bad verdict '%s' (accept, drop, continue, return, "
			  "jump:CHAIN, goto:CHAIN)", quote(&q, v));
}

static int rule_parse_opts(struct ctx *c, int argc, char **argv,
			   struct rule_opts *o)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "lookups", required_argument, NULL, 'n' },
		{ "counter", no_argument, NULL, 'c' },
		{ "verdict", required_argument, NULL, 'v' },
		{ "vmap", required_argument, NULL, 'V' },
		{ "map", required_argument, NULL, 'M' },
		{ "match", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int seen = 0;
	int ch, li = 0, err = 0;

	o->lookups = 1;
	optind = 0;
	opterr = 0;
	while (!err && (ch = cmd_getopt(argc, argv, "+:", opts, &li)) != -1) {
		switch (ch) {
		case 's': case 'V': case 'M':
			if (o->set)
				return cmd_refuse(c, "one of --set, --vmap, --map");
			o->set = optarg;
			o->kind = ch == 's' ? RULE_SET :
				  ch == 'V' ? RULE_VMAP : RULE_MAP;
			break;
		case 'n':
			o->lookups_arg = optarg;
			err = cmd_u64(c, "--lookups", optarg, 1, UINT32_MAX,
				      &o->lookups);
			break;
		case 'c': o->counter = 1; break;
		case 'v': o->verdict = optarg; break;
		case 'm': o->match = optarg; break;
		default: return cmd_opt_err(c, ch, argv);
		}
		if (!err)
			err = cmd_once(c, &seen, li, opts[li].name);
	}
	if (err)
		return err;
	if (optind != argc)
		return cmd_usage(c);
	if (o->lookups_arg && !o->set)
		return cmd_refuse(c, "--lookups needs --set, --vmap or --map");
	if (o->match && !o->set)
		return cmd_refuse(c, "--match needs --set, --vmap or --map");
	if (o->set)
		return cmd_name(c, o->kind == RULE_SET ? "set" : "map", o->set);
	return 0;
}

/* The set (or map) and --match of o into s, checked. */
static int rule_set(struct ctx *c, struct setinfo *si,
		    const struct rule_opts *o, struct rule_shape *s)
{
	int err = cmd_setinfo(c, si);

	if (!err && o->kind == RULE_VMAP && si->kt.dtype != KT_DATA_VERDICT)
		err = cmd_refuse(c, "--vmap %s: not a verdict map", o->set);
	if (!err && o->kind == RULE_MAP && si->kt.dtype != TYPE_MARK)
		err = cmd_refuse(c, "--map %s: not a map with --data mark",
				 o->set);
	if (!err)
		err = rule_match(c, si, o->match, &s->src);
	if (!err)
		err = rule_check_exprs(c, si, o);
	s->si = si;
	s->kind = o->kind;
	s->lookups = o->lookups;
	return err;
}

static int rule_build(struct ctx *c, struct nftnl_rule *r, uint16_t family,
		      const char *table, const struct rule_opts *o)
{
	struct setinfo si = { .family = family, .table = table,
			      .name = o->set };
	struct rule_shape s = { .counter = o->counter };
	char why[160];
	int err = 0;

	if (o->set)
		err = rule_set(c, &si, o, &s);
	if (!err && o->verdict)
		err = rule_verdict(c, family, table, o->verdict, &s);
	/* those refused with their own message; why is only
	 * rule_build_exprs()'s */
	if (err)
		return err;
	err = rule_build_exprs(r, &s, why, sizeof(why));
	return err == -EINVAL ? cmd_refuse(c, "%s", why) : err;
}

int cmd_rule(struct ctx *c, int argc, char **argv)
{
	struct rule_opts o = { 0 };
	struct nftnl_rule *r;
	struct nlmsghdr *nlh;
	uint16_t family;
	struct txn own, *t;
	int err;

	if (argc < 4 || strcmp(argv[0], "add"))
		return cmd_usage(c);
	err = cmd_family(c, argv[1], &family);
	if (!err)
		err = cmd_name(c, "table", argv[2]);
	if (!err)
		err = cmd_name(c, "chain", argv[3]);
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
		err = cmd_txn_begin(c, &own, &t);
	if (err) {
		nftnl_rule_free(r);
		return err;
	}
	nlh = txn_msg_begin(t, NFT_MSG_NEWRULE, family,
			    NLM_F_CREATE | NLM_F_APPEND);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	err = txn_msg_end(t);
	if (err) {
		cmd_txn_abort(c, t);
		return cmd_fail(c, argv[3], err);
	}
	return cmd_commit(c, t);
}
