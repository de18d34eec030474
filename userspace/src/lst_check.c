// SPDX-License-Identifier: GPL-2.0
/*
 * nftlab list: refuse what nftlab cannot print as nft prints it, before
 * anything is printed (lst.h).  nftlab lists what it creates: tables,
 * regular and base chains (one device), named counters, sets and maps of
 * its key and data types with their elements (counters, timeouts), the
 * rules rule add writes.  Anything else (table flags, comments, other
 * objects, flowtables, typeof sets, other rules) is named and refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/flowtable.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/table.h>

#include "chainspec.h"
#include "cmd.h"
#include "lst.h"

static int lst_refuse(struct lst *l, uint16_t family, const char *table,
		      const char *obj, const char *what, const char *why)
{
	fprintf(stderr, "nftlab: %s: %s/%s%s%s: %s%s%s: nftlab list prints only "
		"what nftlab creates, as nft lists it (nft list shows this)\n",
		l->c->op, nl_family_name(family), table, obj ? "/" : "",
		obj ? obj : "", what ? what : "", what ? ": " : "", why);
	l->c->refused = 1;
	return -EINVAL;
}

static int check_table(struct lst *l, const struct nftnl_table *t)
{
	uint16_t family = (uint16_t)nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY);
	const char *name = nftnl_table_get_str(t, NFTNL_TABLE_NAME);

	if (nftnl_table_is_set(t, NFTNL_TABLE_FLAGS) &&
	    nftnl_table_get_u32(t, NFTNL_TABLE_FLAGS))
		return lst_refuse(l, family, name, NULL, NULL,
				  "table flags (dormant, owner)");
	if (nftnl_table_is_set(t, NFTNL_TABLE_USERDATA))
		return lst_refuse(l, family, name, NULL, NULL, "a table comment");
	return 0;
}

/* Named counters and flowtables of the table (list ruleset, list table). */
static int check_objs(struct lst *l, uint16_t family, const char *table)
{
	for (size_t i = 0; i < l->nobjs; i++) {
		struct nftnl_obj *o = l->objs[i];

		if (nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY) != family ||
		    strcmp(nftnl_obj_get_str(o, NFTNL_OBJ_TABLE), table))
			continue;
		if (nftnl_obj_get_u32(o, NFTNL_OBJ_TYPE) != NFT_OBJECT_COUNTER)
			return lst_refuse(l, family, table,
					  nftnl_obj_get_str(o, NFTNL_OBJ_NAME),
					  NULL, "a stateful object other than "
					  "a counter");
		if (nftnl_obj_is_set(o, NFTNL_OBJ_USERDATA))
			return lst_refuse(l, family, table,
					  nftnl_obj_get_str(o, NFTNL_OBJ_NAME),
					  NULL, "a counter comment");
	}
	for (size_t i = 0; i < l->nfts; i++) {
		const struct nftnl_flowtable *f = l->fts[i];

		if (nftnl_flowtable_get_u32(f, NFTNL_FLOWTABLE_FAMILY) == family &&
		    !strcmp(nftnl_flowtable_get_str(f, NFTNL_FLOWTABLE_TABLE),
			    table))
			return lst_refuse(l, family, table,
					  nftnl_flowtable_get_str(f,
						NFTNL_FLOWTABLE_NAME),
					  NULL, "a flowtable");
	}
	return 0;
}

static int check_set(struct lst *l, struct lst_set *ls)
{
	int err;

	if (ls->unlisted)
		return lst_refuse(l, ls->si.family, ls->si.table, ls->si.name,
				  NULL, ls->unlisted);
	err = lst_fetch_elems(l, ls);
	if (!err && ls->elems.unlisted)
		return lst_refuse(l, ls->si.family, ls->si.table, ls->si.name,
				  "an element", ls->elems.unlisted);
	return err;
}

static const char *chain_unlisted(const struct nftnl_chain *ch)
{
	uint16_t family = (uint16_t)nftnl_chain_get_u32(ch, NFTNL_CHAIN_FAMILY);

	if (nftnl_chain_is_set(ch, NFTNL_CHAIN_USERDATA))
		return "a chain comment";
	if (nftnl_chain_is_set(ch, NFTNL_CHAIN_FLAGS) &&
	    (nftnl_chain_get_u32(ch, NFTNL_CHAIN_FLAGS) & ~(uint32_t)NFT_CHAIN_BASE))
		return "chain flags (hardware offload, binding)";
	if (nftnl_chain_is_set(ch, NFTNL_CHAIN_DEVICES)) {
		const char *const *devs = nftnl_chain_get_array(ch,
							NFTNL_CHAIN_DEVICES);

		if (devs && devs[0] && devs[1])
			return "more than one device";
	}
	if (nftnl_chain_is_set(ch, NFTNL_CHAIN_HOOKNUM) &&
	    !chain_hook_name(family, nftnl_chain_get_u32(ch, NFTNL_CHAIN_HOOKNUM)))
		return "a hook nftlab does not know";
	return NULL;
}

/*
 * After the check for one L3 protocol, nft lists fields of the other one
 * as raw payload ("ip daddr . @nh,192,128"): not rendered.
 */
static const char *rule_unlisted(const struct lst_rule *lr)
{
	const struct setinfo *si = lr->shape.si;
	int v4 = 0, v6 = 0;

	if (!lr->known)
		return "not a rule nftlab writes";
	for (unsigned int i = 0; si && i < si->kt.nfields; i++) {
		v4 |= si->kt.f[i].type == TYPE_IPADDR;
		v6 |= si->kt.f[i].type == TYPE_IP6ADDR;
	}
	return v4 && v6 ? "a key of ipv4_addr and ipv6_addr fields (nft lists "
		"the second protocol's field as a raw payload)" : NULL;
}

static int check_rules(struct lst *l, const struct nftnl_chain *ch)
{
	uint16_t family = (uint16_t)nftnl_chain_get_u32(ch, NFTNL_CHAIN_FAMILY);
	const char *table = nftnl_chain_get_str(ch, NFTNL_CHAIN_TABLE);
	const char *name = nftnl_chain_get_str(ch, NFTNL_CHAIN_NAME);
	char what[64];

	for (size_t i = 0; i < l->nrules; i++) {
		struct nftnl_rule *r = l->rules[i].r;

		if (nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY) != family ||
		    strcmp(nftnl_rule_get_str(r, NFTNL_RULE_TABLE), table) ||
		    strcmp(nftnl_rule_get_str(r, NFTNL_RULE_CHAIN), name))
			continue;
		snprintf(what, sizeof(what), "rule handle %" PRIu64,
			 nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE));
		if (nftnl_rule_is_set(r, NFTNL_RULE_USERDATA))
			return lst_refuse(l, family, table, name, what,
					  "a rule comment");
		if (rule_unlisted(&l->rules[i]))
			return lst_refuse(l, family, table, name, what,
					  rule_unlisted(&l->rules[i]));
	}
	return 0;
}

static int check_chain(struct lst *l, const struct nftnl_chain *ch)
{
	const char *why = chain_unlisted(ch);

	if (why)
		return lst_refuse(l, (uint16_t)nftnl_chain_get_u32(ch,
					NFTNL_CHAIN_FAMILY),
				  nftnl_chain_get_str(ch, NFTNL_CHAIN_TABLE),
				  nftnl_chain_get_str(ch, NFTNL_CHAIN_NAME),
				  NULL, why);
	return check_rules(l, ch);
}

/* Sets and chains of table t that sel prints. */
static int check_contents(struct lst *l, const struct lst_sel *sel,
			  const struct nftnl_table *t)
{
	uint16_t family = (uint16_t)nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY);
	const char *name = nftnl_table_get_str(t, NFTNL_TABLE_NAME);
	int err = 0;

	for (size_t i = 0; !err && i < l->nsets; i++) {
		struct lst_set *ls = &l->sets[i];

		if (ls->si.family == family && !strcmp(ls->si.table, name) &&
		    lst_sel_set(sel, ls))
			err = check_set(l, ls);
	}
	for (size_t i = 0; !err && i < l->nchains; i++) {
		const struct nftnl_chain *ch = l->chains[i];

		if (nftnl_chain_get_u32(ch, NFTNL_CHAIN_FAMILY) == family &&
		    !strcmp(nftnl_chain_get_str(ch, NFTNL_CHAIN_TABLE), name) &&
		    lst_sel_chain(sel, ch))
			err = check_chain(l, ch);
	}
	return err;
}

int lst_check(struct lst *l, const struct lst_sel *sel)
{
	int err = 0;

	for (size_t i = 0; !err && i < l->ntables; i++) {
		const struct nftnl_table *t = l->tables[i];

		if (!lst_sel_table(sel, t))
			continue;
		err = check_table(l, t);
		if (!err && lst_sel_whole(sel))
			err = check_objs(l, (uint16_t)nftnl_table_get_u32(t,
						NFTNL_TABLE_FAMILY),
					 nftnl_table_get_str(t, NFTNL_TABLE_NAME));
		if (!err)
			err = check_contents(l, sel, t);
	}
	return err;
}
