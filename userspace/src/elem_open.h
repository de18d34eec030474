/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_OPEN_H
#define NFTLAB_ELEM_OPEN_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "keytype.h"

/*
 * Intervals open to the top of their type, checked before sending.
 *
 * A single-field interval set holds [start, end] as a start element and
 * an end element at end + 1.  When end is the largest value of the type
 * (0.0.0.0/0, 9.0.0.0-255.255.255.255, 0-65535) end + 1 does not exist,
 * so the interval is its start element alone, as nft sends it.  Kernels
 * that lack upstream's open-interval check accept such a start element
 * even where it overlaps the set (6.12.117, 6.18 and 7.3.4 do:
 * tests/reliability/open-interval.c): the set then holds neither what it
 * held nor what was asked (10.1.0.0/16 plus 0.0.0.0/0 becomes
 * 0.0.0.0-10.0.255.255 and 10.1.0.0/16).  nft refuses such an overlap in
 * userspace; so does nftlab, here, against the set as the kernel holds it
 * and against the intervals given earlier in the same command.  Closed
 * intervals are left to the kernel, which checks them (EEXIST, named by
 * cmd_report.c), except where they reach an interval open to the top
 * (below).  An interval equal to one in the set or given earlier is left
 * to the kernel too: element add takes it, element create refuses.
 */
struct ctx;
struct setinfo;

/*
 * The interval open to the top that a single-field interval set holds at
 * this point of the transaction (at most one: two open intervals always
 * overlap).  It is its start element alone, so the kernel does not see a
 * value or a closed interval that reaches it as an overlap: it skips a
 * start element equal to the open one's and inserts the new end element,
 * which cuts the open interval short (1000-65535 plus 1000-2000 becomes
 * 1000-2000; 0.0.0.0/0 plus 0.0.0.0 becomes 0.0.0.0).  nft refuses such
 * an element; so does nftlab, against this record.  It is asked from the
 * kernel once per set and transaction (the element holding the largest
 * key, one GETSETELEM), then followed through a script: element add and
 * del, set add of a new set, set flush, set del, table del, ruleset
 * flush.  auto-merge sets do not need it: they merge against all of the
 * set's intervals (elem_merge.h).
 */
struct open_ent {
	uint16_t family;
	char *table, *name;
	int has_open;			/* the set holds [start, top] */
	int from_txn;			/* ... given earlier in this transaction */
	uint8_t start[KT_MAX_KEY];
};

struct open_reg {
	struct open_ent *v;
	size_t n, cap;
};

/* set add of a new set, set flush: no open interval now */
int open_reg_empty(struct open_reg *r, uint16_t family, const char *table,
		   const char *name);
/* set del, table del (name NULL), ruleset flush (table NULL) */
void open_reg_forget(struct open_reg *r, uint16_t family, const char *table,
		     const char *name);
void open_reg_free(struct open_reg *r);

struct open_guard {
	int have_open;			/* an open interval given */
	uint8_t open_lo[KT_MAX_KEY];	/* the lowest start of those */
	int have_hi;			/* an interval given */
	uint8_t hi_lo[KT_MAX_KEY];	/* the one with the highest end */
	uint8_t hi_hi[KT_MAX_KEY];
	int set_checked;		/* the set was walked for this command */
	uint8_t checked_lo[KT_MAX_KEY];	/* ... for an open interval from here */
	struct open_ent *ent;		/* the set's open interval, once asked */
};

/*
 * The interval [lo, hi] (open: hi is the top of the type) of an element
 * add or create: 0, or -EINVAL with the interval it overlaps in why.
 * Any interval that reaches the open interval the set holds is refused.
 * c->nl asks the kernel for the set's elements (once per command, at the
 * first open interval).  In a script, an open interval into a set that an
 * earlier command of the transaction changed is refused: the set as the
 * kernel holds it is not what the transaction holds.  If the kernel does
 * not answer such a query, OPEN_GUARD_QUERY_FAILED, with the query and
 * its errno in why: the input is not refused (the caller reports it with
 * exit status 1, not 2), and nothing is sent.
 */
#define OPEN_GUARD_QUERY_FAILED (-ECOMM)

int open_guard_check(struct open_guard *g, struct ctx *c,
		     const struct setinfo *si, const uint8_t *lo,
		     const uint8_t *hi, int open, char *why, size_t whylen);
/* element del of [lo, top] (open) or of a closed interval: -ENOMEM or 0 */
int open_guard_del(struct ctx *c, const struct setinfo *si, int open);

#endif
