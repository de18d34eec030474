// SPDX-License-Identifier: GPL-2.0
/* set sync: the file's elements, indexed by key (sync_tab.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sync_tab.h"
#include "vec.h"

void sync_tab_init(struct sync_tab *t, uint32_t klen, uint32_t dlen,
		   int timeouts)
{
	memset(t, 0, sizeof(*t));
	t->klen = klen;
	t->dlen = dlen;
	t->tmo_off = timeouts ? klen + dlen : 0;
	t->rsize = klen + dlen + (timeouts ? 8 : 0) + 1;
}

void sync_tab_free(struct sync_tab *t)
{
	for (size_t i = 0; i < t->nchains; i++)
		free(t->chains[i]);
	free(t->chains);
	free(t->recs);
	free(t->idx);
	memset(t, 0, sizeof(*t));
}

/* 64-bit words multiplied and folded: keys are addresses, ports, marks */
static uint64_t key_hash(const uint8_t *key, uint32_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;

	while (len >= 8) {
		uint64_t w;

		memcpy(&w, key, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		key += 8;
		len -= 8;
	}
	if (len) {
		uint64_t w = 0;

		memcpy(&w, key, len);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
	}
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 32);
}

static size_t slot_of(const struct sync_tab *t, const uint8_t *key)
{
	size_t i = (size_t)key_hash(key, t->klen) & t->mask;

	while (t->idx[i] &&
	       memcmp(sync_rec(t, t->idx[i] - 1), key, t->klen))
		i = (i + 1) & t->mask;
	return i;
}

/* at most half the slots in use: short probe sequences */
static int index_grow(struct sync_tab *t)
{
	size_t slots = t->mask ? (t->mask + 1) * 2 : 1024;
	uint32_t *old = t->idx;
	size_t old_slots = t->mask ? t->mask + 1 : 0;

	if (t->n + 1 <= (t->mask + 1) / 2 && t->idx)
		return 0;
	if (t->n >= UINT32_MAX - 1)
		return -ENOMEM;
	t->idx = calloc(slots, sizeof(*t->idx));
	if (!t->idx) {
		t->idx = old;
		return -ENOMEM;
	}
	t->mask = slots - 1;
	for (size_t i = 0; i < old_slots; i++)
		if (old[i])
			t->idx[slot_of(t, sync_rec(t, old[i] - 1))] = old[i];
	free(old);
	return 0;
}

int sync_tab_put(struct sync_tab *t, const uint8_t *key, uint8_t **rec)
{
	size_t slot;
	int err;

	err = index_grow(t);
	if (err)
		return err;
	slot = slot_of(t, key);
	if (t->idx[slot]) {
		*rec = sync_rec(t, t->idx[slot] - 1);
		return 1;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		void *p = realloc(t->recs, cap * t->rsize);

		if (!p)
			return -ENOMEM;
		t->recs = p;
		t->cap = cap;
	}
	*rec = sync_rec(t, t->n);
	memset(*rec, 0, t->rsize);
	memcpy(*rec, key, t->klen);
	t->idx[slot] = (uint32_t)++t->n;
	return 0;
}

uint8_t *sync_tab_find(const struct sync_tab *t, const uint8_t *key)
{
	size_t slot;

	if (!t->idx)
		return NULL;
	slot = slot_of(t, key);
	return t->idx[slot] ? sync_rec(t, t->idx[slot] - 1) : NULL;
}

void sync_tab_reset(struct sync_tab *t)
{
	for (size_t i = 0; i < t->n; i++)
		*sync_rec_state(t, sync_rec(t, i)) = SYNC_NEW;
}

int sync_tab_chain(struct sync_tab *t, const char *name, uint32_t *num,
		   int *added)
{
	*added = 0;
	for (size_t i = 0; i < t->nchains; i++) {
		if (!strcmp(t->chains[i], name)) {
			*num = (uint32_t)i + 1;
			return 0;
		}
	}
	if (vec_grow((void **)&t->chains, &t->capchains, t->nchains,
		     sizeof(*t->chains)))
		return -ENOMEM;
	t->chains[t->nchains] = strdup(name);
	if (!t->chains[t->nchains])
		return -ENOMEM;
	*num = (uint32_t)++t->nchains;
	*added = 1;
	return 0;
}

const char *sync_tab_chain_name(const struct sync_tab *t, uint32_t num)
{
	return num && num <= t->nchains ? t->chains[num - 1] : "";
}
