// SPDX-License-Identifier: GPL-2.0
/*
 * The earlier element of a transaction that an element duplicates or
 * overlaps (elem_dup.h).  Only run for an error report: the batch is
 * scanned message by message, nothing is recorded while writing it
 * except where each element came from (elem_src.h).
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include "elem.h"
#include "elem_dup.h"

static int attr_is_end(const struct nlattr *elem)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, elem)
		if (mnl_attr_get_type(a) == NFTA_SET_ELEM_FLAGS &&
		    mnl_attr_get_payload_len(a) == 4)
			return !!(ntohl(mnl_attr_get_u32(a)) &
				  NFT_SET_ELEM_INTERVAL_END);
	return 0;
}

/* The element list of a NEWSETELEM message of w's set, else NULL. */
static const struct nlattr *msg_elems(const struct nlmsghdr *nlh,
				      const struct txn_what *w)
{
	const struct nfgenmsg *nfg = mnl_nlmsg_get_payload(nlh);
	const char *table = NULL, *set = NULL;
	const struct nlattr *a, *list = NULL;

	if (NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWSETELEM ||
	    nfg->nfgen_family != w->family)
		return NULL;
	mnl_attr_for_each(a, nlh, sizeof(*nfg)) {
		switch (mnl_attr_get_type(a)) {
		case NFTA_SET_ELEM_LIST_TABLE: table = mnl_attr_get_str(a); break;
		case NFTA_SET_ELEM_LIST_SET: set = mnl_attr_get_str(a); break;
		case NFTA_SET_ELEM_LIST_ELEMENTS: list = a; break;
		}
	}
	if (!table || !set || strcmp(table, w->table) || strcmp(set, w->name))
		return NULL;
	return list;
}

/*
 * Where element attribute elem of message nlh came from: elements are
 * numbered from the message's first one; an interval's end attribute
 * belongs to the start before it.
 */
static void attr_where(const struct elem_srcmap *m, const struct nlmsghdr *nlh,
		       const struct nlattr *list, const struct nlattr *elem,
		       char *buf, size_t len)
{
	const struct nlattr *a;
	uint64_t n = 0;

	buf[0] = '\0';
	if (elem_src_msg_first(m, nlh->nlmsg_seq, &n))
		return;
	mnl_attr_for_each_nested(a, list) {
		if (a == elem)
			break;
		n += !attr_is_end(a);
	}
	if (attr_is_end(elem) && n)
		n--;
	elem_src_describe(m, n, buf, len);
}

struct dup_target {
	const struct setinfo *si;
	uint8_t start[KT_MAX_KEY], end[KT_MAX_KEY];
};

/* 1: attribute a of message nlh overlaps the target (0: exactly) */
static int attr_hits(const struct dup_target *t, const struct nlmsghdr *nlh,
		     const struct nlattr *a, int *exact)
{
	uint8_t s[KT_MAX_KEY], e[KT_MAX_KEY];
	uint32_t len = t->si->kt.key_len;

	if (setinfo_is_single_interval(t->si) && attr_is_end(a))
		return 0;	/* part of the start before it */
	if (elem_attr_interval(t->si, nlh, a, s, e))
		return 0;
	if (memcmp(s, t->end, len) > 0 || memcmp(e, t->start, len) < 0)
		return 0;
	if (!(t->si->flags & NFT_SET_INTERVAL) && memcmp(s, t->start, len))
		return 0;	/* hash sets: the same key only */
	*exact = !memcmp(s, t->start, len) && !memcmp(e, t->end, len);
	return 1;
}

/* The first element of the batch before w->elem that w->elem hits. */
static void dup_scan(const struct elem_srcmap *m, const struct dup_target *t,
		     const struct txn_what *w, struct elem_dup *d)
{
	const struct nlmsghdr *nlh = (const void *)w->txn->buf;
	int rem = (int)w->txn->bytes;
	uint8_t s[KT_MAX_KEY], e[KT_MAX_KEY];

	for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
		const struct nlattr *list = msg_elems(nlh, w), *a;

		if (!list)
			continue;
		mnl_attr_for_each_nested(a, list) {
			if (a == w->elem)
				return;
			if (!attr_hits(t, nlh, a, &d->exact))
				continue;
			d->found = 1;
			if (elem_attr_interval(t->si, nlh, a, s, e) ||
			    elem_format(&t->si->kt, s, e, d->earlier,
					sizeof(d->earlier)))
				d->earlier[0] = '\0';
			attr_where(m, nlh, list, a, d->where_earlier,
				   sizeof(d->where_earlier));
			return;
		}
		if (nlh == w->req)
			return;
	}
}

void elem_dup_find(const struct elem_srcmap *m, const struct setinfo *si,
		   const struct txn_what *w, struct elem_dup *d)
{
	struct dup_target t = { .si = si };
	const struct nlattr *list;

	memset(d, 0, sizeof(*d));
	if (!w->txn || !w->req || !w->elem || !w->table || !w->name)
		return;
	list = msg_elems(w->req, w);
	if (!list || elem_attr_interval(si, w->req, w->elem, t.start, t.end))
		return;
	attr_where(m, w->req, list, w->elem, d->where, sizeof(d->where));
	dup_scan(m, &t, w, d);
}
