/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_IVL_H
#define NFTLAB_IVL_H

#include <stddef.h>
#include <stdint.h>

#include "keytype.h"

/*
 * Intervals [start, end] of a single-field interval set (keys in the
 * set's byte order, compared as big-endian bytes), for auto-merge: no
 * netlink here.
 */
struct ivl {
	uint32_t len;		/* key bytes */
	size_t n, cap;
	uint8_t *v;		/* n pairs: start, end (2 * len bytes each) */
};

void ivl_init(struct ivl *l, uint32_t len);
int ivl_add(struct ivl *l, const uint8_t *start, const uint8_t *end);
static inline const uint8_t *ivl_start(const struct ivl *l, size_t i)
{
	return l->v + i * 2 * l->len;
}
static inline const uint8_t *ivl_end(const struct ivl *l, size_t i)
{
	return l->v + i * 2 * l->len + l->len;
}
/* the interval exactly; 0: removed, -ENOENT: not there */
int ivl_remove(struct ivl *l, const uint8_t *start, const uint8_t *end);

/*
 * Auto-merge, as nft 1.0.6 does it: the intervals of add that overlap or
 * touch each other or those of cur become one, with the intervals of cur
 * they overlap or touch.  Those of cur that change go to del, the new
 * intervals to put; cur becomes the merged set.  Intervals of cur that
 * no new one reaches stay as they are; one inside an interval of cur
 * changes nothing.
 */
int ivl_merge(struct ivl *cur, const struct ivl *add, const struct keytype *kt,
	      struct ivl *del, struct ivl *put);
void ivl_free(struct ivl *l);
/* a copy of src into dst (initialised): 0 or -ENOMEM */
int ivl_copy(struct ivl *dst, const struct ivl *src);
/* sorted by start (the intervals of a set do not overlap) */
void ivl_sort(struct ivl *l);
/* the intervals of a (sorted) that b (sorted) does not hold as they are */
int ivl_diff(const struct ivl *a, const struct ivl *b, struct ivl *out);

#endif
