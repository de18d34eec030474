// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel errors of a transaction in context (cmd_reporter()): the element
 * a message failed on, and what the errno means for it (set full, already
 * in the set, a duplicate in the transaction, an overlapping interval,
 * chain errors).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "cmd.h"
#include "elem.h"
#include "elem_dup.h"
#include "elem_list.h"
#include "elem_lookup.h"

/* Element text for error reports: the set comes from the registry. */
static int report_elem_fmt(const struct txn_what *w, char *buf, size_t len,
			   void *data)
{
	struct ctx *c = data;
	struct setinfo si;

	if (!w->table || !w->name ||
	    setreg_find(&c->sets, w->family, w->table, w->name, &si) != 1)
		return -ENOENT;
	if (setinfo_is_single_interval(&si)) {
		uint8_t start[KT_MAX_KEY], end[KT_MAX_KEY];

		/* the whole interval, not "end of interval ..." */
		if (!elem_attr_interval(&si, w->req, w->elem, start, end))
			return elem_format(&si.kt, start, end, buf, len);
	}
	return elem_attr_format(&si, w->elem, buf, len);
}

/* elem_walk() visitor: the first element that overlaps [start, end] */
struct overlap {
	const struct setinfo *si;
	const uint8_t *start, *end;
	uint8_t s[KT_MAX_KEY], e[KT_MAX_KEY];
	int found;
};

static void overlap_visit(void *arg, const uint8_t *start, const uint8_t *end)
{
	struct overlap *o = arg;
	uint32_t len = o->si->kt.key_len;

	if (o->found || memcmp(start, o->end, len) > 0 ||
	    memcmp(end, o->start, len) < 0)
		return;
	memcpy(o->s, start, len);
	memcpy(o->e, end, len);
	o->found = 1;
}

/*
 * An interval that the kernel refused with EEXIST: which element of the
 * set overlaps it.  Asked on a second socket (the first one is draining the
 * batch's replies); the batch was aborted, so the set is as before.
 */
static int report_overlap(const struct setinfo *si, const struct txn_what *w,
			  char *buf, size_t len)
{
	uint8_t start[KT_MAX_KEY], end[KT_MAX_KEY];
	struct overlap o = { .si = si, .start = start, .end = end };
	struct nl_err ne;
	struct nl nl = { 0 };
	int err;

	if (!w->elem || elem_attr_interval(si, w->req, w->elem, start, end) ||
	    nl_open(&nl))
		return -ENOENT;
	err = elem_lookup(&nl, si, start, start, o.s, o.e, &ne);
	if (err)
		err = elem_lookup(&nl, si, end, end, o.s, o.e, &ne);
	/* neither end is in an element: one inside the new interval */
	if (err && setinfo_is_single_interval(si) &&
	    !elem_walk(&nl, si, overlap_visit, &o) && o.found)
		err = 0;
	nl_close(&nl);
	if (err)
		return err;
	if (!memcmp(o.s, start, si->kt.key_len) && !memcmp(o.e, end, si->kt.key_len))
		return 1;	/* the same element */
	return elem_format(&si->kt, o.s, o.e, buf, len);
}

/* 1: the element w points at is in the set (asked on a second socket) */
static int report_in_set(const struct setinfo *si, const struct txn_what *w)
{
	uint8_t start[KT_MAX_KEY], end[KT_MAX_KEY], s2[KT_MAX_KEY], e2[KT_MAX_KEY];
	struct nl_err ne;
	struct nl nl = { 0 };
	int err;

	if (!w->elem || elem_attr_range(si, w->elem, start, end) || nl_open(&nl))
		return -ENOENT;
	err = elem_lookup(&nl, si, start, end, s2, e2, &ne);
	nl_close(&nl);
	if (err)
		return err == -ENOENT ? 0 : err;
	return !memcmp(s2, start, si->kt.key_len) &&
	       !memcmp(e2, end, si->kt.key_len);
}

/*
 * EEXIST of NEWSETELEM for an element the set does not hold: one written
 * earlier in the same transaction is the same or overlaps it; both named
 * with where they came from when the batch shows it.
 */
static void report_in_txn(const struct ctx *c, const struct txn_what *w,
			  const struct setinfo *si, int err, char *buf,
			  size_t len)
{
	const char *e = strerror(-err);
	char at[700] = "";
	struct elem_dup d;

	elem_dup_find(&c->srcmap, si, w, &d);
	/* where both came from, as far as the batch tells: none unknown */
	if (d.found && *d.where_earlier && *d.where)
		snprintf(at, sizeof(at), " (%s %s%s%s)", d.exact ? "first at" :
			 "at", d.where_earlier, d.exact ? ", again at " :
			 "; this one at ", d.where);
	else if (d.found && *d.where_earlier)
		snprintf(at, sizeof(at), " (%s %s)", d.exact ? "first at" :
			 "at", d.where_earlier);
	else if (*d.where)
		snprintf(at, sizeof(at), " (%s %s)", !d.found ? "at" :
			 d.exact ? "again at" : "this one at", d.where);
	if (d.found && d.exact)
		snprintf(buf, len, "duplicate: given twice in this transaction"
			 "%s: %s", at, e);
	else if (d.found)
		snprintf(buf, len, "overlaps %s given earlier in this "
			 "transaction%s: %s", d.earlier, at, e);
	else
		snprintf(buf, len, "%s in this transaction%s: %s",
			 si->flags & NFT_SET_INTERVAL ?
			 "duplicate, or overlaps an interval given earlier" :
			 "duplicate: given twice", at, e);
}

/*
 * EEXIST of NEWSETELEM: an interval overlapping one in the set (named),
 * the element in the set already (create; for add: with other data), or
 * an element given twice in the transaction (create) or overlapping one
 * earlier in it.  si: NULL if the set is not known.
 */
static void report_exists(const struct ctx *c, const struct txn_what *w,
			  const struct setinfo *si, int err, char *buf,
			  size_t len)
{
	int create = !!(w->nlflags & NLM_F_EXCL);
	int in = -ENOENT;
	char other[256];

	if (si && (si->flags & NFT_SET_INTERVAL)) {
		in = report_overlap(si, w, other, sizeof(other));
		if (in == 0) {
			snprintf(buf, len, "overlaps %s in the set: %s", other,
				 strerror(-err));
			return;
		}
		in = in == 1 ? 1 : 0;
	} else if (si) {
		in = report_in_set(si, w);
	}
	if (in == 0)
		report_in_txn(c, w, si, err, buf, len);
	else if (create)
		snprintf(buf, len, "element already in the set (element create "
			 "refuses existing elements, element add takes them): %s",
			 strerror(-err));
	else
		snprintf(buf, len, "element already in the set with other data "
			 "(element del it first): %s", strerror(-err));
}

/* Chain errnos: what the kernel means by them (nf_tables_api.c). */
static const char *report_chain(const struct txn_what *w, int err, char *buf,
				size_t len)
{
	const char *why;

	if (w->type == NFT_MSG_DELCHAIN && err == -ENOENT)
		why = "no such chain (or table)";
	else if (w->type == NFT_MSG_DELCHAIN && err == -EBUSY)
		why = "chain in use: it has rules, or rules or maps jump to it";
	else if (err == -ENOENT)
		why = "no such table, or chain type or hook not supported by "
		      "this kernel";
	else if (err == -EOPNOTSUPP)
		why = "the chain exists with another hook, priority, type or "
		      "device, which cannot be changed (chain del first)";
	else if (err == -EEXIST)
		why = "a regular chain of that name exists; it cannot become "
		      "a base chain (chain del first)";
	else
		return NULL;
	snprintf(buf, len, "%s: %s", why, strerror(-err));
	return buf;
}

/* The kernel's errno in the context of the message that failed. */
static const char *report_explain(const struct txn_what *w, int err,
				  char *buf, size_t len, void *data)
{
	struct ctx *c = data;
	struct setinfo si = { 0 };
	int known = w->table && w->name &&
		setreg_find(&c->sets, w->family, w->table, w->name, &si) == 1;

	switch (w->type) {
	case NFT_MSG_NEWSETELEM:
		if (err == -ENFILE && known && si.size)
			snprintf(buf, len, "set is full (size %u): %s", si.size,
				 strerror(-err));
		else if (err == -ENFILE)
			snprintf(buf, len, "set is full: %s", strerror(-err));
		else if (err == -EEXIST)
			report_exists(c, w, known ? &si : NULL, err, buf, len);
		else if (err == -ENOENT && known && si.kt.dtype == KT_DATA_VERDICT)
			snprintf(buf, len, "no such set, or the jump/goto chain "
				 "does not exist: %s", strerror(-err));
		else
			return NULL;
		return buf;
	case NFT_MSG_NEWCHAIN:
	case NFT_MSG_DELCHAIN:
		return report_chain(w, err, buf, len);
	}
	/*
	 * No guess for the rest.  An ERANGE in particular is no name: names
	 * (name.c) and timeouts (TIMEOUT_MAX_MS) are refused before sending
	 * where the kernel would answer it, and what is left (a value of
	 * another kernel's limits) is the kernel's word.
	 */
	return NULL;
}

void cmd_reporter(struct ctx *c, struct txn_reporter *rep, const char *op)
{
	memset(rep, 0, sizeof(*rep));
	rep->op = op;
	rep->elem_fmt = report_elem_fmt;
	rep->explain = report_explain;
	rep->data = c;
	rep->max_reports = 10;
}
