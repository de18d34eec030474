// SPDX-License-Identifier: GPL-2.0
/*
 * nftlab list --json: the objects nft -j 1.0.6 prints for nft -j list
 * ruleset|table|chain|set|map (json.c of nftables), for what lst_check()
 * let through.  {"nftables": [{"metainfo": ...}, objects]} with, per
 * table, the table, its counters, sets and chains, then the chains' rules.
 * Base chains carry no "dev" (nft 1.0.6 prints none); metainfo names
 * nftlab, with nft's json_schema_version.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/table.h>

#include "chainspec.h"
#include "cmd.h"
#include "json_out.h"
#include "lst.h"
#include "lst_common.h"
#include "nft_elem.h"

struct jout {
	int first;		/* no object printed yet */
};

static void jsep(struct jout *j)
{
	printf("%s", j->first ? "\n  " : ",\n  ");
	j->first = 0;
}

/* "family": "ip", "table": "t", "name": "n" in nft's order for obj */
static void jnames(uint16_t family, const char *table, const char *name,
		   int table_first)
{
	printf("\"family\": \"%s\", ", nl_family_name(family));
	printf("\"%s\": ", table_first ? "table" : "name");
	json_str(table_first ? table : name);
	printf(", \"%s\": ", table_first ? "name" : "table");
	json_str(table_first ? name : table);
}

static void json_table(struct jout *j, const struct nftnl_table *t)
{
	jsep(j);
	printf("{\"table\": {\"family\": \"%s\", \"name\": ",
	       nl_family_name((uint16_t)nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY)));
	json_str(nftnl_table_get_str(t, NFTNL_TABLE_NAME));
	printf(", \"handle\": %" PRIu64 "}}",
	       nftnl_table_get_u64(t, NFTNL_TABLE_HANDLE));
}

static void json_counter(struct jout *j, struct nftnl_obj *o)
{
	jsep(j);
	printf("{\"counter\": {");
	jnames((uint16_t)nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY),
	       nftnl_obj_get_str(o, NFTNL_OBJ_TABLE),
	       nftnl_obj_get_str(o, NFTNL_OBJ_NAME), 0);
	printf(", \"handle\": %" PRIu64 ", \"packets\": %" PRIu64
	       ", \"bytes\": %" PRIu64 "}}",
	       nftnl_obj_get_u64(o, NFTNL_OBJ_HANDLE),
	       nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_PKTS),
	       nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_BYTES));
}

static void json_set_type(const struct keytype *kt)
{
	if (kt->nfields == 1) {
		json_str(keytype_field_name(kt->f[0].type));
		return;
	}
	putchar('[');
	for (unsigned int i = 0; i < kt->nfields; i++) {
		printf("%s", i ? ", " : "");
		json_str(keytype_field_name(kt->f[i].type));
	}
	putchar(']');
}

/* nft -j 1.0.6 lists constant, interval and timeout (not dynamic) */
static void json_set_flags(uint32_t flags)
{
	const char *sep = "";

	if (!(flags & (NFT_SET_CONSTANT | NFT_SET_INTERVAL | NFT_SET_TIMEOUT)))
		return;
	printf(", \"flags\": [");
	if (flags & NFT_SET_CONSTANT) {
		printf("\"constant\"");
		sep = ", ";
	}
	if (flags & NFT_SET_INTERVAL) {
		printf("%s\"interval\"", sep);
		sep = ", ";
	}
	if (flags & NFT_SET_TIMEOUT)
		printf("%s\"timeout\"", sep);
	putchar(']');
}

static void json_set_head(const struct lst_set *ls)
{
	const struct setinfo *si = &ls->si;

	printf("{\"%s\": {", si->kt.dtype ? "map" : "set");
	jnames(si->family, si->table, si->name, 0);
	printf(", \"type\": ");
	json_set_type(&si->kt);
	printf(", \"handle\": %" PRIu64, ls->handle);
	if (si->kt.dtype)
		printf(", \"map\": \"%s\"", lst_data_type(&si->kt));
	if (!(si->flags & NFT_SET_CONSTANT)) {
		if (lst_set_policy_memory(ls))
			printf(", \"policy\": \"memory\"");
		if (si->size)
			printf(", \"size\": %u", si->size);
	}
	json_set_flags(si->flags);
	if (lst_set_timeout(ls))
		printf(", \"timeout\": %" PRIu64, lst_set_timeout(ls) / 1000);
	if (lst_set_gc(ls))
		printf(", \"gc-interval\": %u", lst_set_gc(ls) / 1000);
}

struct json_elems {
	const struct lst_set *ls;
	int count;
};

static int json_elem(void *arg, const struct elem_raw *e)
{
	struct json_elems *je = arg;

	printf("%s", je->count++ ? ", " : ", \"elem\": [");
	nft_elem_json(&je->ls->si, e);
	return 0;
}

static void json_set(struct jout *j, const struct lst_set *ls)
{
	struct json_elems je = { .ls = ls };

	jsep(j);
	json_set_head(ls);
	elem_recs_replay(&ls->elems, json_elem, &je);
	if (je.count)
		putchar(']');
	if (ls->counter)
		printf(", \"stmt\": [{\"counter\": null}]");
	printf("}}");
}

static void json_chain(struct jout *j, const struct nftnl_chain *ch)
{
	uint16_t family = (uint16_t)nftnl_chain_get_u32(ch, NFTNL_CHAIN_FAMILY);
	uint32_t hook = nftnl_chain_get_u32(ch, NFTNL_CHAIN_HOOKNUM);

	jsep(j);
	printf("{\"chain\": {");
	jnames(family, nftnl_chain_get_str(ch, NFTNL_CHAIN_TABLE),
	       nftnl_chain_get_str(ch, NFTNL_CHAIN_NAME), 1);
	printf(", \"handle\": %" PRIu64,
	       nftnl_chain_get_u64(ch, NFTNL_CHAIN_HANDLE));
	if (nftnl_chain_is_set(ch, NFTNL_CHAIN_HOOKNUM)) {
		printf(", \"type\": ");
		json_str(nftnl_chain_get_str(ch, NFTNL_CHAIN_TYPE));
		printf(", \"hook\": \"%s\", \"prio\": %d, \"policy\": \"%s\"",
		       chain_hook_name(family, hook),
		       (int32_t)nftnl_chain_get_u32(ch, NFTNL_CHAIN_PRIO),
		       nftnl_chain_is_set(ch, NFTNL_CHAIN_POLICY) &&
		       nftnl_chain_get_u32(ch, NFTNL_CHAIN_POLICY) == NF_DROP ?
		       "drop" : "accept");
	}
	printf("}}");
}

/* {"payload": {"protocol": "ip", "field": "daddr"}}, or a concatenation */
static void json_key(const struct rule_shape *s)
{
	const struct keytype *kt = &s->si->kt;

	printf("%s", kt->nfields > 1 ? "{\"concat\": [" : "");
	for (unsigned int i = 0; i < kt->nfields; i++) {
		const struct rule_field *f = rule_field(kt->f[i].type);

		printf("%s", i ? ", " : "");
		if (!f->dst)
			printf("{\"meta\": {\"key\": \"%s\"}}", f->src);
		else
			printf("{\"payload\": {\"protocol\": \"%s\", \"field\": "
			       "\"%s\"}}", f->proto,
			       s->src & (1U << i) ? f->src : f->dst);
	}
	printf("%s", kt->nfields > 1 ? "]}" : "");
}

static void json_lookup(const struct rule_shape *s)
{
	if (s->kind == RULE_SET)
		printf("{\"match\": {\"op\": \"==\", \"left\": ");
	else if (s->kind == RULE_VMAP)
		printf("{\"vmap\": {\"key\": ");
	else
		printf("{\"mangle\": {\"key\": {\"meta\": {\"key\": \"mark\"}}, "
		       "\"value\": {\"map\": {\"key\": ");
	json_key(s);
	printf(", \"%s\": \"@", s->kind == RULE_SET ? "right" : "data");
	printf("%s\"}}%s", s->si->name, s->kind == RULE_MAP ? "}}" : "");
}

static void json_verdict(const struct rule_shape *s)
{
	char text[300];

	if (lst_verdict_text(s, text, sizeof(text)))
		return;
	if (s->verdict != NFT_JUMP && s->verdict != NFT_GOTO) {
		printf("{\"%s\": null}", text);
		return;
	}
	printf("{\"%s\": {\"target\": ", s->verdict == NFT_JUMP ? "jump" : "goto");
	json_str(s->chain);
	printf("}}");
}

/* ", "expr": [...]" (none for a rule without expressions, as nft) */
static void json_rule_exprs(const struct lst_rule *lr)
{
	const struct rule_shape *s = &lr->shape;
	uint64_t pkts, bytes;
	int n = 0;

	for (uint64_t k = 0; s->si && k < s->lookups; k++) {
		printf("%s", n++ ? ", " : ", \"expr\": [");
		json_lookup(s);
	}
	if (s->counter) {
		lst_rule_counter(lr, &pkts, &bytes);
		printf("%s{\"counter\": {\"packets\": %" PRIu64 ", \"bytes\": %"
		       PRIu64 "}}", n++ ? ", " : ", \"expr\": [", pkts, bytes);
	}
	if (s->has_verdict) {
		printf("%s", n++ ? ", " : ", \"expr\": [");
		json_verdict(s);
	}
	if (n)
		putchar(']');
}

static void json_rule(struct jout *j, const struct lst_rule *lr)
{
	struct nftnl_rule *r = lr->r;

	jsep(j);
	printf("{\"rule\": {\"family\": \"%s\", \"table\": ",
	       nl_family_name((uint16_t)nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY)));
	json_str(nftnl_rule_get_str(r, NFTNL_RULE_TABLE));
	printf(", \"chain\": ");
	json_str(nftnl_rule_get_str(r, NFTNL_RULE_CHAIN));
	printf(", \"handle\": %" PRIu64, nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE));
	json_rule_exprs(lr);
	printf("}}");
}

static void json_chain_rules(struct jout *j, const struct lst *l,
			     const struct lst_sel *sel, uint16_t family,
			     const char *name)
{
	for (size_t i = 0; i < l->nchains; i++) {
		const struct nftnl_chain *ch = l->chains[i];

		if (!lst_chain_in(ch, family, name) || !lst_sel_chain(sel, ch))
			continue;
		for (size_t k = 0; k < l->nrules; k++)
			if (lst_rule_in(&l->rules[k], ch))
				json_rule(j, &l->rules[k]);
	}
}

static void json_table_objs(struct jout *j, const struct lst *l,
			    const struct lst_sel *sel,
			    const struct nftnl_table *t)
{
	uint16_t family = (uint16_t)nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY);
	const char *name = nftnl_table_get_str(t, NFTNL_TABLE_NAME);

	if (lst_sel_whole(sel))
		json_table(j, t);
	for (size_t i = 0; lst_sel_whole(sel) && i < l->nobjs; i++)
		if (lst_obj_in(l->objs[i], family, name))
			json_counter(j, l->objs[i]);
	for (size_t i = 0; i < l->nsets; i++)
		if (lst_set_in(&l->sets[i], family, name) &&
		    lst_sel_set(sel, &l->sets[i]))
			json_set(j, &l->sets[i]);
	for (size_t i = 0; i < l->nchains; i++)
		if (lst_chain_in(l->chains[i], family, name) &&
		    lst_sel_chain(sel, l->chains[i]))
			json_chain(j, l->chains[i]);
	json_chain_rules(j, l, sel, family, name);
}

int lst_json(const struct lst *l, const struct lst_sel *sel)
{
	struct jout j = { .first = 0 };

	printf("{\"nftables\": [\n  {\"metainfo\": {\"version\": \"%s\", "
	       "\"release_name\": \"nftlab\", \"json_schema_version\": 1}}",
	       NFTLAB_VERSION);
	for (size_t i = 0; i < l->ntables; i++)
		if (lst_sel_table(sel, l->tables[i]))
			json_table_objs(&j, l, sel, l->tables[i]);
	printf("\n]}\n");
	return 0;
}
