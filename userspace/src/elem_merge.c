// SPDX-License-Identifier: GPL-2.0
/* auto-merge sets: merged intervals into the transaction (elem_merge.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "cmd.h"
#include "elem_list.h"
#include "elem_merge.h"
#include "elem_write.h"

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
	e->family = family;
	e->table = strdup(table);
	e->name = strdup(name);
	ivl_init(&e->cur, key_len);
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
		ivl_free(&e->cur);
		ivl_init(&e->cur, key_len);
		return 0;
	}
	return reg_new(r, family, table, name, key_len) ? 0 : -ENOMEM;
}

void merge_reg_forget(struct merge_reg *r, uint16_t family, const char *table,
		      const char *name)
{
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++) {
		struct merge_ent *e = &r->v[i];

		if ((family == NFPROTO_UNSPEC || e->family == family) &&
		    (!table || !strcmp(e->table, table)) &&
		    (!name || !strcmp(e->name, name))) {
			free(e->table);
			free(e->name);
			ivl_free(&e->cur);
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
static int merge_cur(struct ctx *c, const struct setinfo *si, struct ivl **cur)
{
	struct merge_ent *e = reg_find(&c->merges, si->family, si->table,
				       si->name);
	struct walk_add w;
	int err;

	if (e) {
		if (!e->cur.len)	/* flushed before its key was known */
			e->cur.len = si->kt.key_len;
		*cur = &e->cur;
		return 0;
	}
	e = reg_new(&c->merges, si->family, si->table, si->name,
		    si->kt.key_len);
	if (!e)
		return -ENOMEM;
	w.l = &e->cur;
	w.err = 0;
	err = elem_walk(&c->nl, si, walk_visit, &w);
	if (err || w.err) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: the set's elements (to "
			"merge with): %s\n", c->op, nl_family_name(si->family),
			si->table, si->name, strerror(-(err ? err : w.err)));
		merge_reg_forget(&c->merges, si->family, si->table, si->name);
		return err ? err : w.err;
	}
	*cur = &e->cur;
	return 0;
}

/* The intervals of l as elements of one type into t. */
static int write_ivls(struct ctx *c, struct txn *t, const struct setinfo *si,
		      uint16_t type, uint16_t flags, const struct ivl *l)
{
	struct elem_writer w;
	struct elem el;
	char why[256];
	int err = 0;

	ew_init(&w, t, si, type, flags);
	w.c = c;
	memset(&el, 0, sizeof(el));
	for (size_t i = 0; !err && i < l->n; i++) {
		memcpy(el.key, ivl_start(l, i), l->len);
		memcpy(el.key_end, ivl_end(l, i), l->len);
		el.is_range = !!memcmp(el.key, el.key_end, l->len);
		err = ew_add_slow(&w, &el, why, sizeof(why));
		if (err == -EINVAL)
			fprintf(stderr, "nftlab: %s: %s\n", c->op, why);
	}
	if (!err)
		err = ew_close(&w);
	c->elems += w.count;
	return err;
}

int elem_merge_write(struct ctx *c, struct txn *t, const struct setinfo *si,
		     uint16_t type, uint16_t flags, const struct ivl *in)
{
	struct ivl *cur = NULL, del, put;
	int err = merge_cur(c, si, &cur);

	if (err)
		return err;
	if (type == NFT_MSG_DELSETELEM) {
		for (size_t i = 0; i < in->n; i++)
			ivl_remove(cur, ivl_start(in, i), ivl_end(in, i));
		return write_ivls(c, t, si, type, flags, in);
	}
	ivl_init(&del, si->kt.key_len);
	ivl_init(&put, si->kt.key_len);
	err = ivl_merge(cur, in, &si->kt, &del, &put);
	if (!err)
		err = write_ivls(c, t, si, NFT_MSG_DELSETELEM, 0, &del);
	if (!err)
		err = write_ivls(c, t, si, type, flags, &put);
	ivl_free(&del);
	ivl_free(&put);
	return err;
}
