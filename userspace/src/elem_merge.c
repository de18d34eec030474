// SPDX-License-Identifier: GPL-2.0
/* auto-merge sets: merged intervals into the transaction (elem_merge.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "cmd.h"
#include "elem_check.h"
#include "elem_list.h"
#include "elem_merge.h"
#include "elem_write.h"
#include "setreg.h"

int elem_merge_uses(const struct setinfo *si)
{
	return si->automerge && setinfo_is_single_interval(si);
}

static struct merge_ent *reg_find(struct merge_reg *r, uint16_t family,
				  const char *table, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].family == family && !strcmp(r->v[i].table, table) &&
		    !strcmp(r->v[i].name, name))
			return &r->v[i];
	return NULL;
}

static struct merge_ent *reg_new(struct merge_reg *r, uint16_t family,
				 const char *table, const char *name,
				 uint32_t key_len)
{
	struct merge_ent *e;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		void *p = realloc(r->v, cap * sizeof(*r->v));

		if (!p)
			return NULL;
		r->v = p;
		r->cap = cap;
	}
	e = &r->v[r->n];
	memset(e, 0, sizeof(*e));
	e->family = family;
	e->table = strdup(table);
	e->name = strdup(name);
	ivl_init(&e->cur, key_len);
	ivl_init(&e->base, key_len);
	if (!e->table || !e->name) {
		free(e->table);
		free(e->name);
		return NULL;
	}
	r->n++;
	return e;
}

int merge_reg_empty(struct merge_reg *r, uint16_t family, const char *table,
		    const char *name, uint32_t key_len)
{
	struct merge_ent *e = reg_find(r, family, table, name);

	if (e) {
		/* what the transaction had yet to write goes with the rest */
		ivl_free(&e->cur);
		ivl_free(&e->base);
		ivl_init(&e->cur, key_len);
		ivl_init(&e->base, key_len);
		e->dirty = 0;
		e->flags = 0;
		return 0;
	}
	return reg_new(r, family, table, name, key_len) ? 0 : -ENOMEM;
}

void merge_reg_forget(struct merge_reg *r, uint16_t family, const char *table,
		      const char *name)
{
	struct setinfo pattern = { .family = family, .table = table,
				  .name = name };
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++) {
		struct merge_ent *e = &r->v[i];

		if (setreg_match(&pattern, e->family, e->table, e->name)) {
			free(e->table);
			free(e->name);
			free(e->where);
			free(e->op);
			ivl_free(&e->cur);
			ivl_free(&e->base);
			continue;
		}
		r->v[k++] = *e;
	}
	r->n = k;
}

void merge_reg_free(struct merge_reg *r)
{
	merge_reg_forget(r, NFPROTO_UNSPEC, NULL, NULL);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

struct walk_add {
	struct ivl *l;
	int err;
};

static void walk_visit(void *arg, const uint8_t *start, const uint8_t *end)
{
	struct walk_add *w = arg;

	if (!w->err)
		w->err = ivl_add(w->l, start, end);
}

/* The set's intervals at this point: followed so far, or the kernel's. */
static int merge_cur(struct ctx *c, const struct setinfo *si,
		     struct merge_ent **out)
{
	struct merge_ent *e = reg_find(&c->merges, si->family, si->table,
				       si->name);
	struct walk_add w;
	int err;

	if (!e) {
		e = reg_new(&c->merges, si->family, si->table, si->name,
			    si->kt.key_len);
		if (!e)
			return -ENOMEM;
		w.l = &e->cur;
		w.err = 0;
		err = elem_walk(&c->nl, si, walk_visit, &w);
		if (!err && !w.err && c->script) {
			ivl_sort(&e->cur);
			w.err = ivl_copy(&e->base, &e->cur);
		}
		if (err || w.err) {
			fprintf(stderr, "nftlab: %s: %s/%s/%s: the set's elements "
				"(to merge with): %s\n", c->op,
				nl_family_name(si->family), si->table, si->name,
				strerror(-(err ? err : w.err)));
			merge_reg_forget(&c->merges, si->family, si->table,
					 si->name);
			return err ? err : w.err;
		}
	}
	if (!e->cur.len)	/* flushed before its key was known */
		e->cur.len = e->base.len = si->kt.key_len;
	e->si = *si;
	e->si.table = e->table;
	e->si.name = e->name;
	*out = e;
	return 0;
}

/*
 * The intervals of l as elements of one type into t; where: the script
 * line they are named after in error reports ("" on the command line).
 */
static int write_ivls(struct ctx *c, struct txn *t, const struct setinfo *si,
		      uint16_t type, uint16_t flags, const struct ivl *l,
		      const char *where)
{
	struct elem_check k;
	struct elem_writer w;
	struct elem el;
	char why[256], text[256];
	uint32_t src;
	int err = 0;

	if (!l->n)
		return 0;
	ew_init(&w, t, si, type, flags);
	ec_init(&k, c, si, type, EC_MERGED);
	w.map = &c->srcmap;
	w.nelem = c->srcmap.next;
	err = elem_src_add(w.map, ELEM_SRC_MERGED, where, &src);
	memset(&el, 0, sizeof(el));
	for (size_t i = 0; !err && i < l->n; i++) {
		memcpy(el.key, ivl_start(l, i), l->len);
		memcpy(el.key_end, ivl_end(l, i), l->len);
		el.is_range = !!memcmp(el.key, el.key_end, l->len);
		err = elem_src_note(w.map, w.nelem, src, i + 1);
		if (!err)
			err = ec_check(&k, &el, why, sizeof(why));
		if (!err)
			err = ew_add(&w, &el);
		w.nelem++;
		if (err == -EINVAL) {
			if (elem_format(&si->kt, el.key, el.key_end, text,
					sizeof(text)))
				snprintf(text, sizeof(text), "an interval");
			fprintf(stderr, "nftlab: %s: %s/%s/%s: %s (auto-merged): "
				"%s\n", c->op, nl_family_name(si->family),
				si->table, si->name, text, why);
			c->refused = 1;
		}
	}
	if (!err)
		err = ew_close(&w);
	c->elems += w.count;
	c->srcmap.next = w.nelem;
	return err;
}

/* -f: what cur now is for the rest of the transaction, written at its end */
static int merge_defer(struct ctx *c, struct merge_ent *e, uint16_t flags)
{
	char *where = strdup(c->where), *op = strdup(c->op);

	if (!where || !op) {
		free(where);
		free(op);
		return -ENOMEM;
	}
	free(e->where);
	free(e->op);
	e->where = where;
	e->op = op;
	e->dirty = 1;
	e->flags |= flags;
	return 0;
}

/* element del of an interval the set holds at this point: cur only */
static int merge_del(struct ctx *c, struct txn *t, struct merge_ent *e,
		     uint16_t type, uint16_t flags, const struct ivl *in)
{
	struct ivl rest;
	int err;

	ivl_init(&rest, in->len);
	for (size_t i = 0; i < in->n; i++) {
		if (!c->script) {
			ivl_remove(&e->cur, ivl_start(in, i), ivl_end(in, i));
			continue;
		}
		/* not there: the kernel says so, and names the line */
		if (ivl_remove(&e->cur, ivl_start(in, i), ivl_end(in, i)) &&
		    ivl_add(&rest, ivl_start(in, i), ivl_end(in, i))) {
			ivl_free(&rest);
			return -ENOMEM;
		}
	}
	if (!c->script)
		return write_ivls(c, t, &e->si, type, flags, in, c->where);
	err = write_ivls(c, t, &e->si, type, flags, &rest, c->where);
	ivl_free(&rest);
	return err ? err : merge_defer(c, e, 0);
}

int elem_merge_write(struct ctx *c, struct txn *t, const struct setinfo *si,
		     uint16_t type, uint16_t flags, const struct ivl *in)
{
	struct merge_ent *e = NULL;
	struct ivl del, put;
	int err = merge_cur(c, si, &e);

	if (err)
		return err;
	if (type == NFT_MSG_DELSETELEM)
		return merge_del(c, t, e, type, flags, in);
	ivl_init(&del, si->kt.key_len);
	ivl_init(&put, si->kt.key_len);
	err = ivl_merge(&e->cur, in, &si->kt, &del, &put);
	if (!err && c->script)
		err = merge_defer(c, e, flags);
	else if (!err)
		err = write_ivls(c, t, si, NFT_MSG_DELSETELEM, 0, &del,
				 c->where);
	if (!err && !c->script)
		err = write_ivls(c, t, si, type, flags, &put, c->where);
	ivl_free(&del);
	ivl_free(&put);
	return err;
}

/* One set's changes: base's intervals that cur lacks, then cur's new ones. */
static int flush_one(struct ctx *c, struct txn *t, struct merge_ent *e)
{
	const char *op = c->op;
	struct ivl del, put;
	char label[QUOTE_MAX * 3 + 96];
	int err;

	/* errors name the last command that changed the set */
	snprintf(label, sizeof(label), "%s (auto-merged)", e->op);
	ivl_sort(&e->cur);
	ivl_sort(&e->base);
	ivl_init(&del, e->cur.len);
	ivl_init(&put, e->cur.len);
	err = ivl_diff(&e->base, &e->cur, &del);
	if (!err)
		err = ivl_diff(&e->cur, &e->base, &put);
	if (!err && (del.n || put.n))
		err = txn_mark(t, label);
	c->op = label;
	if (!err)
		err = write_ivls(c, t, &e->si, NFT_MSG_DELSETELEM, 0, &del,
				 e->where);
	if (!err)
		err = write_ivls(c, t, &e->si, NFT_MSG_NEWSETELEM,
				 NLM_F_CREATE | e->flags, &put,
				 e->where);
	c->op = op;
	ivl_free(&del);
	ivl_free(&put);
	return err;
}

int elem_merge_flush(struct ctx *c, struct txn *t)
{
	int err = 0;

	for (size_t i = 0; !err && i < c->merges.n; i++) {
		struct merge_ent *e = &c->merges.v[i];

		if (!e->dirty)
			continue;
		err = flush_one(c, t, e);
		e->dirty = 0;
	}
	return err;
}
