// SPDX-License-Identifier: GPL-2.0
/*
 * nftlab list: the text nft 1.0.6 prints for nft list ruleset|table|chain|
 * set|map (rule.c and expression.c of nftables: table_print(), set_print(),
 * chain_print(), obj_print(), calculate_delim()).  Everything printed
 * here has passed lst_check().
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
#include "lst.h"
#include "lst_common.h"
#include "nft_elem.h"

static void text_counter(struct nftnl_obj *o)
{
	printf("\tcounter %s {\n\t\tpackets %" PRIu64 " bytes %" PRIu64 "\n\t}\n",
	       nftnl_obj_get_str(o, NFTNL_OBJ_NAME),
	       nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_PKTS),
	       nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_BYTES));
}

/*
 * "flags interval,timeout"; no line for a set with a timeout of its own
 * and no flag but timeout (nft tests the flags without it, prints all).
 */
static void text_set_flags(const struct lst_set *ls)
{
	static const struct { uint32_t flag; const char *name; } names[] = {
		{ NFT_SET_CONSTANT, "constant" }, { NFT_SET_EVAL, "dynamic" },
		{ NFT_SET_INTERVAL, "interval" }, { NFT_SET_TIMEOUT, "timeout" },
	};
	uint32_t flags = ls->si.flags;
	const char *delim = "";

	if (lst_set_timeout(ls))
		flags &= ~(uint32_t)NFT_SET_TIMEOUT;
	if (!(flags & (NFT_SET_CONSTANT | NFT_SET_EVAL | NFT_SET_INTERVAL |
		       NFT_SET_TIMEOUT)))
		return;
	printf("\t\tflags ");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (ls->si.flags & names[i].flag) {
			printf("%s%s", delim, names[i].name);
			delim = ",";
		}
	}
	putchar('\n');
}

static void text_set_head(const struct lst_set *ls)
{
	char type[200], t[64];
	uint64_t tmo = lst_set_timeout(ls);

	keytype_format(&ls->si.kt, type, sizeof(type));
	printf("\t%s %s {\n\t\ttype %s", ls->si.kt.dtype ? "map" : "set",
	       ls->si.name, type);
	if (ls->si.kt.dtype)
		printf(" : %s", lst_data_type(&ls->si.kt));
	putchar('\n');
	if (!(ls->si.flags & NFT_SET_CONSTANT)) {
		if (lst_set_policy_memory(ls))
			printf("\t\tpolicy memory\n");
		if (ls->si.size)
			printf("\t\tsize %u\n", ls->si.size);
	}
	text_set_flags(ls);
	if (ls->counter)
		printf("\t\tcounter\n");
	if (ls->automerge)
		printf("\t\tauto-merge\n");
	if (tmo) {
		nft_time_text(tmo, t, sizeof(t));
		printf("\t\ttimeout %s\n", t);
	}
	if (lst_set_gc(ls)) {
		nft_time_text(lst_set_gc(ls), t, sizeof(t));
		printf("\t\tgc-interval %s\n", t);
	}
}

struct text_elems {
	const struct lst_set *ls;
	int count, per_line;	/* elements on this line, how many fit */
};

static int text_elem(void *arg, const struct elem_raw *e)
{
	struct text_elems *te = arg;
	char text[1024];

	if (nft_elem_text(&te->ls->si, e, text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	if (!te->count++)
		printf("\t\telements = { ");
	else if (te->per_line && (te->count - 1) % te->per_line)
		printf(", ");
	else
		printf(",\n\t\t\t     ");
	printf("%s", text);
	return 0;
}

static void text_set(const struct lst_set *ls)
{
	struct text_elems te = { .ls = ls, .per_line = lst_elems_per_line(ls) };

	text_set_head(ls);
	elem_recs_replay(&ls->elems, text_elem, &te);
	if (te.count)
		printf(" }\n");
	printf("\t}\n");
}

/* "ip daddr . th dport" */
static void text_key(const struct rule_shape *s)
{
	const struct keytype *kt = &s->si->kt;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		const struct rule_field *f = rule_field(kt->f[i].type);

		printf("%s%s %s", i ? " . " : "", f->proto,
		       f->dst && !(s->src & (1U << i)) ? f->dst : f->src);
	}
}

static void text_rule(const struct lst_rule *lr)
{
	const struct rule_shape *s = &lr->shape;
	const char *sep = "";
	char verdict[300];

	printf("\t\t");
	for (uint64_t n = 0; s->si && n < s->lookups; n++) {
		printf("%s%s", sep, s->kind == RULE_MAP ? "meta mark set " : "");
		text_key(s);
		printf(" %s@%s", s->kind == RULE_SET ? "" :
		       s->kind == RULE_VMAP ? "vmap " : "map ", s->si->name);
		sep = " ";
	}
	if (s->counter) {
		uint64_t pkts, bytes;

		lst_rule_counter(lr, &pkts, &bytes);
		printf("%scounter packets %" PRIu64 " bytes %" PRIu64, sep, pkts,
		       bytes);
		sep = " ";
	}
	if (s->has_verdict && !lst_verdict_text(s, verdict, sizeof(verdict)))
		printf("%s%s", sep, verdict);
	putchar('\n');
}

static void text_chain_head(const struct nftnl_chain *ch)
{
	uint16_t family = (uint16_t)nftnl_chain_get_u32(ch, NFTNL_CHAIN_FAMILY);
	uint32_t hook = nftnl_chain_get_u32(ch, NFTNL_CHAIN_HOOKNUM);
	char prio[64];

	printf("\tchain %s {\n", nftnl_chain_get_str(ch, NFTNL_CHAIN_NAME));
	if (!nftnl_chain_is_set(ch, NFTNL_CHAIN_HOOKNUM))
		return;
	chain_prio_format(family, hook,
			  (int32_t)nftnl_chain_get_u32(ch, NFTNL_CHAIN_PRIO),
			  prio, sizeof(prio));
	printf("\t\ttype %s hook %s", nftnl_chain_get_str(ch, NFTNL_CHAIN_TYPE),
	       chain_hook_name(family, hook));
	if (nftnl_chain_is_set(ch, NFTNL_CHAIN_DEV))
		printf(" device \"%s\"", nftnl_chain_get_str(ch, NFTNL_CHAIN_DEV));
	printf(" priority %s;", prio);
	if (nftnl_chain_is_set(ch, NFTNL_CHAIN_POLICY))
		printf(" policy %s;", nftnl_chain_get_u32(ch, NFTNL_CHAIN_POLICY) ==
		       NF_DROP ? "drop" : "accept");
	putchar('\n');
}

static void text_chain(const struct lst *l, const struct nftnl_chain *ch)
{
	text_chain_head(ch);
	for (size_t i = 0; i < l->nrules; i++)
		if (lst_rule_in(&l->rules[i], ch))
			text_rule(&l->rules[i]);
	printf("\t}\n");
}

static void text_table(const struct lst *l, const struct lst_sel *sel,
		       const struct nftnl_table *t)
{
	uint16_t family = (uint16_t)nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY);
	const char *name = nftnl_table_get_str(t, NFTNL_TABLE_NAME);
	const char *delim = "";

	printf("table %s %s {\n", nl_family_name(family), name);
	for (size_t i = 0; lst_sel_whole(sel) && i < l->nobjs; i++) {
		if (!lst_obj_in(l->objs[i], family, name))
			continue;
		printf("%s", delim);
		text_counter(l->objs[i]);
		delim = "\n";
	}
	for (size_t i = 0; i < l->nsets; i++) {
		const struct lst_set *ls = &l->sets[i];

		if (!lst_set_in(ls, family, name) || !lst_sel_set(sel, ls))
			continue;
		printf("%s", delim);
		text_set(ls);
		delim = "\n";
	}
	for (size_t i = 0; i < l->nchains; i++) {
		if (!lst_chain_in(l->chains[i], family, name) ||
		    !lst_sel_chain(sel, l->chains[i]))
			continue;
		printf("%s", delim);
		text_chain(l, l->chains[i]);
		delim = "\n";
	}
	printf("}\n");
}

int lst_text(const struct lst *l, const struct lst_sel *sel)
{
	for (size_t i = 0; i < l->ntables; i++)
		if (lst_sel_table(sel, l->tables[i]))
			text_table(l, sel, l->tables[i]);
	return 0;
}
