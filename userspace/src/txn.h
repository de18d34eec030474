/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_TXN_H
#define NFTLAB_TXN_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "nl.h"

/*
 * One nf_tables transaction: BATCH_BEGIN, messages, BATCH_END, sent with a
 * single sendmsg() so that the kernel commits all of it or none of it.
 * Messages are written one after the other into one buffer (a message may
 * use up to TXN_MAX_MSG bytes); the socket buffers are sized to the batch
 * and to one ACK per message before sending.
 */
enum {
	TXN_INITIAL = 256 * 1024,	/* first mapping of the batch */
	TXN_HUGE = 4 * 1024 * 1024,	/* from here on ask for huge pages */
	TXN_MAX_MSG = 64 * 1024,
	TXN_END_ROOM = 64,		/* room kept for BATCH_END */
	TXN_ELEM_MSG_LIMIT = 60 * 1024,	/* NFTA_SET_ELEM_LIST_ELEMENTS is u16 */
};

struct txn {
	char *buf;		/* the batch: BATCH_BEGIN, messages, BATCH_END */
	size_t cap;		/* bytes mapped at buf */
	struct nlmsghdr *open;	/* message begun, not yet ended */
	uint32_t seq_begin;
	uint32_t seq_next;
	size_t bytes;		/* bytes in completed messages (at buf) */
	size_t max_bytes;	/* refuse to grow beyond this */
	unsigned int nmsgs;	/* messages between BEGIN and END */
	int check;		/* -c: sent without BATCH_END, never committed */
	uint64_t t_start_ns;	/* txn_init() */
	uint64_t t_send_ns;	/* sendmsg() called */
	uint64_t t_done_ns;	/* sendmsg() returned: kernel done */
	uint64_t t_collect_ns;	/* replies drained */
	uint64_t cpu_start_ns;	/* process CPU time at txn_init() */
	uint64_t cpu_send_ns;	/* and when sendmsg() is called */
	struct txn_mark *marks;	/* -f: which script line wrote which seq */
	size_t nmarks, cap_marks;
};

struct txn_mark {
	uint32_t seq;		/* first sequence number of the command */
	char *label;		/* "FILE:LINE: element add" */
};

/* What a failed message was about, from the request itself. */
struct txn_what {
	int type;		/* NFT_MSG_* */
	uint16_t nlflags;	/* the request's NLM_F_* */
	uint16_t family;
	const char *table;	/* NULL if absent */
	const char *name;	/* chain, set, object; NULL if absent */
	const struct nlattr *elem;	/* element the ext ACK points at */
	const struct nlmsghdr *req;	/* the request elem is in */
	const struct txn *txn;		/* the batch req is in */
};

/*
 * How to name what failed: op ("element add"), the element's text and the
 * error in context ("set is full"); both hooks are optional.
 */
struct txn_reporter {
	const char *op;
	int (*elem_fmt)(const struct txn_what *w, char *buf, size_t len,
			void *data);
	const char *(*explain)(const struct txn_what *w, int err, char *buf,
			       size_t len, void *data);
	void *data;
	unsigned int max_reports;
};

int txn_init(struct txn *t, struct nl *nl, size_t max_bytes);
void txn_fini(struct txn *t);
struct nlmsghdr *txn_msg_begin(struct txn *t, uint16_t type, uint16_t family,
			       uint16_t flags);
int txn_msg_end(struct txn *t);
int txn_mark(struct txn *t, const char *label);
/*
 * Commit only if the ruleset is still at generation genid (NFT_MSG_GETGEN):
 * NFNL_BATCH_GENID in BATCH_BEGIN, as nft sends it; the kernel refuses a
 * batch of another generation as a whole with -ERESTART.  Before any
 * message; -EINVAL after.
 */
int txn_genid(struct txn *t, uint32_t genid);
int txn_commit(struct txn *t, struct nl *nl, const struct txn_reporter *rep);
size_t txn_bytes(const struct txn *t);
void txn_print_stats(const struct txn *t, const char *op, uint64_t elems);

#endif
