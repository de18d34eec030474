// SPDX-License-Identifier: GPL-2.0
/* Helpers of the nftlab list printers (lst_common.h). */
#include <stdio.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>

#include "lst_common.h"

int lst_set_in(const struct lst_set *ls, uint16_t family, const char *table)
{
	return ls->si.family == family && !strcmp(ls->si.table, table);
}

int lst_chain_in(const struct nftnl_chain *ch, uint16_t family,
		 const char *table)
{
	return nftnl_chain_get_u32(ch, NFTNL_CHAIN_FAMILY) == family &&
	       !strcmp(nftnl_chain_get_str(ch, NFTNL_CHAIN_TABLE), table);
}

int lst_obj_in(struct nftnl_obj *o, uint16_t family, const char *table)
{
	return nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY) == family &&
	       !strcmp(nftnl_obj_get_str(o, NFTNL_OBJ_TABLE), table);
}

int lst_rule_in(const struct lst_rule *lr, const struct nftnl_chain *ch)
{
	return nftnl_rule_get_u32(lr->r, NFTNL_RULE_FAMILY) ==
	       nftnl_chain_get_u32(ch, NFTNL_CHAIN_FAMILY) &&
	       !strcmp(nftnl_rule_get_str(lr->r, NFTNL_RULE_TABLE),
		       nftnl_chain_get_str(ch, NFTNL_CHAIN_TABLE)) &&
	       !strcmp(nftnl_rule_get_str(lr->r, NFTNL_RULE_CHAIN),
		       nftnl_chain_get_str(ch, NFTNL_CHAIN_NAME));
}

uint64_t lst_set_timeout(const struct lst_set *ls)
{
	return nftnl_set_is_set(ls->s, NFTNL_SET_TIMEOUT) ?
	       nftnl_set_get_u64(ls->s, NFTNL_SET_TIMEOUT) : 0;
}

uint32_t lst_set_gc(const struct lst_set *ls)
{
	return nftnl_set_is_set(ls->s, NFTNL_SET_GC_INTERVAL) ?
	       nftnl_set_get_u32(ls->s, NFTNL_SET_GC_INTERVAL) : 0;
}

int lst_set_policy_memory(const struct lst_set *ls)
{
	return nftnl_set_is_set(ls->s, NFTNL_SET_POLICY) &&
	       nftnl_set_get_u32(ls->s, NFTNL_SET_POLICY) == NFT_SET_POL_MEMORY;
}

const char *lst_data_type(const struct keytype *kt)
{
	return kt->dtype == KT_DATA_VERDICT ? "verdict" :
	       keytype_field_name(kt->dtype);
}

int lst_elems_per_line(const struct lst_set *ls)
{
	const struct keytype *kt = &ls->si.kt;

	if (kt->nfields != 1)
		return 1;
	switch (kt->f[0].type) {
	case TYPE_INET_PROTOCOL:
	case TYPE_INET_SERVICE:
	case TYPE_MARK:
		return 5;
	case TYPE_IPADDR:
		return 2;
	}
	return 1;
}

struct ctr_find {
	uint64_t packets, bytes;
	int found;
};

static int ctr_cb(struct nftnl_expr *e, void *data)
{
	struct ctr_find *f = data;

	if (!f->found && !strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME),
				 "counter")) {
		f->packets = nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_PACKETS);
		f->bytes = nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_BYTES);
		f->found = 1;
	}
	return 0;
}

void lst_rule_counter(const struct lst_rule *lr, uint64_t *packets,
		      uint64_t *bytes)
{
	struct ctr_find f = { 0 };

	nftnl_expr_foreach(lr->r, ctr_cb, &f);
	*packets = f.packets;
	*bytes = f.bytes;
}

int lst_verdict_text(const struct rule_shape *s, char *buf, size_t len)
{
	struct keytype kt = { .dtype = KT_DATA_VERDICT };
	struct elem_data d = { .verdict = s->verdict };

	if (s->chain)
		snprintf(d.chain, sizeof(d.chain), "%s", s->chain);
	return elem_data_format(&kt, &d, buf, len);
}
