// SPDX-License-Identifier: GPL-2.0
/* Intervals open to the top of their type, checked before sending (elem_open.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "elem.h"
#include "elem_list.h"
#include "elem_open.h"

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
		return -EINVAL;
	}
	if (r.found)
		return overlaps(si, r.s, r.e, "in the set", why, whylen);
	/* an open interval from above lo reaches no more of the set */
	memcpy(g->checked_lo, lo, si->kt.key_len);
	g->set_checked = 1;
	return 0;
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
	if (open) {
		if (g->have_hi && memcmp(g->hi_hi, lo, len) >= 0 &&
		    (memcmp(g->hi_lo, lo, len) || memcmp(g->hi_hi, top, len)))
			return overlaps(si, g->hi_lo, g->hi_hi, "given earlier",
					why, whylen);
		if (!g->set_checked || memcmp(lo, g->checked_lo, len) < 0) {
			err = check_set(g, c, si, lo, top, why, whylen);
			if (err)
				return err;
		}
		if (!g->have_open || memcmp(lo, g->open_lo, len) < 0)
			memcpy(g->open_lo, lo, len);
		g->have_open = 1;
	}
	if (!g->have_hi || memcmp(hi, g->hi_hi, len) > 0) {
		memcpy(g->hi_lo, lo, len);
		memcpy(g->hi_hi, hi, len);
	}
	g->have_hi = 1;
	return 0;
}
