// SPDX-License-Identifier: GPL-2.0
/* The checks of an element before it is written (elem_check.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "chain_target.h"
#include "elem_check.h"

void ec_init(struct elem_check *k, struct ctx *c, const struct setinfo *si,
	     uint16_t type, enum ec_input input)
{
	memset(k, 0, sizeof(*k));
	k->c = c;
	k->si = si;
	k->input = input;
	k->adding = type == NFT_MSG_NEWSETELEM;
	k->need_data = si->kt.dtype && k->adding;
	k->single_interval = setinfo_is_single_interval(si);
	k->keys_pass = input != EC_TO_MERGE && !k->need_data &&
		       !k->single_interval;
}

/* auto-merge: what cannot survive the merge of the set's intervals */
static int check_to_merge(const struct elem *el, char *why, size_t whylen)
{
	if (el->timeout_ms) {
		snprintf(why, whylen, "element timeout in an auto-merge set "
			 "(give the set a --timeout)");
		return -EINVAL;
	}
	if (el->has_data) {
		snprintf(why, whylen, "map data in an auto-merge set");
		return -EINVAL;
	}
	return 0;
}

/* A jump or goto, checked once per run of elements with the same target. */
static int check_target(struct elem_check *k, const struct elem_data *d,
			char *why, size_t whylen)
{
	int err;

	if (!d || (d->verdict != NFT_JUMP && d->verdict != NFT_GOTO) ||
	    k->si->kt.dtype != KT_DATA_VERDICT || !strcmp(k->target, d->chain))
		return 0;
	err = chain_target_check(k->c, k->si->family, k->si->table, d->chain,
				 why, whylen);
	if (err)
		return err;
	snprintf(k->target, sizeof(k->target), "%s", d->chain);
	return 0;
}

/*
 * A single-field interval: added, against the open intervals (unless it
 * is auto-merge's result, merged with all of the set); deleted, the
 * open interval the transaction leaves.
 */
static int check_interval(struct elem_check *k, const struct elem *el,
			  char *why, size_t whylen)
{
	uint8_t next[KT_MAX_KEY];
	int open = !!elem_key_inc(&k->si->kt, el->key_end, next);

	if (k->adding && k->input != EC_MERGED)
		return open_guard_check(&k->open, k->c, k->si, el->key,
					el->key_end, open, why, whylen);
	if (!k->adding)
		return open_guard_del(k->c, k->si, open);
	return 0;
}

int ec_check_slow(struct elem_check *k, const struct elem *el, char *why,
		  size_t whylen)
{
	const struct elem_data *d = el->has_data && k->adding ?
		&el->data : NULL;
	int err;

	if (k->input == EC_TO_MERGE)
		return check_to_merge(el, why, whylen);
	if (k->need_data && !d) {
		snprintf(why, whylen, "map element without ' : DATA'");
		return -EINVAL;
	}
	err = check_target(k, d, why, whylen);
	if (err)
		return err;
	if (el->timeout_ms && k->adding &&
	    !(k->si->flags & NFT_SET_TIMEOUT)) {
		snprintf(why, whylen, "element timeout in a set without the "
			 "timeout flag (set add --flags timeout, or --timeout)");
		return -EINVAL;
	}
	if (k->single_interval)
		return check_interval(k, el, why, whylen);
	if (el->is_range && !setinfo_is_concat_interval(k->si)) {
		snprintf(why, whylen, "ranges need a set with flags interval");
		return -EINVAL;
	}
	return 0;
}
