// SPDX-License-Identifier: GPL-2.0
/* set sync: the file's elements, indexed by key (sync_tab.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* murmur3's 64-bit finaliser: every key bit reaches every hash bit */
static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	return k ^ (k >> 33);
}

static uint64_t key_hash(const uint8_t *key, uint32_t len)
{
	uint64_t h = len;

	while (len >= 8) {
		uint64_t w;

		memcpy(&w, key, 8);
		h = mix64(h ^ w);
		key += 8;
		len -= 8;
	}
	if (len) {
		uint64_t w = 0;

		memcpy(&w, key, len);
		h = mix64(h ^ w);
	}
	return h;
}

static uint32_t slot_rec(uint64_t slot)
{
	return (uint32_t)slot;
}

/* the slot of key (hash h): its record, or the empty slot to put it in */
static size_t slot_of(const struct sync_tab *t, const uint8_t *key,
		      uint64_t h)
{
	uint64_t tag = h >> 32 << 32;
	size_t i = (size_t)h & t->mask;

	while (t->idx[i] && ((t->idx[i] & ~0xffffffffULL) != tag ||
			     memcmp(sync_rec(t, slot_rec(t->idx[i]) - 1), key,
				    t->klen)))
		i = (i + 1) & t->mask;
	return i;
}

/*
 * The index is an anonymous mapping (zeroed by the kernel) with huge pages
 * advised: its slots are read in random order, and with 4 KiB pages a
 * table of 16 MB misses the TLB on nearly every lookup.
 */
static uint64_t *idx_alloc(size_t slots)
{
	void *p = mmap(NULL, slots * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (slots * sizeof(uint64_t) >= 2 * 1024 * 1024)
		madvise(p, slots * sizeof(uint64_t), MADV_HUGEPAGE);	/* a hint */
	return p;
}

static void idx_free(uint64_t *idx, size_t slots)
{
	if (idx)
		munmap(idx, slots * sizeof(uint64_t));
}

void sync_tab_free(struct sync_tab *t)
{
	for (size_t i = 0; i < t->nchains; i++)
		free(t->chains[i]);
	free(t->chains);
	free(t->recs);
	idx_free(t->idx, t->mask + 1);
	memset(t, 0, sizeof(*t));
}

static int index_resize(struct sync_tab *t, size_t slots)
{
	uint64_t *old = t->idx;
	size_t old_slots = t->mask ? t->mask + 1 : 0;

	t->idx = idx_alloc(slots);
	if (!t->idx) {
		t->idx = old;
		return -ENOMEM;
	}
	t->mask = slots - 1;
	for (size_t i = 0; i < old_slots; i++) {
		uint64_t h;
		size_t k;

		if (!old[i])
			continue;
		h = key_hash(sync_rec(t, slot_rec(old[i]) - 1), t->klen);
		for (k = (size_t)h & t->mask; t->idx[k]; k = (k + 1) & t->mask)
			;
		t->idx[k] = old[i];
	}
	idx_free(old, old_slots);
	return 0;
}

/* at most 70 % of the slots in use: short probe sequences */
static int index_room(struct sync_tab *t, size_t n)
{
	size_t slots = t->mask ? t->mask + 1 : 1024;

	if (n >= UINT32_MAX - 1)
		return -ENOMEM;
	while (n > slots / 10 * 7)
		slots *= 2;
	if (t->idx && slots == t->mask + 1)
		return 0;
	return index_resize(t, slots);
}

static int recs_room(struct sync_tab *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 1024;
	void *p;

	while (cap < n)
		cap *= 2;
	if (cap == t->cap)
		return 0;
	p = realloc(t->recs, cap * t->rsize);
	if (!p)
		return -ENOMEM;
	t->recs = p;
	t->cap = cap;
	return 0;
}

int sync_tab_expect(struct sync_tab *t, size_t n)
{
	int err = index_room(t, n);

	return err ? err : recs_room(t, n);
}

int sync_tab_put(struct sync_tab *t, const uint8_t *key, uint8_t **rec)
{
	uint64_t h = key_hash(key, t->klen);
	size_t slot;
	int err;

	err = index_room(t, t->n + 1);
	if (!err)
		err = recs_room(t, t->n + 1);
	if (err)
		return err;
	slot = slot_of(t, key, h);
	if (t->idx[slot]) {
		*rec = sync_rec(t, slot_rec(t->idx[slot]) - 1);
		return 1;
	}
	*rec = sync_rec(t, t->n);
	memset(*rec, 0, t->rsize);
	memcpy(*rec, key, t->klen);
	t->n++;
	t->idx[slot] = (h >> 32 << 32) | (uint64_t)t->n;
	return 0;
}

uint8_t *sync_tab_find(const struct sync_tab *t, const uint8_t *key)
{
	size_t slot;

	if (!t->idx)
		return NULL;
	slot = slot_of(t, key, key_hash(key, t->klen));
	return t->idx[slot] ? sync_rec(t, slot_rec(t->idx[slot]) - 1) : NULL;
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
