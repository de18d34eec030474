// SPDX-License-Identifier: GPL-2.0
/* A set's elements in memory, in nft's listing order (elem_recs.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "elem_recs.h"

enum { REC_END = 1, REC_DATA = 2, REC_COUNTER = 4, REC_KEY_END = 8 };

struct rec {
	uint64_t timeout_ms, expire_ms, packets, bytes;
	char *chain;		/* jump/goto target, NULL */
	int32_t verdict;
	uint8_t flags;
	uint8_t key[];		/* key, key end (concatenated ranges), data */
};

static struct rec *rec_at(const struct elem_recs *r, size_t i)
{
	return (struct rec *)(void *)(r->v + i * r->stride);
}

static size_t key_end_off(const struct setinfo *si)
{
	return setinfo_is_concat_interval(si) ? si->kt.key_len : 0;
}

static int rec_add(void *arg, const struct elem_raw *e)
{
	struct elem_recs *r = arg;
	const struct keytype *kt = &r->si->kt;
	size_t ke = key_end_off(r->si);
	struct rec *x;

	if (e->unlisted && !r->unlisted)
		r->unlisted = e->unlisted;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		void *p = realloc(r->v, cap * r->stride);

		if (!p)
			return -ENOMEM;
		r->v = p;
		r->cap = cap;
	}
	x = rec_at(r, r->n);
	memset(x, 0, r->stride);
	x->timeout_ms = e->timeout_ms;
	x->expire_ms = e->expire_ms;
	x->packets = e->packets;
	x->bytes = e->bytes;
	x->verdict = e->data.verdict;
	x->flags = (uint8_t)((e->is_end ? REC_END : 0) |
			     (e->has_data ? REC_DATA : 0) |
			     (e->has_counter ? REC_COUNTER : 0) |
			     (e->has_key_end ? REC_KEY_END : 0));
	memcpy(x->key, e->key, kt->key_len);
	if (ke)
		memcpy(x->key + ke, e->key_end, kt->key_len);
	if (e->has_data && kt->dtype != KT_DATA_VERDICT)
		memcpy(x->key + kt->key_len + ke, e->data.value, kt->dlen);
	if (e->has_data && kt->dtype == KT_DATA_VERDICT &&
	    (e->data.verdict == NFT_JUMP || e->data.verdict == NFT_GOTO) &&
	    !(x->chain = strdup(e->data.chain)))
		return -ENOMEM;
	r->n++;
	return 0;
}

int elem_recs_collect(struct nl *nl, struct elem_recs *r,
		      const struct setinfo *si)
{
	size_t bytes = sizeof(struct rec) + si->kt.key_len + key_end_off(si) +
		       (si->kt.dtype == KT_DATA_VERDICT ? 0 : si->kt.dlen);

	memset(r, 0, sizeof(*r));
	r->si = si;
	r->stride = (bytes + 7) & ~(size_t)7;
	return elem_dump(nl, si, rec_add, r);
}

static int host_is_little(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 1;
}

/* The integer of len bytes at a and at b in host byte order, compared. */
static int cmp_host(const uint8_t *a, const uint8_t *b, size_t len)
{
	if (!host_is_little())
		return memcmp(a, b, len);
	for (size_t i = len; i-- > 0;)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Concatenated keys: the fields without padding as one host integer. */
static int cmp_concat(const struct keytype *kt, const uint8_t *a,
		      const uint8_t *b)
{
	uint8_t x[KT_MAX_KEY], y[KT_MAX_KEY];
	size_t n = 0;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		memcpy(x + n, a + kt->f[i].offset, kt->f[i].len);
		memcpy(y + n, b + kt->f[i].offset, kt->f[i].len);
		n += kt->f[i].len;
	}
	return cmp_host(x, y, n);
}

static int rec_cmp(const void *pa, const void *pb, void *arg)
{
	const struct setinfo *si = arg;
	const struct keytype *kt = &si->kt;
	const struct rec *a = pa, *b = pb;
	int ret;

	if (kt->nfields > 1)
		return cmp_concat(kt, a->key, b->key);
	/* a host-endian value (a mark) outside interval sets */
	if (keytype_field_byteorder(kt->f[0].type) == KT_HOST_ENDIAN &&
	    !kt->interval)
		return cmp_host(a->key, b->key, kt->key_len);
	ret = memcmp(a->key, b->key, kt->key_len);
	if (ret || (a->flags & REC_END) == (b->flags & REC_END))
		return ret;
	return a->flags & REC_END ? -1 : 1;	/* an end first, as nft */
}

void elem_recs_sort(struct elem_recs *r)
{
	if (setinfo_is_concat_interval(r->si) || r->n < 2)
		return;		/* nft keeps the kernel's order */
	qsort_r(r->v, r->n, r->stride, rec_cmp, (void *)r->si);
}

static void rec_raw(const struct elem_recs *r, const struct rec *x,
		    struct elem_raw *e)
{
	const struct keytype *kt = &r->si->kt;
	size_t ke = key_end_off(r->si);

	memset(e, 0, offsetof(struct elem_raw, data));
	e->is_end = !!(x->flags & REC_END);
	e->has_data = !!(x->flags & REC_DATA);
	e->has_counter = !!(x->flags & REC_COUNTER);
	e->has_key_end = !!(x->flags & REC_KEY_END);
	memcpy(e->key, x->key, kt->key_len);
	if (ke)
		memcpy(e->key_end, x->key + ke, kt->key_len);
	e->data.verdict = x->verdict;
	e->data.chain[0] = '\0';
	if (x->chain)
		snprintf(e->data.chain, sizeof(e->data.chain), "%s", x->chain);
	if (e->has_data && kt->dtype != KT_DATA_VERDICT)
		memcpy(e->data.value, x->key + kt->key_len + ke, kt->dlen);
	e->timeout_ms = x->timeout_ms;
	e->expire_ms = x->expire_ms;
	e->packets = x->packets;
	e->bytes = x->bytes;
	e->unlisted = NULL;
}

int elem_recs_replay(const struct elem_recs *r, elem_item_fn item, void *arg)
{
	struct elem_pairer pr;
	struct elem_raw e;
	int err = 0;

	elem_pair_init(&pr, r->si, item, arg);
	for (size_t i = 0; !err && i < r->n; i++) {
		rec_raw(r, rec_at(r, i), &e);
		err = elem_pair_push(&pr, &e);
	}
	return err ? err : elem_pair_flush(&pr);
}

void elem_recs_free(struct elem_recs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(rec_at(r, i)->chain);
	free(r->v);
	memset(r, 0, sizeof(*r));
}
