// SPDX-License-Identifier: GPL-2.0
/*
 * A set's elements from one NFT_MSG_GETSETELEM dump (elem_dump()), paired
 * into listed elements (elem_pairer), and the two users that stream them:
 * element list FAMILY TABLE SET [--json], printing each as it arrives,
 * and elem_walk().  Memory is bounded by one dump buffer and one pending
 * element, whatever the number of elements: nothing is collected or
 * sorted here (list set does that, elem_recs.c).
 *
 * Single-field interval sets come as start elements and end elements
 * (end + 1, NFT_SET_ELEM_INTERVAL_END) in tree order (descending on 6.x
 * rbtree, ascending also handled).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>

#include "cmd.h"
#include "elem.h"
#include "elem_list.h"
#include "json_out.h"

enum { LIST_BUF = 64 * 1024 };

/* Counters are the only per-element expression nftlab lists. */
static int raw_expr_cb(struct nftnl_expr *x, void *data)
{
	struct elem_raw *r = data;

	if (strcmp(nftnl_expr_get_str(x, NFTNL_EXPR_NAME), "counter") ||
	    r->has_counter) {
		r->unlisted = "an element expression other than one counter";
		return 0;
	}
	r->has_counter = 1;
	r->packets = nftnl_expr_get_u64(x, NFTNL_EXPR_CTR_PACKETS);
	r->bytes = nftnl_expr_get_u64(x, NFTNL_EXPR_CTR_BYTES);
	return 0;
}

static void raw_data(struct nftnl_set_elem *e, const struct keytype *kt,
		     struct elem_raw *r)
{
	uint32_t len = 0;

	if (kt->dtype == KT_DATA_VERDICT &&
	    nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_VERDICT)) {
		r->has_data = 1;
		r->data.verdict = (int32_t)nftnl_set_elem_get_u32(e,
					NFTNL_SET_ELEM_VERDICT);
		if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_CHAIN))
			snprintf(r->data.chain, sizeof(r->data.chain), "%s",
				 nftnl_set_elem_get_str(e, NFTNL_SET_ELEM_CHAIN));
	} else if (kt->dtype && nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_DATA)) {
		const void *v = nftnl_set_elem_get(e, NFTNL_SET_ELEM_DATA, &len);

		if (v && len == kt->dlen && len <= sizeof(r->data.value)) {
			memcpy(r->data.value, v, len);
			r->has_data = 1;
		}
	}
}

/* r from e; an element without a key of the set's length is keyless */
static int raw_from(struct nftnl_set_elem *e, const struct keytype *kt,
		    struct elem_raw *r)
{
	const void *key, *key_end;
	uint32_t len = 0, flags = 0;

	memset(r, 0, offsetof(struct elem_raw, data));
	r->timeout_ms = r->expire_ms = r->packets = r->bytes = 0;
	r->has_counter = 0;
	r->unlisted = NULL;
	key = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
	if (!key || len != kt->key_len) {
		r->keyless = 1;
		r->unlisted = "an element without a key of the set's type "
			      "(a catch-all element)";
		return 0;
	}
	memcpy(r->key, key, len);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_KEY_END)) {
		key_end = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY_END, &len);
		r->has_key_end = key_end && len == kt->key_len;
		if (r->has_key_end)
			memcpy(r->key_end, key_end, len);
	}
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS))
		flags = nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS);
	r->is_end = !!(flags & NFT_SET_ELEM_INTERVAL_END);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_USERDATA))
		r->unlisted = "an element comment (user data)";
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_TIMEOUT))
		r->timeout_ms = nftnl_set_elem_get_u64(e, NFTNL_SET_ELEM_TIMEOUT);
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_EXPIRATION))
		r->expire_ms = nftnl_set_elem_get_u64(e, NFTNL_SET_ELEM_EXPIRATION);
	nftnl_set_elem_expr_foreach(e, raw_expr_cb, r);
	raw_data(e, kt, r);
	return 0;
}

struct dumper {
	const struct setinfo *si;
	elem_raw_fn raw;
	void *arg;
	int err;
	struct elem_raw r;
};

static int dump_elem(struct nftnl_set_elem *e, void *data)
{
	struct dumper *d = data;

	if (d->err || raw_from(e, &d->si->kt, &d->r))
		return 0;
	d->err = d->raw(d->arg, &d->r);
	return 0;
}

static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dumper *d = data;
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return -ENOMEM;
	if (nftnl_set_elems_nlmsg_parse(nlh, s) >= 0)
		nftnl_set_elem_foreach(s, dump_elem, d);
	nftnl_set_free(s);
	return d->err;
}

int elem_dump(struct nl *nl, const struct setinfo *si, elem_raw_fn raw,
	      void *arg)
{
	struct dumper *d = calloc(1, sizeof(*d));
	struct nlmsghdr *nlh;
	struct nl_err e;
	void *buf;
	int err;

	buf = calloc(1, LIST_BUF);
	if (!buf || !d) {
		free(buf);
		free(d);
		return -ENOMEM;
	}
	d->si = si;
	d->raw = raw;
	d->arg = arg;
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM, si->family,
				    NLM_F_DUMP, nl->seq++);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, si->table);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, si->name);
	err = nl_talk(nl, nlh, dump_cb, d, buf, LIST_BUF, &e);
	free(buf);
	free(d);
	return err;
}

void elem_pair_init(struct elem_pairer *pr, const struct setinfo *si,
		    elem_item_fn item, void *arg)
{
	pr->si = si;
	pr->item = item;
	pr->arg = arg;
	pr->have = 0;
}

/* A start element with the end (key end + 1) or open to the top. */
static int pair_range(struct elem_pairer *pr, const struct elem_raw *start,
		      const uint8_t *end_plus_one)
{
	struct elem_raw item = *start;

	if (!end_plus_one ||
	    elem_key_dec(&pr->si->kt, end_plus_one, item.key_end))
		memset(item.key_end, 0xff, sizeof(item.key_end));
	return pr->item(pr->arg, &item);
}

int elem_pair_flush(struct elem_pairer *pr)
{
	int have = pr->have;

	pr->have = 0;
	return have && !pr->p.is_end ? pair_range(pr, &pr->p, NULL) : 0;
}

static int pair_single(struct elem_pairer *pr, const struct elem_raw *x)
{
	struct elem_raw *p = &pr->p;
	uint32_t len = pr->si->kt.key_len;
	int err;

	if (pr->have && p->is_end && !x->is_end &&
	    memcmp(p->key, x->key, len) > 0) {
		pr->have = 0;
		return pair_range(pr, x, p->key);	/* descending */
	}
	if (pr->have && !p->is_end && x->is_end &&
	    memcmp(x->key, p->key, len) > 0) {
		pr->have = 0;
		return pair_range(pr, p, x->key);	/* ascending */
	}
	err = elem_pair_flush(pr);
	*p = *x;
	pr->have = 1;
	return err;
}

int elem_pair_push(struct elem_pairer *pr, const struct elem_raw *e)
{
	struct elem_raw item;

	if (e->keyless)
		return pr->item(pr->arg, e);	/* nothing to pair */
	if (setinfo_is_single_interval(pr->si))
		return pair_single(pr, e);
	if (e->is_end)
		return 0;
	if (e->has_key_end)
		return pr->item(pr->arg, e);
	item = *e;
	memcpy(item.key_end, item.key, pr->si->kt.key_len);
	return pr->item(pr->arg, &item);
}

struct lister {
	const struct setinfo *si;
	int json, first;
	uint64_t count;
	uint64_t keyless;	/* elements it cannot print */
};

static int list_print(void *arg, const struct elem_raw *e)
{
	struct lister *l = arg;
	const struct keytype *kt = &l->si->kt;
	char text[600], data[300] = "", tmo[64] = "";

	if (e->keyless) {
		l->keyless++;
		return 0;
	}
	if (elem_format(kt, e->key, e->key_end, text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	if (e->has_data && elem_data_format(kt, &e->data, data, sizeof(data)))
		snprintf(data, sizeof(data), "?");
	if (e->timeout_ms)
		timeout_format(e->timeout_ms, tmo, sizeof(tmo));
	l->count++;
	if (!l->json) {
		printf("%s%s%s%s%s\n", text, *tmo ? " timeout " : "", tmo,
		       e->has_data ? " : " : "", data);
		return 0;
	}
	printf("%s\n    {\"elem\": ", l->first ? "" : ",");
	l->first = 0;
	json_str(text);
	if (e->timeout_ms)
		printf(", \"timeout_ms\": %" PRIu64, e->timeout_ms);
	if (e->has_data) {
		printf(", \"data\": ");
		json_str(data);
	}
	putchar('}');
	return 0;
}

static int pair_raw(void *arg, const struct elem_raw *e)
{
	return elem_pair_push(arg, e);
}

/* Dumps si's elements through a pairer to item. */
static int dump_paired(struct nl *nl, const struct setinfo *si,
		       elem_item_fn item, void *arg)
{
	struct elem_pairer *pr = malloc(sizeof(*pr));
	int err;

	if (!pr)
		return -ENOMEM;
	elem_pair_init(pr, si, item, arg);
	err = elem_dump(nl, si, pair_raw, pr);
	if (!err)
		err = elem_pair_flush(pr);
	free(pr);
	return err;
}

int elem_list(struct ctx *c, const struct setinfo *si, int json)
{
	struct lister l = { .si = si, .json = json, .first = 1 };
	int err;

	if (json) {
		printf("{\"family\": \"%s\", \"table\": ", nl_family_name(si->family));
		json_str(si->table);
		printf(", \"%s\": ", si->kt.dtype ? "map" : "set");
		json_str(si->name);
		printf(", \"elements\": [");
	}
	err = dump_paired(&c->nl, si, list_print, &l);
	if (json && !err)
		printf("%s]}\n", l.first ? "" : "\n  ");
	if (err)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s\n", c->op,
			nl_family_name(si->family), si->table, si->name,
			strerror(-err));
	if (c->stats)
		fprintf(stderr, "nftlab: %s: stats: %" PRIu64 " elements\n",
			c->op, l.count);
	if (!err && l.keyless) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %" PRIu64 " element(s) "
			"without a key of the set's type (catch-all) not listed "
			"(nft list shows them)\n", c->op,
			nl_family_name(si->family), si->table, si->name,
			l.keyless);
		c->refused = 1;
		err = -EINVAL;
	}
	return err;
}

struct walker {
	elem_visit_fn visit;
	void *arg;
};

static int walk_item(void *arg, const struct elem_raw *e)
{
	struct walker *w = arg;

	if (!e->keyless)
		w->visit(w->arg, e->key, e->key_end);
	return 0;
}

/* Every element of si as [start, end] to visit, on nl (no output). */
int elem_walk(struct nl *nl, const struct setinfo *si, elem_visit_fn visit,
	      void *arg)
{
	struct walker w = { .visit = visit, .arg = arg };

	return dump_paired(nl, si, walk_item, &w);
}
