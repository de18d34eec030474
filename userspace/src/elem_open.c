// SPDX-License-Identifier: GPL-2.0
/* Intervals open to the top of their type, checked before sending (elem_open.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>

#include "cmd.h"
#include "elem.h"
#include "elem_list.h"
#include "elem_lookup.h"
#include "elem_open.h"
#include "setreg.h"
#include "vec.h"

static struct open_ent *reg_find(struct open_reg *r, const struct setinfo *si)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].family == si->family &&
		    !strcmp(r->v[i].table, si->table) &&
		    !strcmp(r->v[i].name, si->name))
			return &r->v[i];
	return NULL;
}

/* A new entry (no open interval), or the existing one emptied. */
static struct open_ent *reg_none(struct open_reg *r, const struct setinfo *si)
{
	struct open_ent *e = reg_find(r, si);

	if (!e) {
		if (vec_grow((void **)&r->v, &r->cap, r->n, sizeof(*r->v)))
			return NULL;
		e = &r->v[r->n];
		memset(e, 0, sizeof(*e));
		e->family = si->family;
		e->table = strdup(si->table);
		e->name = strdup(si->name);
		if (!e->table || !e->name) {
			free(e->table);
			free(e->name);
			return NULL;
		}
		r->n++;
	}
	e->has_open = 0;
	e->from_txn = 0;
	return e;
}

int open_reg_empty(struct open_reg *r, uint16_t family, const char *table,
		   const char *name)
{
	struct setinfo si = { .family = family, .table = table, .name = name };

	return reg_none(r, &si) ? 0 : -ENOMEM;
}

void open_reg_forget(struct open_reg *r, uint16_t family, const char *table,
		     const char *name)
{
	struct setinfo pattern = { .family = family, .table = table,
				  .name = name };
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++) {
		struct open_ent *e = &r->v[i];

		if (setreg_match(&pattern, e->family, e->table, e->name)) {
			free(e->table);
			free(e->name);
			continue;
		}
		r->v[k++] = *e;
	}
	r->n = k;
}

void open_reg_free(struct open_reg *r)
{
	open_reg_forget(r, NFPROTO_UNSPEC, NULL, NULL);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/*
 * The set's open interval at this point of the transaction: followed so
 * far, or asked from the kernel: the element holding the largest key is
 * the open interval, if there is one (ENOENT: none, also for a set that
 * this transaction creates).
 */
static int reg_get(struct ctx *c, const struct setinfo *si,
		   struct open_ent **out)
{
	uint8_t top[KT_MAX_KEY], start[KT_MAX_KEY], end[KT_MAX_KEY];
	struct open_ent *e = reg_find(&c->opens, si);
	struct nl_err ne;
	int err;

	if (e) {
		*out = e;
		return 0;
	}
	memset(top, 0xff, si->kt.key_len);
	err = elem_lookup(&c->nl, si, top, top, start, end, &ne);
	if (err && err != -ENOENT)
		return err;
	e = reg_none(&c->opens, si);
	if (!e)
		return -ENOMEM;
	if (!err) {
		e->has_open = 1;
		memcpy(e->start, start, si->kt.key_len);
	}
	*out = e;
	return 0;
}

/* elem_walk() visitor: the first element other than [lo, top] reaching lo */
struct reach {
	const struct setinfo *si;
	const uint8_t *lo, *top;
	uint8_t s[KT_MAX_KEY], e[KT_MAX_KEY];
	int found;
};

static void reach_visit(void *arg, const uint8_t *start, const uint8_t *end)
{
	struct reach *r = arg;
	uint32_t len = r->si->kt.key_len;

	if (r->found || memcmp(end, r->lo, len) < 0 ||
	    (!memcmp(start, r->lo, len) && !memcmp(end, r->top, len)))
		return;
	memcpy(r->s, start, len);
	memcpy(r->e, end, len);
	r->found = 1;
}

/* -EINVAL, why naming the other interval [olo, ohi] and where it is */
static int overlaps(const struct setinfo *si, const uint8_t *olo,
		    const uint8_t *ohi, const char *where, char *why,
		    size_t whylen)
{
	char other[256];

	if (elem_format(&si->kt, olo, ohi, other, sizeof(other)) < 0)
		snprintf(other, sizeof(other), "an interval");
	snprintf(why, whylen, "overlaps %s %s", other, where);
	return -EINVAL;
}

static int check_set(struct open_guard *g, struct ctx *c,
		     const struct setinfo *si, const uint8_t *lo,
		     const uint8_t *top, char *why, size_t whylen)
{
	struct reach r = { .si = si, .lo = lo, .top = top };
	struct setinfo changed;
	int err;

	if (c->script && (c->ivl_all_changed ||
			  setreg_find(&c->ivl_changed, si->family, si->table,
				      si->name, &changed) == 1)) {
		snprintf(why, whylen, "an interval open to the top into a set "
			 "this transaction changed before: the kernel does "
			 "not check it and nftlab checks against the set as "
			 "committed; give it in a transaction of its own");
		return -EINVAL;
	}
	err = elem_walk(&c->nl, si, reach_visit, &r);
	/* not in the kernel yet: created earlier in this transaction, and
	 * no element of it came before this command (ivl_changed) */
	if (err == -ENOENT && c->script)
		err = 0;
	if (err) {
		snprintf(why, whylen, "the set's elements (to check an "
			 "interval open to the top against): %s",
			 strerror(-err));
		return OPEN_GUARD_QUERY_FAILED;
	}
	if (r.found)
		return overlaps(si, r.s, r.e, "in the set", why, whylen);
	/* an open interval from above lo reaches no more of the set */
	memcpy(g->checked_lo, lo, si->kt.key_len);
	g->set_checked = 1;
	return 0;
}

/*
 * [lo, hi] against the open interval [start, top] that the set holds at
 * this point of the transaction: anything reaching start overlaps it,
 * but for that interval itself (add takes it again, create refuses it).
 */
static int check_held_open(struct open_guard *g, struct ctx *c,
			   const struct setinfo *si, const uint8_t *lo,
			   const uint8_t *hi, int open, const uint8_t *top,
			   char *why, size_t whylen)
{
	uint32_t len = si->kt.key_len;
	int err;

	if (!g->ent) {
		err = reg_get(c, si, &g->ent);
		if (err == -ENOMEM)
			return err;
		if (err) {
			snprintf(why, whylen, "the set's element at the top of "
				 "its type (to check against an interval open "
				 "to the top): %s", strerror(-err));
			return OPEN_GUARD_QUERY_FAILED;
		}
	}
	if (!g->ent->has_open || memcmp(hi, g->ent->start, len) < 0 ||
	    (open && !memcmp(lo, g->ent->start, len)))
		return 0;
	return overlaps(si, g->ent->start, top, g->ent->from_txn ?
			"given earlier in this transaction" : "in the set",
			why, whylen);
}

int open_guard_check(struct open_guard *g, struct ctx *c,
		     const struct setinfo *si, const uint8_t *lo,
		     const uint8_t *hi, int open, char *why, size_t whylen)
{
	uint32_t len = si->kt.key_len;
	uint8_t top[KT_MAX_KEY];
	int err;

	memset(top, 0xff, len);
	if (g->have_open && memcmp(hi, g->open_lo, len) >= 0 &&
	    !(open && !memcmp(lo, g->open_lo, len)))
		return overlaps(si, g->open_lo, top, "given earlier", why,
				whylen);
	if (open && g->have_hi && memcmp(g->hi_hi, lo, len) >= 0 &&
	    (memcmp(g->hi_lo, lo, len) || memcmp(g->hi_hi, top, len)))
		return overlaps(si, g->hi_lo, g->hi_hi, "given earlier", why,
				whylen);
	err = check_held_open(g, c, si, lo, hi, open, top, why, whylen);
	if (err)
		return err;
	if (open) {
		if (!g->set_checked || memcmp(lo, g->checked_lo, len) < 0) {
			err = check_set(g, c, si, lo, top, why, whylen);
			if (err)
				return err;
		}
		if (!g->have_open || memcmp(lo, g->open_lo, len) < 0)
			memcpy(g->open_lo, lo, len);
		g->have_open = 1;
		/* later commands of the transaction: the set holds it */
		if (!g->ent->has_open) {
			g->ent->has_open = 1;
			g->ent->from_txn = 1;
			memcpy(g->ent->start, lo, len);
		}
	}
	if (!g->have_hi || memcmp(hi, g->hi_hi, len) > 0) {
		memcpy(g->hi_lo, lo, len);
		memcpy(g->hi_hi, hi, len);
	}
	g->have_hi = 1;
	return 0;
}

int open_guard_del(struct ctx *c, const struct setinfo *si, int open)
{
	struct open_ent *e;

	/*
	 * Deleting a closed interval leaves an open one as it is (the kernel
	 * refuses to delete part of one); deleting the open one (the kernel
	 * refuses any other) leaves none, whatever the kernel holds now.
	 */
	if (!open)
		return 0;
	e = reg_none(&c->opens, si);
	return e ? 0 : -ENOMEM;
}
