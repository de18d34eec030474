/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_LIST_H
#define NFTLAB_ELEM_LIST_H

#include <stdint.h>

#include "elem.h"
#include "setinfo.h"

/*
 * One element of a set as the kernel dumps it; single-field interval sets
 * hold a range as two of them, a start and an end element at end + 1
 * (is_end).  As a listed element (elem_item_fn), key..key_end is the
 * range, key_end == key for a single value.
 */
struct elem_raw {
	uint8_t key[KT_MAX_KEY];
	uint8_t key_end[KT_MAX_KEY];
	int keyless;		/* no key of the set's type (catch-all) */
	int has_key_end;	/* NFTA_SET_ELEM_KEY_END (concatenated ranges) */
	int is_end;		/* NFT_SET_ELEM_INTERVAL_END */
	int has_data;
	struct elem_data data;	/* last member but for the scalars below */
	uint64_t timeout_ms;	/* 0: none of its own */
	uint64_t expire_ms;	/* 0: none */
	int has_counter;
	uint64_t packets, bytes;
	/* what nft would show but nftlab does not: a reason, else NULL */
	const char *unlisted;
};

struct nl;
struct ctx;

/* Every element of si as the kernel dumps it, to raw (one dump). */
typedef int (*elem_raw_fn)(void *arg, const struct elem_raw *e);
int elem_dump(struct nl *nl, const struct setinfo *si, elem_raw_fn raw,
	      void *arg);

/*
 * Dumped elements to listed ones: a start and the neighbouring end of a
 * single-field interval set are one range (in either order); a start
 * without an end runs to the largest value; an end without a start (nft's
 * "0 end" marker) is no element.
 */
typedef int (*elem_item_fn)(void *arg, const struct elem_raw *item);
struct elem_pairer {
	const struct setinfo *si;
	elem_item_fn item;
	void *arg;
	int have;		/* p is a held single-interval element */
	struct elem_raw p;
};
void elem_pair_init(struct elem_pairer *pr, const struct setinfo *si,
		    elem_item_fn item, void *arg);
int elem_pair_push(struct elem_pairer *pr, const struct elem_raw *e);
int elem_pair_flush(struct elem_pairer *pr);

/* element list FAMILY TABLE SET [--json] */
int elem_list(struct ctx *c, const struct setinfo *si, int json);

/* elem_walk(): each element's key range, end = start for single values */
typedef void (*elem_visit_fn)(void *arg, const uint8_t *start,
			      const uint8_t *end);
int elem_walk(struct nl *nl, const struct setinfo *si, elem_visit_fn visit,
	      void *arg);

#endif
