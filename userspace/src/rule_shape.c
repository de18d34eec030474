// SPDX-License-Identifier: GPL-2.0
/* Kernel rules recognised as rules nftlab writes (rule_shape.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>

#include "rule_shape.h"

enum { EXPR_ATTRS = 16 };	/* attribute numbers checked per expression */

static const char *expr_name(const struct nftnl_expr *e)
{
	return nftnl_expr_get_str(e, NFTNL_EXPR_NAME);
}

/* The kernel dumps a 32-bit register as NFT_REG_n where one exists. */
static uint32_t reg_norm(uint32_t reg)
{
	return reg <= NFT_REG_4 ? reg * 4 : reg - NFT_REG32_00 + 4;
}

static int is_reg(const char *name, uint16_t type)
{
	if (!strcmp(name, "cmp"))
		return type == NFTNL_EXPR_CMP_SREG;
	if (!strcmp(name, "immediate"))
		return type == NFTNL_EXPR_IMM_DREG;
	if (!strcmp(name, "payload"))
		return type == NFTNL_EXPR_PAYLOAD_DREG ||
		       type == NFTNL_EXPR_PAYLOAD_SREG;
	if (!strcmp(name, "meta"))
		return type == NFTNL_EXPR_META_DREG ||
		       type == NFTNL_EXPR_META_SREG;
	if (!strcmp(name, "byteorder"))
		return type == NFTNL_EXPR_BYTEORDER_DREG ||
		       type == NFTNL_EXPR_BYTEORDER_SREG;
	if (!strcmp(name, "lookup"))
		return type == NFTNL_EXPR_LOOKUP_SREG ||
		       type == NFTNL_EXPR_LOOKUP_DREG;
	return 0;
}

static uint32_t get_u32_or0(const struct nftnl_expr *e, uint16_t type)
{
	return nftnl_expr_is_set(e, type) ? nftnl_expr_get_u32(e, type) : 0;
}

/* Expression a of the kernel's rule is expression b as nftlab builds it. */
static int expr_same(const struct nftnl_expr *a, const struct nftnl_expr *b)
{
	const char *name = expr_name(a);

	if (strcmp(name, expr_name(b)))
		return 0;
	if (!strcmp(name, "counter"))
		return 1;	/* its values are no part of the rule */
	for (uint16_t t = NFTNL_EXPR_BASE; t < NFTNL_EXPR_BASE + EXPR_ATTRS; t++) {
		uint32_t la = 0, lb = 0;
		const void *da, *db;

		if (!strcmp(name, "lookup") && t == NFTNL_EXPR_LOOKUP_FLAGS) {
			if (get_u32_or0(a, t) != get_u32_or0(b, t))
				return 0;
			continue;	/* dumped as 0, not sent */
		}
		if (nftnl_expr_is_set(a, t) != nftnl_expr_is_set(b, t))
			return 0;
		if (!nftnl_expr_is_set(a, t))
			continue;
		if (is_reg(name, t)) {
			if (reg_norm(nftnl_expr_get_u32(a, t)) !=
			    reg_norm(nftnl_expr_get_u32(b, t)))
				return 0;
			continue;
		}
		da = nftnl_expr_get(a, t, &la);
		db = nftnl_expr_get(b, t, &lb);
		if (!da || !db || la != lb || memcmp(da, db, la))
			return 0;
	}
	return 1;
}

static int rules_same(struct nftnl_rule *a, struct nftnl_rule *b)
{
	struct nftnl_expr_iter *ia = nftnl_expr_iter_create(a);
	struct nftnl_expr_iter *ib = nftnl_expr_iter_create(b);
	struct nftnl_expr *x = NULL, *y = NULL;
	int same = ia && ib;

	while (same) {
		x = nftnl_expr_iter_next(ia);
		y = nftnl_expr_iter_next(ib);
		if (!x || !y || !expr_same(x, y))
			break;
	}
	same = same && !x && !y;
	if (ia)
		nftnl_expr_iter_destroy(ia);
	if (ib)
		nftnl_expr_iter_destroy(ib);
	return same;
}

struct shape_scan {
	const char *set;
	uint64_t lookups;
	int dreg, counter;
	const struct nftnl_expr *last;
};

static int scan_expr(struct nftnl_expr *e, void *data)
{
	struct shape_scan *sc = data;
	const char *name = expr_name(e);

	sc->last = e;
	if (!strcmp(name, "counter"))
		sc->counter = 1;
	if (strcmp(name, "lookup"))
		return 0;
	if (!sc->lookups++) {
		sc->set = nftnl_expr_get_str(e, NFTNL_EXPR_LOOKUP_SET);
		sc->dreg = nftnl_expr_is_set(e, NFTNL_EXPR_LOOKUP_DREG) ?
			(int)nftnl_expr_get_u32(e, NFTNL_EXPR_LOOKUP_DREG) : -1;
	}
	return 0;
}

/* The options the expressions suggest; the fields' sources are tried. */
static int shape_guess(struct nftnl_rule *r, rule_set_fn find, void *arg,
		       struct rule_shape *s)
{
	struct shape_scan sc = { 0 };

	memset(s, 0, sizeof(*s));
	nftnl_expr_foreach(r, scan_expr, &sc);
	if (sc.lookups) {
		s->si = sc.set ? find(arg, sc.set) : NULL;
		if (!s->si)
			return -ENOENT;
		s->kind = sc.dreg < 0 ? RULE_SET :
			  sc.dreg == NFT_REG_VERDICT ? RULE_VMAP : RULE_MAP;
		s->lookups = sc.lookups;
	}
	s->counter = sc.counter;
	if (sc.last && !strcmp(expr_name(sc.last), "immediate") &&
	    get_u32_or0(sc.last, NFTNL_EXPR_IMM_DREG) == NFT_REG_VERDICT &&
	    nftnl_expr_is_set(sc.last, NFTNL_EXPR_IMM_VERDICT)) {
		s->has_verdict = 1;
		s->verdict = (int32_t)nftnl_expr_get_u32(sc.last,
							 NFTNL_EXPR_IMM_VERDICT);
		if (nftnl_expr_is_set(sc.last, NFTNL_EXPR_IMM_CHAIN))
			s->chain = nftnl_expr_get_str(sc.last,
						      NFTNL_EXPR_IMM_CHAIN);
	}
	return 0;
}

/* 1: the rule s describes is r */
static int shape_builds(struct nftnl_rule *r, const struct rule_shape *s)
{
	struct nftnl_rule *b = nftnl_rule_alloc();
	char why[160];
	int same;

	if (!b)
		return -ENOMEM;
	same = !rule_build_exprs(b, s, why, sizeof(why)) && rules_same(r, b);
	nftnl_rule_free(b);
	return same;
}

/* Bit i may be set: field i has a source and a destination. */
static unsigned int src_bits(const struct rule_shape *s)
{
	unsigned int bits = 0;

	for (unsigned int i = 0; s->si && i < s->si->kt.nfields; i++) {
		const struct rule_field *f = rule_field(s->si->kt.f[i].type);

		if (f && f->dst)
			bits |= 1U << i;
	}
	return bits;
}

int rule_shape_of(struct nftnl_rule *r, rule_set_fn find, void *arg,
		  struct rule_shape *s)
{
	unsigned int bits;
	int err = shape_guess(r, find, arg, s);

	if (err)
		return err;
	bits = src_bits(s);
	for (unsigned int src = 0; src <= bits; src++) {
		if (src & ~bits)
			continue;
		s->src = src;
		err = shape_builds(r, s);
		if (err)
			return err < 0 ? err : 0;
	}
	return -ENOENT;
}
