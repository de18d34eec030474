// SPDX-License-Identifier: GPL-2.0
/*
 * The expressions of the rules nftlab writes (rule_build.h).
 *
 * Each lookup loads the packet fields matching the set's key type (as nft
 * would for "ip daddr . th dport @set") into consecutive 32-bit registers
 * and looks them up; N lookups repeat that N times in one rule (a lab knob
 * for lookup cost).  Field sources: ipv4_addr ip daddr, ipv6_addr ip6
 * daddr, inet_service th dport, inet_proto meta l4proto, ether_addr ether
 * daddr, mark meta mark (saddr, sport with the source bit).  Address
 * fields get the L3 protocol check nft adds in netdev, bridge and inet
 * tables (meta protocol / nfproto), ether fields in netdev tables the
 * interface type check (meta iiftype).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>

#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>

#include "rule_build.h"

static const struct rule_field fields[] = {
	{ TYPE_IPADDR, "ip", "saddr", "daddr" },
	{ TYPE_IP6ADDR, "ip6", "saddr", "daddr" },
	{ TYPE_ETHERADDR, "ether", "saddr", "daddr" },
	{ TYPE_INET_SERVICE, "th", "sport", "dport" },
	{ TYPE_INET_PROTOCOL, "meta", "l4proto", NULL },
	{ TYPE_MARK, "meta", "mark", NULL },
};

const struct rule_field *rule_field(uint32_t type)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i].type == type)
			return &fields[i];
	return NULL;
}

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

/* meta KEY into dreg, or (sreg) meta KEY set from sreg */
static int rule_meta(struct nftnl_rule *r, uint32_t key, uint16_t attr,
		     uint32_t reg)
{
	struct nftnl_expr *e;
	int err = rule_expr(r, &e, "meta");

	if (err)
		return err;
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
	nftnl_expr_set_u32(e, attr, reg);
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
static int rule_l3_dep(struct nftnl_rule *r, uint16_t family, uint32_t type,
		       char *why, size_t whylen)
{
	int v6 = type == TYPE_IP6ADDR;
	uint16_t proto = htons(v6 ? ETH_P_IPV6 : ETH_P_IP);
	uint8_t nfproto = v6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
	int err;

	switch (family) {
	case NFPROTO_NETDEV:
	case NFPROTO_BRIDGE:
		err = rule_meta(r, NFT_META_PROTOCOL, NFTNL_EXPR_META_DREG,
				NFT_REG_1);
		return err ? err : rule_cmp_eq(r, &proto, sizeof(proto));
	case NFPROTO_INET:
		err = rule_meta(r, NFT_META_NFPROTO, NFTNL_EXPR_META_DREG,
				NFT_REG_1);
		return err ? err : rule_cmp_eq(r, &nfproto, sizeof(nfproto));
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
		if ((family == NFPROTO_IPV6) == v6)
			return 0;
		break;
	}
	snprintf(why, whylen, "%s key field in a %s table",
		 v6 ? "ipv6_addr" : "ipv4_addr", nl_family_name(family));
	return -EINVAL;
}

/* src: the source field (ip saddr, th sport, ether saddr), else dest */
static int rule_load_field(struct nftnl_rule *r, uint16_t family,
			   const struct kt_field *f, int interval, int src,
			   uint32_t dreg)
{
	int err;

	switch (f->type) {
	case TYPE_IPADDR:
		return rule_payload(r, NFT_PAYLOAD_NETWORK_HEADER, src ? 12 : 16,
				    4, dreg);
	case TYPE_IP6ADDR:
		return rule_payload(r, NFT_PAYLOAD_NETWORK_HEADER, src ? 8 : 24,
				    16, dreg);
	case TYPE_INET_SERVICE:
		return rule_payload(r, NFT_PAYLOAD_TRANSPORT_HEADER, src ? 0 : 2,
				    2, dreg);
	case TYPE_INET_PROTOCOL:
		return rule_meta(r, NFT_META_L4PROTO, NFTNL_EXPR_META_DREG, dreg);
	case TYPE_MARK:
		err = rule_meta(r, NFT_META_MARK, NFTNL_EXPR_META_DREG, dreg);
		/* interval sets hold marks big endian */
		return err || !interval ? err : rule_hton32(r, dreg);
	case TYPE_ETHERADDR:
		if (family == NFPROTO_NETDEV || family == NFPROTO_BRIDGE)
			return rule_payload(r, NFT_PAYLOAD_LL_HEADER, src ? 6 : 0,
					    6, dreg);
		break;
	}
	return -EINVAL;
}

/* What the lookups depend on: meta iiftype, meta protocol or nfproto. */
static int rule_deps(struct nftnl_rule *r, const struct setinfo *si,
		     char *why, size_t whylen)
{
	const struct keytype *kt = &si->kt;
	int err;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		if (kt->f[i].type == TYPE_ETHERADDR &&
		    si->family == NFPROTO_NETDEV) {
			uint16_t ether = ARPHRD_ETHER;	/* host order */

			err = rule_meta(r, NFT_META_IIFTYPE, NFTNL_EXPR_META_DREG,
					NFT_REG_1);
			if (!err)
				err = rule_cmp_eq(r, &ether, sizeof(ether));
			if (err)
				return err;
			break;
		}
	}
	for (unsigned int i = 0; i < kt->nfields; i++) {
		uint32_t type = kt->f[i].type;

		if (type == TYPE_IPADDR || type == TYPE_IP6ADDR)
			return rule_l3_dep(r, si->family, type, why, whylen);
	}
	return 0;
}

/* One lookup: the key fields, then the lookup (and meta mark set). */
static int rule_lookup(struct nftnl_rule *r, const struct rule_shape *s,
		       char *why, size_t whylen)
{
	const struct keytype *kt = &s->si->kt;
	struct nftnl_expr *e;
	int err;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		/* first field in reg 1 (as nft), then 32-bit regs */
		uint32_t dreg = i ? NFT_REG32_00 + kt->f[i].offset / 4 :
			NFT_REG_1;

		err = rule_load_field(r, s->si->family, &kt->f[i], kt->interval,
				      !!(s->src & (1U << i)), dreg);
		if (err == -EINVAL)
			snprintf(why, whylen, "cannot match a %s field in a %s "
				 "table", keytype_field_name(kt->f[i].type),
				 nl_family_name(s->si->family));
		if (err)
			return err;
	}
	err = rule_expr(r, &e, "lookup");
	if (err)
		return err;
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, NFT_REG_1);
	nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, s->si->name);
	if (s->kind == RULE_VMAP)
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_DREG, NFT_REG_VERDICT);
	if (s->kind != RULE_MAP)
		return 0;
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_DREG, NFT_REG_1);
	return rule_meta(r, NFT_META_MARK, NFTNL_EXPR_META_SREG, NFT_REG_1);
}

static int rule_verdict(struct nftnl_rule *r, const struct rule_shape *s)
{
	struct nftnl_expr *e;
	int err = rule_expr(r, &e, "immediate");

	if (err)
		return err;
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, (uint32_t)s->verdict);
	if (s->verdict == NFT_JUMP || s->verdict == NFT_GOTO)
		nftnl_expr_set_str(e, NFTNL_EXPR_IMM_CHAIN, s->chain);
	return 0;
}

int rule_build_exprs(struct nftnl_rule *r, const struct rule_shape *s,
		     char *why, size_t whylen)
{
	struct nftnl_expr *e;
	int err = 0;

	/* why is read after any -EINVAL: never left unwritten */
	if (whylen)
		why[0] = '\0';
	if (s->si) {
		err = rule_deps(r, s->si, why, whylen);
		for (uint64_t n = 0; !err && n < s->lookups; n++)
			err = rule_lookup(r, s, why, whylen);
	}
	if (!err && s->counter)
		err = rule_expr(r, &e, "counter");
	if (!err && s->has_verdict)
		err = rule_verdict(r, s);
	if (err == -EINVAL && whylen && !why[0])
		snprintf(why, whylen, "no rule nftlab can build");
	return err;
}
