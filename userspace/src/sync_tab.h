/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_SYNC_TAB_H
#define NFTLAB_SYNC_TAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * set sync: the elements a file asks for, as fixed-size records in file
 * order (intervals: in order of their start) with an open-addressing
 * index on the key, so that each element the kernel dumps is looked up
 * once and nothing of the dump is kept.
 *
 * A record is [key][data][timeout][state]:
 *  - key: klen bytes, the key (hash sets), or start and end (interval
 *    sets: two keys);
 *  - data: dlen bytes, a map's value, or for verdict maps the verdict
 *    and the number of its chain name (sync_tab_chain());
 *  - timeout: 8 bytes (host order) in sets with timeouts, the element's
 *    own timeout in ms, 0: the set's;
 *  - state: what the dump found (enum sync_state).
 * The index holds, per slot, the record number + 1 (0: empty) and 32 bits
 * of the key's hash, so that a lookup reads a record only when the hash
 * bits match: one cache miss per element on a large table instead of
 * two.  At most 70 % of the slots are used; sync_tab_expect() sizes the
 * index from the file's size first, as growing it rehashes everything.
 * An IPv4 hash set costs 5 bytes per record and 11 to 23 of index.
 */
enum sync_state {
	SYNC_NEW = 0,	/* not in the set (so far): added */
	SYNC_STAY,	/* in the set as asked: kept (timeout renewed) */
	SYNC_REPLACE,	/* in the set with other data or timeout: deleted,
			 * added again */
	SYNC_RETIME,	/* in the set with another timeout: added again,
			 * which the kernel takes as a timeout update */
};

struct sync_tab {
	uint32_t klen, dlen;
	uint32_t tmo_off;	/* 0: no timeouts */
	uint32_t rsize;
	uint8_t *recs;
	size_t n, cap;		/* records */
	uint64_t *idx;		/* hash bits << 32 | record number + 1 */
	size_t mask;		/* index slots - 1 */
	char **chains;		/* verdict maps: jump/goto targets, by number */
	size_t nchains, capchains;
};

void sync_tab_init(struct sync_tab *t, uint32_t klen, uint32_t dlen,
		   int timeouts);
void sync_tab_free(struct sync_tab *t);
/* room for about n records (a hint; -ENOMEM) */
int sync_tab_expect(struct sync_tab *t, size_t n);
/*
 * The record of key, added if new (data, timeout and state zero): *rec,
 * and 1 if it was there already, 0 if new; -ENOMEM.
 */
int sync_tab_put(struct sync_tab *t, const uint8_t *key, uint8_t **rec);
uint8_t *sync_tab_find(const struct sync_tab *t, const uint8_t *key);
/* every record's state back to SYNC_NEW (another attempt) */
void sync_tab_reset(struct sync_tab *t);
/* the number of chain name, added if new (1, 2, ...); -ENOMEM */
int sync_tab_chain(struct sync_tab *t, const char *name, uint32_t *num,
		   int *added);
const char *sync_tab_chain_name(const struct sync_tab *t, uint32_t num);

static inline uint8_t *sync_rec(const struct sync_tab *t, size_t i)
{
	return t->recs + i * t->rsize;
}

static inline uint8_t *sync_rec_data(const struct sync_tab *t, uint8_t *r)
{
	return r + t->klen;
}

static inline uint64_t sync_rec_tmo(const struct sync_tab *t,
				    const uint8_t *r)
{
	uint64_t v = 0;

	if (t->tmo_off)
		memcpy(&v, r + t->tmo_off, sizeof(v));
	return v;
}

static inline void sync_rec_set_tmo(const struct sync_tab *t, uint8_t *r,
				    uint64_t v)
{
	if (t->tmo_off)
		memcpy(r + t->tmo_off, &v, sizeof(v));
}

static inline uint8_t *sync_rec_state(const struct sync_tab *t, uint8_t *r)
{
	return r + t->rsize - 1;
}

#endif
