/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_RECS_H
#define NFTLAB_ELEM_RECS_H

#include <stddef.h>
#include <stdint.h>

#include "elem_list.h"

/*
 * A set's elements kept for listing them in nft's order (list set, list
 * table, list ruleset): one dump into compact records (about 56 bytes
 * per IPv4 element), sorted as nft 1.0.6 sorts them, then replayed
 * through an elem_pairer.  nft sorts single-field interval sets by key
 * (an interval end before a start at the same key) and sets without
 * intervals by value, concatenations as the integer their field bytes
 * form in host byte order; concatenated ranges keep the kernel's order.
 */
struct elem_recs {
	const struct setinfo *si;
	size_t stride;		/* bytes per record */
	size_t n, cap;
	uint8_t *v;
	const char *unlisted;	/* the first reason list cannot show one */
};

struct nl;
int elem_recs_collect(struct nl *nl, struct elem_recs *r,
		      const struct setinfo *si);
void elem_recs_sort(struct elem_recs *r);
int elem_recs_replay(const struct elem_recs *r, elem_item_fn item, void *arg);
void elem_recs_free(struct elem_recs *r);

#endif
