/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_SETREG_H
#define NFTLAB_SETREG_H

#include <stddef.h>
#include <stdint.h>

#include "setinfo.h"

/*
 * The sets a run knows about: declared earlier in the same transaction (an
 * -f script), or asked from the kernel once.  Deletions in the transaction
 * leave tombstones: a set, a table (name NULL) or a family (table NULL,
 * NFPROTO_UNSPEC: all).  Lookups scan newest first.
 */
struct setreg_ent {
	int gone;		/* tombstone */
	struct setinfo si;	/* strings owned by the entry */
};

struct setreg {
	struct setreg_ent *v;
	size_t n, cap;
};

int setreg_add(struct setreg *r, const struct setinfo *si);
int setreg_forget(struct setreg *r, uint16_t family, const char *table,
		  const char *name);
int setreg_find(const struct setreg *r, uint16_t family, const char *table,
		const char *name, struct setinfo *out);
void setreg_free(struct setreg *r);
/* Whether the set family/table/name is one that PATTERN names: a set, a
 * table (name NULL) or a family (table NULL, NFPROTO_UNSPEC: all). */
int setreg_match(const struct setinfo *pattern, uint16_t family,
		 const char *table, const char *name);

#endif
