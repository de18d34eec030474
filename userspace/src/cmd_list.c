// SPDX-License-Identifier: GPL-2.0
/*
 * list ruleset [FAMILY] | table FAMILY TABLE | chain FAMILY TABLE CHAIN |
 *      set|map FAMILY TABLE NAME [--json]
 *
 * What nft list (nft -j list) prints for the same objects, for the objects
 * nftlab creates (lst.h); anything else is refused before anything is
 * printed.  element list streams one set's elements in nftlab's own
 * syntax instead (elem_list.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/table.h>

#include "cmd.h"
#include "lst.h"

static const struct { const char *verb; enum lst_what what; int args; } verbs[] = {
	{ "ruleset", LST_RULESET, 0 }, { "table", LST_TABLE, 2 },
	{ "chain", LST_CHAIN, 3 }, { "set", LST_SET, 3 }, { "map", LST_MAP, 3 },
};

/* VERB ARGS [--json] into sel; *json */
static int list_args(struct ctx *c, int argc, char **argv, struct lst_sel *sel,
		     int *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { NULL, 0, NULL, 0 },
	};
	unsigned int seen = 0;
	char *pos[4];
	int ch, li = 0, n = 0, err = 0;
	size_t v;

	for (v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++)
		if (!strcmp(argv[0], verbs[v].verb))
			break;
	if (v == sizeof(verbs) / sizeof(verbs[0]))
		return cmd_usage(c);
	optind = 0;
	opterr = 0;
	while (!err && (ch = cmd_getopt(argc, argv, "-:", opts, &li)) != -1) {
		if (ch == 1 && n < 4)
			pos[n++] = optarg;
		else if (ch == 1 || (ch != 'j'))
			return ch == 1 ? cmd_usage(c) : cmd_opt_err(c, ch, argv);
		else
			err = cmd_once(c, &seen, li, opts[li].name);
	}
	while (!err && optind < argc && n < 4)
		pos[n++] = argv[optind++];
	if (err)
		return err;
	if (optind < argc || (n != verbs[v].args &&
			      !(verbs[v].what == LST_RULESET && n == 1)))
		return cmd_usage(c);
	*json = !!seen;
	sel->what = verbs[v].what;
	sel->family = NFPROTO_UNSPEC;
	err = n ? cmd_family(c, pos[0], &sel->family) : 0;
	if (!err && n > 1)
		err = cmd_name(c, "table", pos[1]);
	if (!err && n > 2)
		err = cmd_name(c, verbs[v].verb, pos[2]);
	sel->table = n > 1 ? pos[1] : NULL;
	sel->name = n > 2 ? pos[2] : NULL;
	return err;
}

static int list_missing(struct ctx *c, const struct lst_sel *sel,
			const char *why)
{
	fprintf(stderr, "nftlab: %s: %s/%s%s%s: %s: %s\n", c->op,
		nl_family_name(sel->family), sel->table, sel->name ? "/" : "",
		sel->name ? sel->name : "", why, strerror(ENOENT));
	return -ENOENT;
}

/* The table, chain, set or map asked for exists (ENOENT, as nft). */
static int list_exists(struct ctx *c, const struct lst *l,
		       const struct lst_sel *sel)
{
	const struct lst_set *ls;
	size_t i;

	for (i = 0; i < l->ntables; i++)
		if (lst_in_table(l->tables[i], sel->family, sel->table))
			break;
	if (i == l->ntables)
		return list_missing(c, sel, "no such table");
	if (sel->what == LST_CHAIN) {
		for (i = 0; i < l->nchains; i++)
			if (nftnl_chain_get_u32(l->chains[i], NFTNL_CHAIN_FAMILY) ==
			    sel->family &&
			    !strcmp(nftnl_chain_get_str(l->chains[i],
							NFTNL_CHAIN_TABLE), sel->table) &&
			    !strcmp(nftnl_chain_get_str(l->chains[i],
							NFTNL_CHAIN_NAME), sel->name))
				return 0;
		return list_missing(c, sel, "no such chain");
	}
	if (sel->what != LST_SET && sel->what != LST_MAP)
		return 0;
	ls = lst_set_find(l, sel->family, sel->table, sel->name);
	if (!ls)
		return list_missing(c, sel, sel->what == LST_SET ? "no such set" :
				    "no such map");
	/* a map of a type nftlab does not know is refused by lst_check() */
	if (!(ls->si.flags & (NFT_SET_MAP | NFT_SET_OBJECT)) !=
	    (sel->what == LST_SET))
		return list_missing(c, sel, sel->what == LST_SET ?
				    "no such set (a map: nftlab list map)" :
				    "no such map (a set: nftlab list set)");
	return 0;
}

int cmd_list(struct ctx *c, int argc, char **argv)
{
	struct lst_sel sel = { 0 };
	struct lst l;
	int json = 0, err;

	if (c->script)
		return cmd_refuse(c, "not allowed in a script (it does not "
				  "change the ruleset)");
	err = list_args(c, argc, argv, &sel, &json);
	if (err)
		return err;
	err = lst_fetch(&l, c, &sel);
	if (!err && sel.what != LST_RULESET)
		err = list_exists(c, &l, &sel);
	if (!err)
		err = lst_check(&l, &sel);
	if (!err)
		err = json ? lst_json(&l, &sel) : lst_text(&l, &sel);
	lst_free(&l);
	return err;
}
