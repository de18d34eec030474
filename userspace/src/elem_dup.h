/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_DUP_H
#define NFTLAB_ELEM_DUP_H

#include <stddef.h>

#include "elem_src.h"
#include "setinfo.h"
#include "txn.h"

/*
 * An element the kernel refused with EEXIST although the set does not
 * hold it: the element written earlier in the same transaction that it
 * duplicates or overlaps, found in the batch (an element message of the
 * same set before it).  Where both came from is looked up in m.
 */
struct elem_dup {
	int found;		/* an earlier element of the batch */
	int exact;		/* ... the same key (and range) */
	char earlier[256];	/* its text */
	char where_earlier[300];	/* "dup.txt:2", "" if unknown */
	char where[300];	/* the refused one: "dup.txt:7", "" if unknown */
};

void elem_dup_find(const struct elem_srcmap *m, const struct setinfo *si,
		   const struct txn_what *w, struct elem_dup *d);

#endif
