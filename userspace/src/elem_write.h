/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_WRITE_H
#define NFTLAB_ELEM_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "elem.h"
#include "elem_enc.h"
#include "elem_src.h"
#include "setinfo.h"
#include "txn.h"

/*
 * Elements into a transaction (elem_write.c), streamed: each one is
 * serialised straight into NEWSETELEM/DELSETELEM messages of up to 60 KiB,
 * nothing per element is kept.  Encoding, as nft 1.0.6 sends it:
 *  - hash sets: NFTA_SET_ELEM_KEY;
 *  - concatenated interval sets (NFT_SET_CONCAT): KEY = range starts,
 *    KEY_END = range ends, also for single values;
 *  - single-field interval sets: the start element, then an element at
 *    end + 1 flagged NFT_SET_ELEM_INTERVAL_END (omitted when end is the
 *    largest value).
 * The bulk path (a key alone into a hash set) is inline here.
 *
 * The writer only encodes and batches: it takes elements that the checks
 * (elem_check.h) have passed, calls nothing above the encoder and the
 * transaction (elem_enc.c, txn.c, elem_src.c for where elements came
 * from), and refuses nothing but a batch beyond --max-batch.
 */

/* What an element becomes, by set type (see the comment at the top). */
enum ew_kind {
	EW_PLAIN,		/* hash sets: KEY */
	EW_CONCAT_INTERVAL,	/* KEY and KEY_END */
	EW_SINGLE_INTERVAL,	/* start, then end + 1 flagged INTERVAL_END */
};

/*
 * Serialises elements into a transaction, one message at a time.  What
 * depends on the set and the command only is worked out once, in
 * ew_init(), not per element.
 */
struct elem_writer {
	struct txn *t;
	const struct setinfo *si;
	uint16_t type, flags;
	enum ew_kind kind;
	int keep_data;		/* NEWSETELEM: map data is sent */
	int need_data;		/* ... and the set is a map: data required */
	int key_only;		/* elements without data go to ew_put_key() */
	uint32_t key_len;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	/*
	 * nlh's length from which ew_put_done() looks closer: the message is
	 * full (TXN_ELEM_MSG_LIMIT) or the batch may exceed --max-batch.
	 */
	uint32_t stop;
	uint64_t count;		/* element attributes written */
	/* elements numbered for c->srcmap (where they came from) */
	struct elem_srcmap *map;
	/* number of the element being written: the caller counts */
	uint64_t nelem;
	int in_end;		/* writing an interval's end attribute */
};

void ew_init(struct elem_writer *w, struct txn *t,
	     const struct setinfo *si, uint16_t type, uint16_t flags);
void ew_open(struct elem_writer *w);
int ew_close(struct elem_writer *w);
/* -EMSGSIZE: beyond --max-batch */
int ew_add_slow(struct elem_writer *w, const struct elem *el);

/* After an element is written: the batch limit, the end of a message. */
static inline int ew_put_done(struct elem_writer *w)
{
	if (w->nlh->nlmsg_len < w->stop) {
		w->count++;
		return 0;
	}
	if (txn_bytes(w->t) + w->nlh->nlmsg_len > w->t->max_bytes)
		return -EMSGSIZE;
	w->count++;
	if (w->nlh->nlmsg_len >= TXN_ELEM_MSG_LIMIT)
		return ew_close(w);
	return 0;
}

/* The bulk case: a key alone. */
static inline int ew_put_key(struct elem_writer *w, const uint8_t *key)
{
	if (!w->nlh)
		ew_open(w);
	elem_enc_key(w->nlh, key, w->key_len);
	return ew_put_done(w);
}

/*
 * An element the checks passed (elem_check.h).  A key alone into a hash
 * set, inline; anything else: ew_add_slow().
 */
static inline int ew_add(struct elem_writer *w, const struct elem *el)
{
	if (w->key_only && !el->is_range && !el->has_data && !el->timeout_ms)
		return ew_put_key(w, el->key);
	return ew_add_slow(w, el);
}


#endif
