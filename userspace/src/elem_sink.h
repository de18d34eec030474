/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_SINK_H
#define NFTLAB_ELEM_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "elem_check.h"
#include "elem_write.h"
#include "ivl.h"

/*
 * Where element add, create and del put each element they read: first
 * the checks (elem_check.h), completely, then the writer (elem_write.h),
 * or for an auto-merge set the intervals collected for the merge
 * (elem_merge.c writes what they merge into).  So the writer is reached
 * only by elements that passed, and calls nothing back up.
 */
struct ctx;

struct elem_sink {
	struct elem_check chk;
	struct elem_writer w;
	struct ivl *merge;	/* auto-merge: collected here, not written */
};

/* merge: the auto-merge set's intervals go there; NULL: written */
void sink_init(struct elem_sink *s, struct ctx *c, struct txn *t,
	       const struct setinfo *si, uint16_t type, uint16_t flags,
	       struct ivl *merge);
/* -EINVAL with the reason in why; -EMSGSIZE: beyond --max-batch */
int sink_collect(struct elem_sink *s, const struct elem *el, char *why,
		 size_t whylen);

/* One element, numbered in s->w whether it is taken or not. */
static inline int sink_add(struct elem_sink *s, const struct elem *el,
			   char *why, size_t whylen)
{
	int err;

	if (s->merge) {
		err = sink_collect(s, el, why, whylen);
	} else {
		err = ec_check(&s->chk, el, why, whylen);
		if (!err)
			err = ew_add(&s->w, el);
	}
	s->w.nelem++;
	return err;
}

#endif
