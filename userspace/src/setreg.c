// SPDX-License-Identifier: GPL-2.0
/* Sets known to a run (see setreg.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>

#include "setreg.h"

static int setreg_push(struct setreg *r, const struct setinfo *si, int gone)
{
	struct setreg_ent *e;
	char *table = NULL, *name = NULL;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		void *p = realloc(r->v, cap * sizeof(*r->v));

		if (!p)
			return -ENOMEM;
		r->v = p;
		r->cap = cap;
	}
	if ((si->table && !(table = strdup(si->table))) ||
	    (si->name && !(name = strdup(si->name)))) {
		free(table);
		return -ENOMEM;
	}
	e = &r->v[r->n++];
	e->gone = gone;
	e->si = *si;
	e->si.table = table;
	e->si.name = name;
	return 0;
}

int setreg_add(struct setreg *r, const struct setinfo *si)
{
	return setreg_push(r, si, 0);
}

int setreg_forget(struct setreg *r, uint16_t family, const char *table,
		  const char *name)
{
	struct setinfo si = { .family = family, .table = table, .name = name };

	return setreg_push(r, &si, 1);
}

int setreg_match(const struct setinfo *e, uint16_t family, const char *table,
		 const char *name)
{
	if (e->family != NFPROTO_UNSPEC && e->family != family)
		return 0;
	if (e->table && strcmp(e->table, table))
		return 0;
	return !e->name || !strcmp(e->name, name);
}

/* 1: known (out filled), 0: unknown, -ENOENT: deleted in this run */
int setreg_find(const struct setreg *r, uint16_t family, const char *table,
		const char *name, struct setinfo *out)
{
	for (size_t i = r->n; i-- > 0;) {
		const struct setreg_ent *e = &r->v[i];

		if (!setreg_match(&e->si, family, table, name))
			continue;
		if (e->gone)
			return -ENOENT;
		*out = e->si;
		return 1;
	}
	return 0;
}

void setreg_free(struct setreg *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free((char *)r->v[i].si.table);
		free((char *)r->v[i].si.name);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}
