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
 * the set that change are deleted and the merged ones added.  What a set
 * holds is asked from the kernel once per run and then followed through
 * the transaction (a script's set add, element add, del, set flush, set
 * del, table del, ruleset flush).
 *
 * A command of its own writes its deletions and additions at once.  In a
 * script they wait for the end of the transaction (elem_merge_flush()):
 * the kernel cannot delete an interval that the same transaction added
 * (the start element of the new interval has the key of the deleted one,
 * and the rbtree finds the inactive one: ENOENT), and a later command may
 * merge what an earlier one added (10.0.0.0/24 in the set, then
 * 10.0.1.0/24, then 10.0.2.0/24).  So the script's transaction deletes
 * each interval of the set that changed once and adds the final merged
 * intervals once, as nft -f does.
 */
struct merge_ent {
	uint16_t family;
	char *table, *name;
	struct setinfo si;	/* the set (table and name: the copies above) */
	struct ivl cur;		/* the set's intervals at this point */
	/* -f: the intervals the kernel holds when the transaction's own
	 * writes of the set come: cur's changes to them wait until then */
	struct ivl base;
	int dirty;		/* cur differs from base */
	uint16_t flags;		/* NLM_F_* of the additions */
	/* the last command that changed cur: "FILE:LINE: " and its op */
	char *where, *op;
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
/* -f: the intervals that changed, deleted and added, into t */
int elem_merge_flush(struct ctx *c, struct txn *t);
/* set add (of a new auto-merge set) or set flush: the set is empty now
 * (key_len 0: not known yet) */
int merge_reg_empty(struct merge_reg *r, uint16_t family, const char *table,
		    const char *name, uint32_t key_len);
/* set del, table del (name NULL), ruleset flush (table NULL) */
void merge_reg_forget(struct merge_reg *r, uint16_t family, const char *table,
		      const char *name);
void merge_reg_free(struct merge_reg *r);

#endif
