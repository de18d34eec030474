// SPDX-License-Identifier: GPL-2.0
/*
 * counters [FAMILY [TABLE]]: every counter as one JSON object on stdout:
 *   {"rules":    [{"family","table","chain","handle","packets","bytes"}],
 *    "counters": [{"family","table","name","packets","bytes"}],
 *    "elements": [{"family","table","set","elem","packets","bytes"}]}
 * Rules and named counters come from one dump each; set elements from one
 * dump per set, printed as they arrive (nothing accumulates per element
 * but the pending start of a single-field interval, which is named by its
 * whole range as nft lists it: 10.0.0.0/24, 1000-2000).
 * Adding and deleting named counter objects is cmd_counter_obj.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>
#include <libnftnl/expr.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>

#include "cmd.h"
#include "elem.h"
#include "elem_list.h"
#include "keytype.h"
#include "json_out.h"

enum { DUMP_BUF = 64 * 1024 };

struct counters {
	struct ctx *c;
	void *buf;		/* dump buffer, DUMP_BUF bytes */
	const char *table;	/* filter, NULL: all */
	int first;		/* no array member printed yet */
	/* sets found by the set dump */
	struct counters_set *sets;
	size_t nsets, cap;
};

struct counters_set {
	uint16_t family;
	char *table, *name;
	uint32_t key_type, key_len, flags;
};

static void json_sep(struct counters *k)
{
	printf(k->first ? "\n    " : ",\n    ");
	k->first = 0;
}

static int skip_table(const struct counters *k, const char *table)
{
	return k->table && strcmp(k->table, table);
}

struct rule_ctr {
	uint64_t pkts, bytes;
	int found;
};

static int rule_expr_cb(struct nftnl_expr *e, void *data)
{
	struct rule_ctr *rc = data;

	if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "counter") &&
	    !rc->found) {
		rc->pkts = nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_PACKETS);
		rc->bytes = nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_BYTES);
		rc->found = 1;
	}
	return 0;
}

static int rules_cb(const struct nlmsghdr *nlh, void *data)
{
	struct counters *k = data;
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct rule_ctr rc = { 0 };

	if (!r)
		return -ENOMEM;
	if (nftnl_rule_nlmsg_parse(nlh, r) < 0 ||
	    skip_table(k, nftnl_rule_get_str(r, NFTNL_RULE_TABLE)))
		goto out;
	nftnl_expr_foreach(r, rule_expr_cb, &rc);
	if (!rc.found)
		goto out;
	json_sep(k);
	printf("{\"family\": \"%s\", \"table\": ",
	       nl_family_name((uint16_t)nftnl_rule_get_u32(r, NFTNL_RULE_FAMILY)));
	json_str(nftnl_rule_get_str(r, NFTNL_RULE_TABLE));
	printf(", \"chain\": ");
	json_str(nftnl_rule_get_str(r, NFTNL_RULE_CHAIN));
	printf(", \"handle\": %" PRIu64 ", \"packets\": %" PRIu64
	       ", \"bytes\": %" PRIu64 "}",
	       nftnl_rule_get_u64(r, NFTNL_RULE_HANDLE), rc.pkts, rc.bytes);
out:
	nftnl_rule_free(r);
	return 0;
}

static int objs_cb(const struct nlmsghdr *nlh, void *data)
{
	struct counters *k = data;
	struct nftnl_obj *o = nftnl_obj_alloc();

	if (!o)
		return -ENOMEM;
	if (nftnl_obj_nlmsg_parse(nlh, o) < 0 ||
	    nftnl_obj_get_u32(o, NFTNL_OBJ_TYPE) != NFT_OBJECT_COUNTER ||
	    skip_table(k, nftnl_obj_get_str(o, NFTNL_OBJ_TABLE)))
		goto out;
	json_sep(k);
	printf("{\"family\": \"%s\", \"table\": ",
	       nl_family_name((uint16_t)nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY)));
	json_str(nftnl_obj_get_str(o, NFTNL_OBJ_TABLE));
	printf(", \"name\": ");
	json_str(nftnl_obj_get_str(o, NFTNL_OBJ_NAME));
	printf(", \"packets\": %" PRIu64 ", \"bytes\": %" PRIu64 "}",
	       nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_PKTS),
	       nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_BYTES));
out:
	nftnl_obj_free(o);
	return 0;
}

static int sets_cb(const struct nlmsghdr *nlh, void *data)
{
	struct counters *k = data;
	struct nftnl_set *s = nftnl_set_alloc();
	struct counters_set *cs;

	if (!s)
		return -ENOMEM;
	if (nftnl_set_nlmsg_parse(nlh, s) < 0 ||
	    skip_table(k, nftnl_set_get_str(s, NFTNL_SET_TABLE)))
		goto out;
	if (k->nsets == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 16;
		void *p = realloc(k->sets, cap * sizeof(*k->sets));

		if (!p) {
			nftnl_set_free(s);
			return -ENOMEM;
		}
		k->sets = p;
		k->cap = cap;
	}
	cs = &k->sets[k->nsets++];
	cs->family = (uint16_t)nftnl_set_get_u32(s, NFTNL_SET_FAMILY);
	cs->table = strdup(nftnl_set_get_str(s, NFTNL_SET_TABLE));
	cs->name = strdup(nftnl_set_get_str(s, NFTNL_SET_NAME));
	cs->key_type = nftnl_set_get_u32(s, NFTNL_SET_KEY_TYPE);
	cs->key_len = nftnl_set_get_u32(s, NFTNL_SET_KEY_LEN);
	cs->flags = nftnl_set_get_u32(s, NFTNL_SET_FLAGS);
out:
	nftnl_set_free(s);
	return 0;
}

/* set being dumped: where elem_print() prints to */
struct counters_elems {
	struct counters *k;
	const struct setinfo *si;
};

/* One listed element (a range paired from its start and end) */
static int elem_print(void *arg, const struct elem_raw *e)
{
	struct counters_elems *ce = arg;
	const struct setinfo *si = ce->si;
	char text[512];

	if (!e->has_counter)
		return 0;
	/* a catch-all element, or a key type nftlab does not know */
	if (e->keyless || elem_format(&si->kt, e->key, e->key_end, text,
				      sizeof(text)))
		snprintf(text, sizeof(text), "?");
	json_sep(ce->k);
	printf("{\"family\": \"%s\", \"table\": ", nl_family_name(si->family));
	json_str(si->table);
	printf(", \"set\": ");
	json_str(si->name);
	printf(", \"elem\": ");
	json_str(text);
	printf(", \"packets\": %" PRIu64 ", \"bytes\": %" PRIu64 "}",
	       e->packets, e->bytes);
	return 0;
}

static int elem_pair_raw(void *arg, const struct elem_raw *e)
{
	return elem_pair_push(arg, e);
}

static int dump(struct counters *k, uint16_t type, uint16_t family,
		void (*fill)(struct nlmsghdr *nlh, const void *arg),
		const void *arg, nl_msg_cb cb)
{
	struct nlmsghdr *nlh;
	struct nl_err e;
	int err;

	nlh = nftnl_nlmsg_build_hdr(k->buf, type, family, NLM_F_DUMP,
				    k->c->nl.seq++);
	if (fill)
		fill(nlh, arg);
	err = nl_talk(&k->c->nl, nlh, cb, k, k->buf, DUMP_BUF, &e);
	if (err)
		fprintf(stderr, "nftlab: %s: dump: %s%s%s%s\n", k->c->op,
			strerror(-err), e.msg[0] ? " (" : "", e.msg,
			e.msg[0] ? ")" : "");
	return err;
}

/* One set's elements: one dump, paired (elem_list.h) and printed. */
static int dump_set_elements(struct counters *k, const struct counters_set *cs)
{
	struct setinfo si = { .family = cs->family, .table = cs->table,
			      .name = cs->name, .flags = cs->flags };
	struct counters_elems ce = { .k = k, .si = &si };
	struct elem_pairer pr;
	int err;

	/* an unknown key type: no key of its length, each element "?" */
	if (keytype_from_id(&si.kt, cs->key_type, cs->key_len))
		memset(&si.kt, 0, sizeof(si.kt));
	si.kt.interval = !!(si.flags & NFT_SET_INTERVAL);
	elem_pair_init(&pr, &si, elem_print, &ce);
	err = elem_dump(&k->c->nl, &si, elem_pair_raw, &pr);
	if (!err)
		err = elem_pair_flush(&pr);
	if (err)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: element dump: %s\n",
			k->c->op, nl_family_name(cs->family), cs->table,
			cs->name, strerror(-err));
	return err;
}

static int dump_elements(struct counters *k, uint16_t family)
{
	int err = dump(k, NFT_MSG_GETSET, family, NULL, NULL, sets_cb);

	for (size_t i = 0; !err && i < k->nsets; i++)
		err = dump_set_elements(k, &k->sets[i]);
	return err;
}

/* A missing table is an error, not an empty listing. */
static int table_exists(struct counters *k, uint16_t family)
{
	struct nlmsghdr *nlh;
	struct nl_err e;
	int err;

	nlh = nftnl_nlmsg_build_hdr(k->buf, NFT_MSG_GETTABLE, family, NLM_F_ACK,
				    k->c->nl.seq++);
	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, k->table);
	err = nl_talk(&k->c->nl, nlh, NULL, NULL, k->buf, DUMP_BUF, &e);
	if (err)
		fprintf(stderr, "nftlab: %s: %s/%s: %s%s\n", k->c->op,
			nl_family_name(family), k->table,
			err == -ENOENT ? "no such table: " : "", strerror(-err));
	return err;
}

int cmd_counters(struct ctx *c, int argc, char **argv)
{
	struct counters k = { .c = c };
	uint16_t family = NFPROTO_UNSPEC;
	int err;

	if (argc > 2)
		return cmd_usage(c);
	if (argc >= 1) {
		err = cmd_family(c, argv[0], &family);
		if (err)
			return err;
	}
	if (argc == 2) {
		err = cmd_name(c, "table", argv[1]);
		if (err)
			return err;
		k.table = argv[1];
	}
	k.buf = calloc(1, DUMP_BUF);
	if (!k.buf)
		return -ENOMEM;
	if (k.table) {
		err = table_exists(&k, family);
		if (err) {
			free(k.buf);
			return err;
		}
	}
	printf("{\"rules\": [");
	k.first = 1;
	err = dump(&k, NFT_MSG_GETRULE, family, NULL, NULL, rules_cb);
	if (!err) {
		printf("%s],\n \"counters\": [", k.first ? "" : "\n  ");
		k.first = 1;
		err = dump(&k, NFT_MSG_GETOBJ, family, NULL, NULL, objs_cb);
	}
	if (!err) {
		printf("%s],\n \"elements\": [", k.first ? "" : "\n  ");
		k.first = 1;
		err = dump_elements(&k, family);
	}
	if (!err)
		printf("%s]}\n", k.first ? "" : "\n  ");
	for (size_t i = 0; i < k.nsets; i++) {
		free(k.sets[i].table);
		free(k.sets[i].name);
	}
	free(k.sets);
	free(k.buf);
	return err;
}
