// SPDX-License-Identifier: GPL-2.0
/* Each element: checked, then written or collected (elem_sink.h). */
#include <errno.h>

#include "cmd.h"
#include "elem_sink.h"

void sink_init(struct elem_sink *s, struct ctx *c, struct txn *t,
	       const struct setinfo *si, uint16_t type, uint16_t flags,
	       struct ivl *merge)
{
	ew_init(&s->w, t, si, type, flags);
	ec_init(&s->chk, c, si, type, merge ? EC_TO_MERGE : EC_GIVEN);
	s->w.map = &c->srcmap;
	s->w.nelem = c->srcmap.next;
	s->merge = merge;
}

/*
 * What a collected interval costs until the merge: its start and end,
 * and the sort entry (two pointers and a flag) ivl_merge() makes for it.
 * Counted with the batch against --max-batch: input that merges into
 * little (a stream of one address) writes nothing until the merge, and
 * would otherwise grow without bound.
 */
static size_t collect_cost(uint32_t key_len)
{
	return 2 * (size_t)key_len + 3 * sizeof(void *);
}

/*
 * The batch limit before the element's checks: an element that comes
 * when the limit is reached is refused for the limit, whatever else is
 * wrong with it (as when the writer collected and checked in one step).
 */
int sink_collect(struct elem_sink *s, const struct elem *el, char *why,
		 size_t whylen)
{
	size_t cost = collect_cost(s->w.si->kt.key_len);
	struct txn *t = s->w.t;
	int err;

	if (txn_bytes(t) + (s->merge->n + 1) * cost > t->max_bytes)
		return -EMSGSIZE;
	err = ec_check(&s->chk, el, why, whylen);
	return err ? err : ivl_add(s->merge, el->key, el->key_end);
}
