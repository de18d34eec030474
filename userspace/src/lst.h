/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_LST_H
#define NFTLAB_LST_H

#include <stddef.h>
#include <stdint.h>

#include "elem_recs.h"
#include "rule_shape.h"
#include "setinfo.h"

/*
 * nftlab list: the ruleset (of a family) as the kernel dumps it, one dump
 * per object type (lst_fetch.c), checked for what nftlab cannot print as
 * nft prints it (lst_check.c), then printed as nft list or nft -j list
 * does (lst_text.c, lst_json.c).  Objects keep the kernel's order, which
 * is nft's: tables, and per table counters, sets, chains, rules.
 */
struct nftnl_table;
struct nftnl_chain;
struct nftnl_set;
struct nftnl_obj;
struct nftnl_rule;
struct nftnl_flowtable;

struct lst_set {
	struct nftnl_set *s;
	struct setinfo si;	/* table and name point into s */
	uint64_t handle;
	int anonymous;		/* nft lists no anonymous sets */
	int automerge;		/* user data: auto-merge */
	int counter;		/* every element has a counter */
	const char *unlisted;	/* what list cannot show, NULL */
	int have_elems;
	struct elem_recs elems;
};

struct lst_rule {
	struct nftnl_rule *r;
	struct rule_shape shape;
	int known;		/* shape describes r */
};

struct lst {
	struct ctx *c;
	void *buf;		/* dump buffer */
	struct nftnl_table **tables;
	size_t ntables;
	struct nftnl_chain **chains;
	size_t nchains;
	struct nftnl_obj **objs;
	size_t nobjs;
	struct nftnl_flowtable **fts;
	size_t nfts;
	struct lst_set *sets;
	size_t nsets;
	struct lst_rule *rules;
	size_t nrules;
	size_t cap[6];		/* capacities of the arrays above */
};

/* What a command lists: a whole table, or one chain or set of it. */
enum lst_what { LST_RULESET, LST_TABLE, LST_CHAIN, LST_SET, LST_MAP };

struct lst_sel {
	enum lst_what what;
	uint16_t family;	/* NFPROTO_UNSPEC: every family (ruleset) */
	const char *table;	/* NULL: every table */
	const char *name;	/* chain, set or map */
};

int lst_fetch(struct lst *l, struct ctx *c, const struct lst_sel *sel);
int lst_sets_init(struct lst *l);	/* lst_set.c, after the set dump */
int lst_fetch_elems(struct lst *l, struct lst_set *ls);
void lst_free(struct lst *l);

/* objects of one table; the table's family and name */
int lst_in_table(const struct nftnl_table *t, uint16_t family,
		 const char *table);
const struct lst_set *lst_set_find(const struct lst *l, uint16_t family,
				   const char *table, const char *name);

/* what the selection prints: tables, and in them sets and chains */
int lst_sel_table(const struct lst_sel *sel, const struct nftnl_table *t);
int lst_sel_set(const struct lst_sel *sel, const struct lst_set *ls);
int lst_sel_chain(const struct lst_sel *sel, const struct nftnl_chain *ch);
int lst_sel_whole(const struct lst_sel *sel);	/* counters and rules too */

/* 0, or a refusal printed (exit status 2): nothing printed yet */
int lst_check(struct lst *l, const struct lst_sel *sel);

int lst_text(const struct lst *l, const struct lst_sel *sel);
int lst_json(const struct lst *l, const struct lst_sel *sel);

#endif
