// SPDX-License-Identifier: GPL-2.0
/*
 * element list FAMILY TABLE SET [--json] (elem_list.h): stream a set's (or map's)
 * elements from one NFT_MSG_GETSETELEM dump, printing each as it arrives.
 * Memory is bounded by one dump buffer and one pending element, whatever
 * the number of elements: nothing is collected or sorted.
 *
 * Single-field interval sets come as start elements and end elements
 * (end + 1, NFT_SET_ELEM_INTERVAL_END) in tree order (descending on 6.x
 * rbtree, ascending also handled): a start and the neighbouring end form
 * one range; a start without an end runs to the largest value; an end
 * without a start (nft's "0 end" marker) is no element.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>
#include <libnftnl/set.h>

#include "cmd.h"
#include "elem.h"
#include "elem_list.h"
#include "json_out.h"

enum { LIST_BUF = 64 * 1024 };

struct pending {
	int have, is_end;
	uint8_t key[KT_MAX_KEY];
	struct elem_data data;
	int has_data;
	uint64_t timeout_ms;
};

struct lister {
	struct ctx *c;
	elem_visit_fn visit;	/* elem_walk(): called instead of printing */
	void *arg;
	const struct setinfo *si;
	int json, first, err;
	uint64_t count;
	struct pending p;	/* single-field intervals: one held element */
};

static void list_print(struct lister *l, const uint8_t *key,
		       const uint8_t *key_end, const struct elem_data *d,
		       uint64_t timeout_ms)
{
	const struct keytype *kt = &l->si->kt;
	char text[600], data[300] = "", tmo[64] = "";

	if (elem_format(kt, key, key_end, text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	if (d && elem_data_format(kt, d, data, sizeof(data)))
		snprintf(data, sizeof(data), "?");
	if (timeout_ms)
		timeout_format(timeout_ms, tmo, sizeof(tmo));
	l->count++;
	if (!l->json) {
		printf("%s%s%s%s%s\n", text, *tmo ? " timeout " : "", tmo,
		       d ? " : " : "", data);
		return;
	}
	printf("%s\n    {\"elem\": ", l->first ? "" : ",");
	l->first = 0;
	json_str(text);
	if (timeout_ms)
		printf(", \"timeout_ms\": %" PRIu64, timeout_ms);
	if (d) {
		printf(", \"data\": ");
		json_str(data);
	}
	putchar('}');
}

static void list_emit(struct lister *l, const uint8_t *key,
		      const uint8_t *key_end, const struct elem_data *d,
		      uint64_t timeout_ms)
{
	if (l->visit)
		l->visit(l->arg, key, key_end ? key_end : key);
	else
		list_print(l, key, key_end, d, timeout_ms);
}

/* A start element with the pending end (key end + 1) or open to the top. */
static void list_range(struct lister *l, const struct pending *start,
		       const uint8_t *end_plus_one)
{
	uint8_t last[KT_MAX_KEY];

	if (!end_plus_one || elem_key_dec(&l->si->kt, end_plus_one, last))
		memset(last, 0xff, sizeof(last));
	list_emit(l, start->key, last, start->has_data ? &start->data : NULL,
		   start->timeout_ms);
}

static void list_flush(struct lister *l)
{
	if (l->p.have && !l->p.is_end)
		list_range(l, &l->p, NULL);
	l->p.have = 0;
}

static void list_interval(struct lister *l, const struct pending *x)
{
	struct pending *p = &l->p;
	uint32_t len = l->si->kt.key_len;

	if (p->have && p->is_end && !x->is_end &&
	    memcmp(p->key, x->key, len) > 0) {
		list_range(l, x, p->key);		/* descending */
		p->have = 0;
		return;
	}
	if (p->have && !p->is_end && x->is_end &&
	    memcmp(x->key, p->key, len) > 0) {
		list_range(l, p, x->key);		/* ascending */
		p->have = 0;
		return;
	}
	list_flush(l);
	*p = *x;
}

static int list_elem(struct nftnl_set_elem *e, void *data)
{
	struct lister *l = data;
	const struct keytype *kt = &l->si->kt;
	struct pending x = { .have = 1 };
	const void *key, *key_end = NULL;
	uint32_t len = 0, len_end = 0;

	key = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
	if (!key || len != kt->key_len)
		return 0;
	memcpy(x.key, key, len);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_KEY_END))
		key_end = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY_END, &len_end);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS))
		x.is_end = !!(nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS) &
			      NFT_SET_ELEM_INTERVAL_END);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_TIMEOUT))
		x.timeout_ms = nftnl_set_elem_get_u64(e, NFTNL_SET_ELEM_TIMEOUT);
	if (kt->dtype == KT_DATA_VERDICT &&
	    nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_VERDICT)) {
		x.has_data = 1;
		x.data.verdict = (int32_t)nftnl_set_elem_get_u32(e,
					NFTNL_SET_ELEM_VERDICT);
		if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_CHAIN))
			snprintf(x.data.chain, sizeof(x.data.chain), "%s",
				 nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN));
	} else if (kt->dtype && nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_DATA)) {
		const void *v = nftnl_set_elem_get(e, NFTNL_SET_ELEM_DATA, &len);

		if (v && len == kt->dlen && len <= sizeof(x.data.value)) {
			memcpy(x.data.value, v, len);
			x.has_data = 1;
		}
	}
	if (setinfo_is_single_interval(l->si)) {
		list_interval(l, &x);
		return 0;
	}
	if (x.is_end)
		return 0;
	list_emit(l, x.key, key_end && len_end == kt->key_len ? key_end : NULL,
		   x.has_data ? &x.data : NULL, x.timeout_ms);
	return 0;
}

static int list_cb(const struct nlmsghdr *nlh, void *data)
{
	struct lister *l = data;
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return -ENOMEM;
	if (nftnl_set_elems_nlmsg_parse(nlh, s) >= 0)
		nftnl_set_elem_foreach(s, list_elem, l);
	nftnl_set_free(s);
	return 0;
}

/* Dumps the elements of si on nl through list_cb into l. */
static int dump_elems(struct nl *nl, const struct setinfo *si,
		      struct lister *l)
{
	struct nlmsghdr *nlh;
	struct nl_err e;
	void *buf;
	int err;

	buf = calloc(1, LIST_BUF);
	if (!buf)
		return -ENOMEM;
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM, si->family,
				    NLM_F_DUMP, nl->seq++);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, si->table);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, si->name);
	err = nl_talk(nl, nlh, list_cb, l, buf, LIST_BUF, &e);
	if (!err)
		list_flush(l);
	free(buf);
	return err;
}

int elem_list(struct ctx *c, const struct setinfo *si, int json)
{
	struct lister l = { .c = c, .si = si, .json = json, .first = 1 };
	int err;

	if (json) {
		printf("{\"family\": \"%s\", \"table\": ", nl_family_name(si->family));
		json_str(si->table);
		printf(", \"%s\": ", si->kt.dtype ? "map" : "set");
		json_str(si->name);
		printf(", \"elements\": [");
	}
	err = dump_elems(&c->nl, si, &l);
	if (json && !err)
		printf("%s]}\n", l.first ? "" : "\n  ");
	if (err)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s\n", c->op,
			nl_family_name(si->family), si->table, si->name,
			strerror(-err));
	if (c->stats)
		fprintf(stderr, "nftlab: %s: stats: %" PRIu64 " elements\n",
			c->op, l.count);
	return err;
}

/* Every element of si as [start, end] to visit, on nl (no output). */
int elem_walk(struct nl *nl, const struct setinfo *si, elem_visit_fn visit,
	      void *arg)
{
	struct lister l = { .si = si, .visit = visit, .arg = arg };

	return dump_elems(nl, si, &l);
}
