/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_MERGE_H
#define NFTLAB_ELEM_MERGE_H

#include <stdint.h>

#include "ivl.h"
#include "setinfo.h"

/*
 * auto-merge sets (nft's auto-merge, single-field interval sets only):
 * element add and create merge their intervals with each other and with
 * those the set holds at that point of the transaction; the intervals of
 * the set that change are deleted and the merged ones added, in the same
 * transaction.  What a set holds is asked from the kernel once per run
 * and then followed through the transaction (a script's set add, element
 * add, del, set flush, set del, table del, ruleset flush).
 */
struct merge_ent {
	uint16_t family;
	char *table, *name;
	struct ivl cur;		/* the set's intervals at this point */
};

struct merge_reg {
	struct merge_ent *v;
	size_t n, cap;
};

struct ctx;
struct txn;

int elem_merge_uses(const struct setinfo *si);
/* element add|create (NEWSETELEM) or del of the collected intervals */
int elem_merge_write(struct ctx *c, struct txn *t, const struct setinfo *si,
		     uint16_t type, uint16_t flags, const struct ivl *in);
/* set add (of an auto-merge set) or set flush: the set is empty now
 * (key_len 0: not known yet) */
int merge_reg_empty(struct merge_reg *r, uint16_t family, const char *table,
		    const char *name, uint32_t key_len);
/* set del, table del (name NULL), ruleset flush (table NULL) */
void merge_reg_forget(struct merge_reg *r, uint16_t family, const char *table,
		      const char *name);
void merge_reg_free(struct merge_reg *r);

#endif
