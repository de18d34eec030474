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
 * Messages are written into libnftnl batch pages (page_size each, a message
 * may overrun a page by up to TXN_MAX_MSG); the socket buffers are sized to
 * the batch and to one ACK per message before sending.
 */
enum {
	TXN_PAGE_SIZE = 256 * 1024,
	TXN_MAX_MSG = 64 * 1024,
	TXN_ELEM_MSG_LIMIT = 60 * 1024,	/* NFTA_SET_ELEM_LIST_ELEMENTS is u16 */
};

struct txn {
	struct nftnl_batch *batch;
	uint32_t seq_begin;
	uint32_t seq_next;
	size_t bytes;		/* bytes in completed messages */
	size_t max_bytes;	/* refuse to grow beyond this */
	unsigned int nmsgs;	/* messages between BEGIN and END */
	uint64_t t_start_ns;	/* txn_init() */
	uint64_t t_send_ns;	/* sendmsg() called */
	uint64_t t_done_ns;	/* sendmsg() returned: kernel done */
};

/* How to name what failed: op ("element add") and element text. */
struct txn_reporter {
	const char *op;
	int (*elem_fmt)(const struct nlattr *elem, char *buf, size_t len,
			void *data);
	void *data;
	unsigned int max_reports;
};

int txn_init(struct txn *t, struct nl *nl, size_t max_bytes);
void txn_fini(struct txn *t);
struct nlmsghdr *txn_msg_begin(struct txn *t, uint16_t type, uint16_t family,
			       uint16_t flags);
int txn_msg_end(struct txn *t);
int txn_commit(struct txn *t, struct nl *nl, const struct txn_reporter *rep);
size_t txn_bytes(const struct txn *t);
void txn_print_stats(const struct txn *t, const char *op, uint64_t elems);

#endif
