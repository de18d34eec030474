// SPDX-License-Identifier: GPL-2.0
/* Intervals of a single-field interval set, and auto-merge (ivl.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "ivl.h"

void ivl_init(struct ivl *l, uint32_t len)
{
	memset(l, 0, sizeof(*l));
	l->len = len;
}

int ivl_add(struct ivl *l, const uint8_t *start, const uint8_t *end)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		void *p = realloc(l->v, cap * 2 * l->len);

		if (!p)
			return -ENOMEM;
		l->v = p;
		l->cap = cap;
	}
	memcpy(l->v + l->n * 2 * l->len, start, l->len);
	memcpy(l->v + l->n * 2 * l->len + l->len, end, l->len);
	l->n++;
	return 0;
}

int ivl_remove(struct ivl *l, const uint8_t *start, const uint8_t *end)
{
	for (size_t i = 0; i < l->n; i++) {
		if (memcmp(ivl_start(l, i), start, l->len) ||
		    memcmp(ivl_end(l, i), end, l->len))
			continue;
		memmove(l->v + i * 2 * l->len, l->v + (i + 1) * 2 * l->len,
			(l->n - i - 1) * 2 * l->len);
		l->n--;
		return 0;
	}
	return -ENOENT;
}

void ivl_free(struct ivl *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* One interval of cur or add, sorted by start for the sweep. */
struct ivl_ent {
	const uint8_t *start, *end;
	int is_new;
};

static int ent_cmp(const void *a, const void *b, void *arg)
{
	const struct ivl_ent *x = a, *y = b;

	return memcmp(x->start, y->start, *(const uint32_t *)arg);
}

static struct ivl_ent *ents_sorted(const struct ivl *cur, const struct ivl *add)
{
	size_t n = cur->n + add->n, k = 0;
	struct ivl_ent *e = calloc(n ? n : 1, sizeof(*e));

	if (!e)
		return NULL;
	for (size_t i = 0; i < cur->n; i++, k++)
		e[k] = (struct ivl_ent){ ivl_start(cur, i), ivl_end(cur, i), 0 };
	for (size_t i = 0; i < add->n; i++, k++)
		e[k] = (struct ivl_ent){ ivl_start(add, i), ivl_end(add, i), 1 };
	qsort_r(e, n, sizeof(*e), ent_cmp, (void *)&cur->len);
	return e;
}

/* e starts inside [.., end] or right after it */
static int reaches(const struct keytype *kt, const uint8_t *end,
		   const struct ivl_ent *e, uint32_t len)
{
	uint8_t next[KT_MAX_KEY];

	if (elem_key_inc(kt, end, next))
		return 1;	/* end is the largest value */
	return memcmp(e->start, next, len) <= 0;
}

/*
 * One group of touching intervals, e[0..n): with a new one among them it
 * becomes [e[0].start, end] unless that is an interval of cur already.
 */
static int group_done(const struct ivl_ent *e, size_t n, const uint8_t *end,
		      struct ivl *next, struct ivl *del, struct ivl *put)
{
	uint32_t len = next->len;
	int has_new = 0, err = 0;

	for (size_t i = 0; i < n; i++)
		has_new |= e[i].is_new;
	if (!has_new) {
		for (size_t i = 0; !err && i < n; i++)
			err = ivl_add(next, e[i].start, e[i].end);
		return err;
	}
	for (size_t i = 0; i < n; i++) {
		if (!e[i].is_new && !memcmp(e[i].start, e[0].start, len) &&
		    !memcmp(e[i].end, end, len))
			return ivl_add(next, e[i].start, e[i].end);
	}
	for (size_t i = 0; !err && i < n; i++)
		if (!e[i].is_new)
			err = ivl_add(del, e[i].start, e[i].end);
	if (!err)
		err = ivl_add(put, e[0].start, end);
	return err ? err : ivl_add(next, e[0].start, end);
}

int ivl_merge(struct ivl *cur, const struct ivl *add, const struct keytype *kt,
	      struct ivl *del, struct ivl *put)
{
	struct ivl_ent *e = ents_sorted(cur, add);
	size_t n = cur->n + add->n, g = 0;
	uint8_t end[KT_MAX_KEY];
	struct ivl next;
	int err = 0;

	if (!e)
		return -ENOMEM;
	ivl_init(&next, cur->len);
	for (size_t i = 0; !err && i < n; i++) {
		if (i > g && !reaches(kt, end, &e[i], cur->len)) {
			err = group_done(e + g, i - g, end, &next, del, put);
			g = i;
		}
		if (i == g || memcmp(e[i].end, end, cur->len) > 0)
			memcpy(end, e[i].end, cur->len);
	}
	if (!err && n)
		err = group_done(e + g, n - g, end, &next, del, put);
	free(e);
	if (err) {
		ivl_free(&next);
		return err;
	}
	ivl_free(cur);
	*cur = next;
	return 0;
}

int ivl_copy(struct ivl *dst, const struct ivl *src)
{
	ivl_init(dst, src->len);
	for (size_t i = 0; i < src->n; i++)
		if (ivl_add(dst, ivl_start(src, i), ivl_end(src, i)))
			return -ENOMEM;
	return 0;
}

static int pair_cmp(const void *a, const void *b, void *arg)
{
	return memcmp(a, b, *(const uint32_t *)arg);
}

void ivl_sort(struct ivl *l)
{
	if (l->n > 1)
		qsort_r(l->v, l->n, 2 * (size_t)l->len, pair_cmp, &l->len);
}

int ivl_diff(const struct ivl *a, const struct ivl *b, struct ivl *out)
{
	size_t j = 0;

	for (size_t i = 0; i < a->n; i++) {
		const uint8_t *s = ivl_start(a, i);

		while (j < b->n && memcmp(ivl_start(b, j), s, a->len) < 0)
			j++;
		if (j < b->n && !memcmp(ivl_start(b, j), s, a->len) &&
		    !memcmp(ivl_end(b, j), ivl_end(a, i), a->len))
			continue;
		if (ivl_add(out, s, ivl_end(a, i)))
			return -ENOMEM;
	}
	return 0;
}
