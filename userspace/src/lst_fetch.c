// SPDX-License-Identifier: GPL-2.0
/*
 * nftlab list: the kernel's objects, one dump per type (lst.h).  Rules are
 * recognised as nftlab rules here, once their table's sets are known
 * (lst_set.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include "cmd.h"
#include "lst.h"
#include "vec.h"

enum { LST_BUF = 64 * 1024 };
enum { CAP_TABLES, CAP_CHAINS, CAP_OBJS, CAP_FTS, CAP_SETS, CAP_RULES };

int lst_in_table(const struct nftnl_table *t, uint16_t family,
		 const char *table)
{
	return nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY) == family &&
	       !strcmp(nftnl_table_get_str(t, NFTNL_TABLE_NAME), table);
}

#define LST_PARSE_CB(fn, type, arr, n, capi)			\
static int fn(const struct nlmsghdr *nlh, void *data)			\
{									\
	struct lst *l = data;						\
	struct type *o = type##_alloc();				\
									\
	if (!o)								\
		return -ENOMEM;						\
	if (type##_nlmsg_parse(nlh, o) < 0 ||				\
	    vec_grow((void **)&l->arr, &l->cap[capi], l->n,		\
		     sizeof(*l->arr))) {				\
		type##_free(o);						\
		return 0;						\
	}								\
	l->arr[l->n++] = o;						\
	return 0;							\
}

LST_PARSE_CB(tables_cb, nftnl_table, tables, ntables, CAP_TABLES)
LST_PARSE_CB(chains_cb, nftnl_chain, chains, nchains, CAP_CHAINS)
LST_PARSE_CB(objs_cb, nftnl_obj, objs, nobjs, CAP_OBJS)
LST_PARSE_CB(fts_cb, nftnl_flowtable, fts, nfts, CAP_FTS)

static int rules_cb(const struct nlmsghdr *nlh, void *data)
{
	struct lst *l = data;
	struct nftnl_rule *r = nftnl_rule_alloc();

	if (!r)
		return -ENOMEM;
	if (nftnl_rule_nlmsg_parse(nlh, r) < 0 ||
	    vec_grow((void **)&l->rules, &l->cap[CAP_RULES], l->nrules,
		     sizeof(*l->rules))) {
		nftnl_rule_free(r);
		return 0;
	}
	memset(&l->rules[l->nrules], 0, sizeof(l->rules[0]));
	l->rules[l->nrules++].r = r;
	return 0;
}

static int sets_cb(const struct nlmsghdr *nlh, void *data)
{
	struct lst *l = data;
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return -ENOMEM;
	if (nftnl_set_nlmsg_parse(nlh, s) < 0 ||
	    vec_grow((void **)&l->sets, &l->cap[CAP_SETS], l->nsets,
		     sizeof(*l->sets))) {
		nftnl_set_free(s);
		return 0;
	}
	memset(&l->sets[l->nsets], 0, sizeof(l->sets[0]));
	l->sets[l->nsets++].s = s;
	return 0;
}

static int lst_dump(struct lst *l, uint16_t type, uint16_t family,
		    nl_msg_cb cb)
{
	struct nlmsghdr *nlh;
	struct nl_err e;
	int err;

	nlh = nftnl_nlmsg_build_hdr(l->buf, type, family, NLM_F_DUMP,
				    l->c->nl.seq++);
	err = nl_talk(&l->c->nl, nlh, cb, l, l->buf, LST_BUF, &e);
	if (err)
		fprintf(stderr, "nftlab: %s: dump: %s%s%s%s\n", l->c->op,
			strerror(-err), e.msg[0] ? " (" : "", e.msg,
			e.msg[0] ? ")" : "");
	return err;
}

/* Dumps of every object type of family, in the kernel's order. */
static int lst_dump_all(struct lst *l, uint16_t family)
{
	static const struct { uint16_t type; nl_msg_cb cb; } dumps[] = {
		{ NFT_MSG_GETTABLE, tables_cb }, { NFT_MSG_GETCHAIN, chains_cb },
		{ NFT_MSG_GETSET, sets_cb }, { NFT_MSG_GETOBJ, objs_cb },
		{ NFT_MSG_GETFLOWTABLE, fts_cb }, { NFT_MSG_GETRULE, rules_cb },
	};
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(dumps) / sizeof(dumps[0]); i++)
		err = lst_dump(l, dumps[i].type, family, dumps[i].cb);
	return err;
}

const struct lst_set *lst_set_find(const struct lst *l, uint16_t family,
				   const char *table, const char *name)
{
	for (size_t i = 0; i < l->nsets; i++) {
		const struct lst_set *ls = &l->sets[i];

		if (ls->si.family == family && !strcmp(ls->si.table, table) &&
		    !strcmp(ls->si.name, name) && !ls->anonymous)
			return ls;
	}
	return NULL;
}

struct rule_ctx {
	const struct lst *l;
	uint16_t family;
	const char *table;
};

static const struct setinfo *rule_set(void *arg, const char *name)
{
	const struct rule_ctx *rc = arg;
	const struct lst_set *ls = lst_set_find(rc->l, rc->family, rc->table,
						name);

	return ls && !ls->unlisted ? &ls->si : NULL;
}

/* Which rules are nftlab's, with their options (rule_shape.c). */
static int lst_shapes(struct lst *l)
{
	for (size_t i = 0; i < l->nrules; i++) {
		struct lst_rule *lr = &l->rules[i];
		struct rule_ctx rc = {
			.l = l,
			.family = (uint16_t)nftnl_rule_get_u32(lr->r,
							       NFTNL_RULE_FAMILY),
			.table = nftnl_rule_get_str(lr->r, NFTNL_RULE_TABLE),
		};
		int err = rule_shape_of(lr->r, rule_set, &rc, &lr->shape);

		if (err == -ENOMEM)
			return err;
		lr->known = !err;
	}
	return 0;
}

int lst_fetch(struct lst *l, struct ctx *c, const struct lst_sel *sel)
{
	int err;

	memset(l, 0, sizeof(*l));
	l->c = c;
	l->buf = calloc(1, LST_BUF);
	if (!l->buf)
		return -ENOMEM;
	err = lst_dump_all(l, sel->family);
	if (!err)
		err = lst_sets_init(l);
	if (!err)
		err = lst_shapes(l);
	return err;
}

int lst_fetch_elems(struct lst *l, struct lst_set *ls)
{
	int err;

	if (ls->have_elems)
		return 0;
	err = elem_recs_collect(&l->c->nl, &ls->elems, &ls->si);
	if (err)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: elements: %s\n", l->c->op,
			nl_family_name(ls->si.family), ls->si.table, ls->si.name,
			strerror(-err));
	ls->have_elems = !err;
	if (!err)
		elem_recs_sort(&ls->elems);
	return err;
}

void lst_free(struct lst *l)
{
	for (size_t i = 0; i < l->ntables; i++)
		nftnl_table_free(l->tables[i]);
	for (size_t i = 0; i < l->nchains; i++)
		nftnl_chain_free(l->chains[i]);
	for (size_t i = 0; i < l->nobjs; i++)
		nftnl_obj_free(l->objs[i]);
	for (size_t i = 0; i < l->nfts; i++)
		nftnl_flowtable_free(l->fts[i]);
	for (size_t i = 0; i < l->nrules; i++)
		nftnl_rule_free(l->rules[i].r);
	for (size_t i = 0; i < l->nsets; i++) {
		elem_recs_free(&l->sets[i].elems);
		nftnl_set_free(l->sets[i].s);
	}
	free(l->tables);
	free(l->chains);
	free(l->objs);
	free(l->fts);
	free(l->rules);
	free(l->sets);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}
