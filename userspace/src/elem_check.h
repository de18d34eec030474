/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_CHECK_H
#define NFTLAB_ELEM_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "elem.h"
#include "elem_open.h"
#include "setinfo.h"

/*
 * Everything that can refuse an element of element add, create or del,
 * run to its end before the element reaches the writer (elem_write.h),
 * which then only encodes it: map data present, jump and goto targets
 * (chain_target.c), element timeouts, ranges in sets without intervals,
 * intervals against the intervals open to the top (elem_open.c), and
 * what an auto-merge set does not take.  It also follows what the
 * transaction does to the set's open interval (element del), as that
 * decides later checks.
 *
 * Per element, not per command: elements stream from a file or stdin
 * into the batch and are not kept (nftlab.8, Limits), so a command's
 * elements cannot all be checked before the first is written.  Nothing
 * is sent until the command (or the script) commits, and a refusal
 * aborts the transaction, so a refused input still sends nothing.
 */
struct ctx;

/* Where the elements come from, which decides what is checked. */
enum ec_input {
	EC_GIVEN,	/* given: written as they are */
	EC_TO_MERGE,	/* given into an auto-merge set: collected, merged */
	EC_MERGED,	/* auto-merge's result, merged with all of the set:
			 * not checked against its open interval again */
};

/* The checks of one command's elements into one set. */
struct elem_check {
	struct ctx *c;
	const struct setinfo *si;
	enum ec_input input;
	int adding;		/* NEWSETELEM: data and timeouts are sent */
	int need_data;		/* ... and the set is a map: data required */
	int single_interval;	/* single-field interval set */
	/* a key alone (no data, range or timeout) passes every check */
	int keys_pass;
	char target[256];	/* the last jump target checked, "" none */
	struct open_guard open;	/* element add|create, single intervals */
};

void ec_init(struct elem_check *k, struct ctx *c, const struct setinfo *si,
	     uint16_t type, enum ec_input input);
/*
 * 0; -EINVAL (the input is refused) or OPEN_GUARD_QUERY_FAILED (a query
 * failed, elem_open.h) with the reason in why; other errors as negative
 * errno
 */
int ec_check_slow(struct elem_check *k, const struct elem *el, char *why,
		  size_t whylen);

/* The bulk case, a key alone into a set that takes it, inline. */
static inline int ec_check(struct elem_check *k, const struct elem *el,
			   char *why, size_t whylen)
{
	if (k->keys_pass && !el->is_range && !el->has_data && !el->timeout_ms)
		return 0;
	return ec_check_slow(k, el, why, whylen);
}

#endif
