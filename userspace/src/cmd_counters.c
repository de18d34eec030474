// SPDX-License-Identifier: GPL-2.0
/*
 * counters [FAMILY [TABLE]]: every counter as one JSON object on stdout:
 *   {"rules":    [{"family","table","chain","handle","packets","bytes"}],
 *    "counters": [{"family","table","name","packets","bytes"}],
 *    "elements": [{"family","table","set","elem","packets","bytes"}]}
 * Rules and named counters come from one dump each; set elements from one
 * dump per set, printed as they arrive (nothing accumulates per element).
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
#include "keytype.h"
#include "json_out.h"

enum { DUMP_BUF = 64 * 1024 };

struct counters {
	struct ctx *c;
	void *buf;		/* dump buffer, DUMP_BUF bytes */
	const char *table;	/* filter, NULL: all */
	int first;		/* no array member printed yet */
	/* set being dumped */
	uint16_t family;
	const char *set_table, *set_name;
	struct keytype kt;
	/* sets found by the set dump */
	struct counters_set *sets;
	size_t nsets, cap;
};

struct counters_set {
	uint16_t family;
	char *table, *name;
	uint32_t key_type, key_len;
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
out:
	nftnl_set_free(s);
	return 0;
}

static int elem_expr_cb(struct nftnl_expr *e, void *data)
{
	return rule_expr_cb(e, data);
}

static int elem_print(struct nftnl_set_elem *e, void *data)
{
	struct counters *k = data;
	struct rule_ctr rc = { 0 };
	const void *key, *key_end = NULL;
	uint32_t len = 0;
	char text[512];

	nftnl_set_elem_expr_foreach(e, elem_expr_cb, &rc);
	if (!rc.found)
		return 0;
	key = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_KEY_END))
		key_end = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY_END, &len);
	if (!key || !k->kt.nfields || len != k->kt.key_len ||
	    elem_format(&k->kt, key, key_end, text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	json_sep(k);
	printf("{\"family\": \"%s\", \"table\": ", nl_family_name(k->family));
	json_str(k->set_table);
	printf(", \"set\": ");
	json_str(k->set_name);
	printf(", \"elem\": ");
	json_str(text);
	printf(", \"packets\": %" PRIu64 ", \"bytes\": %" PRIu64 "}",
	       rc.pkts, rc.bytes);
	return 0;
}

static int elems_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return -ENOMEM;
	if (nftnl_set_elems_nlmsg_parse(nlh, s) >= 0)
		nftnl_set_elem_foreach(s, elem_print, data);
	nftnl_set_free(s);
	return 0;
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

static void fill_set(struct nlmsghdr *nlh, const void *arg)
{
	const struct counters_set *cs = arg;

	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, cs->table);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, cs->name);
}

static int dump_elements(struct counters *k, uint16_t family)
{
	int err = dump(k, NFT_MSG_GETSET, family, NULL, NULL, sets_cb);

	for (size_t i = 0; !err && i < k->nsets; i++) {
		struct counters_set *cs = &k->sets[i];

		k->family = cs->family;
		k->set_table = cs->table;
		k->set_name = cs->name;
		if (keytype_from_id(&k->kt, cs->key_type, cs->key_len))
			memset(&k->kt, 0, sizeof(k->kt));
		err = dump(k, NFT_MSG_GETSETELEM, cs->family, fill_set, cs,
			   elems_cb);
	}
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
