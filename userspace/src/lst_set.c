// SPDX-License-Identifier: GPL-2.0
/*
 * nftlab list: what each dumped set is (lst.h), and which objects a
 * selection (list ruleset|table|chain|set|map) prints.
 */
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include "lst.h"

/* One counter is the only set expression nftlab lists (set add --counter). */
static int set_expr_cb(struct nftnl_expr *e, void *data)
{
	struct lst_set *ls = data;

	if (strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "counter") ||
	    ls->counter)
		ls->unlisted = "set expressions other than one counter";
	ls->counter = 1;
	return 0;
}

static void lst_set_init(struct lst_set *ls)
{
	struct nftnl_set *s = ls->s;
	const char *unknown = NULL;

	ls->si.family = (uint16_t)nftnl_set_get_u32(s, NFTNL_SET_FAMILY);
	ls->si.table = nftnl_set_get_str(s, NFTNL_SET_TABLE);
	ls->si.name = nftnl_set_get_str(s, NFTNL_SET_NAME);
	ls->handle = nftnl_set_get_u64(s, NFTNL_SET_HANDLE);
	if (setinfo_from_set(&ls->si, s, &unknown))
		ls->unlisted = "a key or data type nftlab does not know";
	else if (unknown)
		ls->unlisted = unknown;
	ls->anonymous = !!(ls->si.flags & NFT_SET_ANONYMOUS);
	ls->automerge = ls->si.automerge;
	if (ls->si.flags & NFT_SET_OBJECT)
		ls->unlisted = "an object map";
	nftnl_set_expr_foreach(s, set_expr_cb, ls);
}

int lst_sets_init(struct lst *l)
{
	for (size_t i = 0; i < l->nsets; i++)
		lst_set_init(&l->sets[i]);
	return 0;
}

int lst_sel_table(const struct lst_sel *sel, const struct nftnl_table *t)
{
	if (sel->family != NFPROTO_UNSPEC &&
	    nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY) != sel->family)
		return 0;
	return !sel->table || !strcmp(nftnl_table_get_str(t, NFTNL_TABLE_NAME),
				      sel->table);
}

int lst_sel_whole(const struct lst_sel *sel)
{
	return sel->what == LST_RULESET || sel->what == LST_TABLE;
}

int lst_sel_set(const struct lst_sel *sel, const struct lst_set *ls)
{
	if (ls->anonymous || sel->what == LST_CHAIN)
		return 0;
	if (lst_sel_whole(sel))
		return 1;
	return !strcmp(ls->si.name, sel->name);
}

int lst_sel_chain(const struct lst_sel *sel, const struct nftnl_chain *ch)
{
	if (sel->what == LST_SET || sel->what == LST_MAP)
		return 0;
	return lst_sel_whole(sel) ||
	       !strcmp(nftnl_chain_get_str(ch, NFTNL_CHAIN_NAME), sel->name);
}
