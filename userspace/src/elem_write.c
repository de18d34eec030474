// SPDX-License-Identifier: GPL-2.0
/* Elements into a transaction (elem_write.h). */
#include <errno.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "elem_write.h"

void ew_init(struct elem_writer *w, struct txn *t,
		    const struct setinfo *si, uint16_t type, uint16_t flags)
{
	memset(w, 0, sizeof(*w));
	w->t = t;
	w->si = si;
	w->type = type;
	w->flags = flags;
	w->kind = setinfo_is_concat_interval(si) ? EW_CONCAT_INTERVAL :
		  setinfo_is_single_interval(si) ? EW_SINGLE_INTERVAL : EW_PLAIN;
	w->keep_data = type == NFT_MSG_NEWSETELEM;
	w->need_data = si->kt.dtype && w->keep_data;
	w->key_len = si->kt.key_len;
	/* a key of 6 (ether_addr) or 2 bytes needs padding: elem_enc() */
	w->key_only = w->kind == EW_PLAIN && !w->need_data &&
		      w->key_len % NLA_ALIGNTO == 0;
}

void ew_open(struct elem_writer *w)
{
	size_t bytes = txn_bytes(w->t);

	w->nlh = txn_msg_begin(w->t, w->type, w->si->family, w->flags);
	/* an end attribute first: its element started in the last message */
	if (w->map)
		elem_src_msg(w->map, w->nlh->nlmsg_seq, w->nelem + !!w->in_end);
	mnl_attr_put_strz(w->nlh, NFTA_SET_ELEM_LIST_TABLE, w->si->table);
	mnl_attr_put_strz(w->nlh, NFTA_SET_ELEM_LIST_SET, w->si->name);
	w->nest = mnl_attr_nest_start(w->nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	/* bytes + len > max_bytes is len >= max_bytes - bytes + 1 */
	w->stop = TXN_ELEM_MSG_LIMIT;
	if (bytes >= w->t->max_bytes)
		w->stop = 0;
	else if (w->t->max_bytes - bytes < TXN_ELEM_MSG_LIMIT)
		w->stop = (uint32_t)(w->t->max_bytes - bytes) + 1;
}

int ew_close(struct elem_writer *w)
{
	int err;

	if (!w->nlh)
		return 0;
	mnl_attr_nest_end(w->nlh, w->nest);
	err = txn_msg_end(w->t);
	w->nlh = NULL;
	return err;
}

static int ew_put(struct elem_writer *w, const uint8_t *key,
		  const uint8_t *key_end, uint32_t flags, uint64_t timeout,
		  const struct elem_data *d)
{
	const struct keytype *kt = &w->si->kt;
	struct elem_attrs a = {
		.key = key, .key_end = key_end, .key_len = kt->key_len,
		.flags = flags, .timeout_ms = timeout, .data = d,
		.verdict = kt->dtype == KT_DATA_VERDICT, .dlen = kt->dlen,
	};

	if (!w->nlh)
		ew_open(w);
	elem_enc(w->nlh, &a);
	return ew_put_done(w);
}

/*
 * Elements as the checks (elem_check.c) passed them: a map element has
 * its data, ranges go to interval sets only.
 */
int ew_add_slow(struct elem_writer *w, const struct elem *el)
{
	const struct elem_data *d = el->has_data && w->keep_data ?
		&el->data : NULL;
	uint8_t next[KT_MAX_KEY];
	int err;

	switch (w->kind) {
	case EW_CONCAT_INTERVAL:
		return ew_put(w, el->key, el->key_end, 0, el->timeout_ms, d);
	case EW_PLAIN:
		return ew_put(w, el->key, NULL, 0, el->timeout_ms, d);
	case EW_SINGLE_INTERVAL:
		break;
	}
	err = ew_put(w, el->key, NULL, 0, el->timeout_ms, d);
	/* open: up to the largest value, no end element */
	if (err || elem_key_inc(&w->si->kt, el->key_end, next))
		return err;
	w->in_end = 1;
	err = ew_put(w, next, NULL, NFT_SET_ELEM_INTERVAL_END, 0, NULL);
	w->in_end = 0;
	return err;
}
