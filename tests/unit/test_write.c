// SPDX-License-Identifier: GPL-2.0
/*
 * The element writer (elem_write.c) alone: linked with the encoder and
 * the transaction buffer only, no command context, no kernel (it calls
 * nothing above them; the checks are elem_check.c's).  What it writes
 * per set type, and where it stops at --max-batch.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>

#include "elem.h"
#include "elem_write.h"
#include "keytype.h"
#include "nl.h"
#include "tap.h"
#include "txn.h"

/* What the one NEWSETELEM message of a transaction holds. */
struct written {
	int elems;		/* elements in the list */
	int ends;		/* ... of them flagged INTERVAL_END */
	int key_ends;		/* ... with NFTA_SET_ELEM_KEY_END */
	uint8_t last_key[KT_MAX_KEY];
};

static void read_elem(const struct nlattr *e, struct written *w)
{
	const struct nlattr *a, *k;

	w->elems++;
	mnl_attr_for_each_nested(a, e) {
		switch (mnl_attr_get_type(a)) {
		case NFTA_SET_ELEM_KEY:
			k = mnl_attr_get_payload(a);
			memcpy(w->last_key, mnl_attr_get_payload(k),
			       mnl_attr_get_payload_len(k));
			break;
		case NFTA_SET_ELEM_KEY_END:
			w->key_ends++;
			break;
		case NFTA_SET_ELEM_FLAGS:
			if (ntohl(mnl_attr_get_u32(a)) & NFT_SET_ELEM_INTERVAL_END)
				w->ends++;
			break;
		}
	}
}

/* The first message after BATCH_BEGIN: the writer's. */
static int read_batch(const struct txn *t, struct written *w)
{
	const struct nlmsghdr *begin = (const void *)t->buf;
	const struct nlmsghdr *msg = (const void *)(t->buf +
					NLMSG_ALIGN(begin->nlmsg_len));
	const struct nlattr *a, *e;

	memset(w, 0, sizeof(*w));
	if ((msg->nlmsg_type & 0xff) != NFT_MSG_NEWSETELEM)
		return -1;
	mnl_attr_for_each(a, msg, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) != NFTA_SET_ELEM_LIST_ELEMENTS)
			continue;
		mnl_attr_for_each_nested(e, a)
			read_elem(e, w);
	}
	return 0;
}

/* elements (text) into a new set of type spec; 0 or the writer's error */
static int write_elems(const char *spec, uint32_t set_flags, size_t max,
		       const char *const *texts, struct written *out,
		       uint64_t *count)
{
	struct setinfo si = { .family = NFPROTO_IPV4, .table = "t",
			      .name = "s", .flags = set_flags };
	struct nl nl = { 0 };
	struct elem_writer w;
	struct txn t;
	char why[128];
	int err;

	keytype_parse(&si.kt, spec);
	if (txn_init(&t, &nl, max))
		return -ENOMEM;
	ew_init(&w, &t, &si, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	for (err = 0; !err && *texts; texts++) {
		struct elem el;

		err = elem_parse(&el, &si.kt, *texts, why, sizeof(why));
		if (!err)
			err = ew_add(&w, &el);
		w.nelem++;
	}
	if (!err)
		err = ew_close(&w);
	if (!err)
		err = read_batch(&t, out);
	*count = w.count;
	txn_fini(&t);
	return err;
}

void test_write(struct tap *t)
{
	static const char *const plain[] = { "10.0.0.1", "10.0.0.2", NULL };
	static const char *const closed[] = { "10.0.0.0/24", NULL };
	static const char *const open[] = { "0.0.0.0/0", NULL };
	static const char *const concat[] = { "10.0.0.1 . 80",
					      "10.0.0.2-10.0.0.3 . 1-2", NULL };
	static const char *const three[] = { "10.0.0.1", "10.0.0.2",
					     "10.0.0.3", NULL };
	static const uint8_t end[4] = { 10, 0, 1, 0 }, zero[4] = { 0 };
	struct written w;
	uint64_t count;
	int err;

	err = write_elems("ipv4_addr", 0, 1 << 20, plain, &w, &count);
	TAP_OK(t, !err && w.elems == 2 && !w.ends && !w.key_ends &&
	       count == 2, "writer: hash set, a key per element");
	err = write_elems("ipv4_addr", NFT_SET_INTERVAL, 1 << 20, closed, &w,
			  &count);
	TAP_OK(t, !err && w.elems == 2 && w.ends == 1 && count == 2 &&
	       !memcmp(w.last_key, end, 4),
	       "writer: 10.0.0.0/24 is its start and 10.0.1.0 flagged end");
	err = write_elems("ipv4_addr", NFT_SET_INTERVAL, 1 << 20, open, &w,
			  &count);
	TAP_OK(t, !err && w.elems == 1 && !w.ends && count == 1 &&
	       !memcmp(w.last_key, zero, 4),
	       "writer: 0.0.0.0/0 (open to the top) is its start alone");
	err = write_elems("ipv4_addr . inet_service", NFT_SET_INTERVAL,
			  1 << 20, concat, &w, &count);
	TAP_OK(t, !err && w.elems == 2 && w.key_ends == 2 && !w.ends,
	       "writer: concatenated intervals, KEY and KEY_END each");
	/* BATCH_BEGIN and a message of two keys fit 100 bytes, not three */
	err = write_elems("ipv4_addr", 0, 100, three, &w, &count);
	TAP_OK(t, err == -EMSGSIZE && count == 2,
	       "writer: stops at --max-batch (%d, %llu written)", err,
	       (unsigned long long)count);
}
