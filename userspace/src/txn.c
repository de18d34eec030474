// SPDX-License-Identifier: GPL-2.0
/*
 * nf_tables transactions.
 *
 * The kernel (nfnetlink_rcv_batch()) handles a batch in the context of the
 * sendmsg() call: it runs every message, queues one reply per message that
 * asked for an ACK or failed, then commits or aborts the whole batch and
 * delivers the replies.  So after sendmsg() returns all replies are already
 * on the socket: they are drained without blocking, every error is reported
 * with the object named from the original message (found again by sequence
 * number in the batch) and, for set elements, the element the
 * extended ACK offset points at.  A batch must fit in one skb, hence in the
 * socket send buffer, which is raised to the batch size first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>

#include "txn.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* CPU time (user + system) of this process so far. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * --stats: where a transaction's time went.  "build" is from txn_init()
 * (input read, parsed and serialised) to sendmsg(), with the CPU time this
 * process used in it; "kernel" is the sendmsg() call, in which nfnetlink
 * runs and commits the whole batch: the floor for any tool loading the
 * same ruleset; "replies" is draining the ACKs.
 */
void txn_print_stats(const struct txn *t, const char *op, uint64_t elems)
{
	fprintf(stderr, "nftlab: %s: stats: %llu elements, %u messages, "
		"%zu bytes, build %.3f s (cpu %.3f s), kernel %.3f s, "
		"replies %.3f s\n", op,
		(unsigned long long)elems, t->nmsgs, t->bytes,
		(double)(t->t_send_ns - t->t_start_ns) / 1e9,
		(double)(t->cpu_send_ns - t->cpu_start_ns) / 1e9,
		(double)(t->t_done_ns - t->t_send_ns) / 1e9,
		(double)(t->t_collect_ns - t->t_done_ns) / 1e9);
}

/* BATCH_BEGIN / BATCH_END, as nftnl_batch_begin()/_end() write them */
static void txn_put_batch_msg(struct txn *t, uint16_t type, uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(t->buf + t->bytes);
	struct nfgenmsg *nfg;

	nlh = mnl_nlmsg_put_header(nlh);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htons(NFNL_SUBSYS_NFTABLES);
	t->bytes += nlh->nlmsg_len;
}

/*
 * The batch is one anonymous mapping: zero-filled by the kernel, so no
 * stale bytes can reach the kernel in attribute padding, grown with
 * mremap() (no copy), transparent huge pages where the kernel gives them
 * (a 1M-element batch is 16 MB: 4000 page faults otherwise).
 */
static int txn_room(struct txn *t, size_t need)
{
	size_t cap = t->cap ? t->cap : TXN_INITIAL;
	void *p;

	if (t->cap && t->cap - t->bytes >= need)
		return 0;
	while (cap - t->bytes < need)
		cap *= 2;
	if (!t->cap)
		p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else
		p = mremap(t->buf, t->cap, cap, MREMAP_MAYMOVE);
	if (p == MAP_FAILED)
		return -ENOMEM;
	/* big batches only: a huge page is 2 MB of RSS at once */
	if (cap >= TXN_HUGE)
		madvise(p, cap, MADV_HUGEPAGE);	/* a hint; errors do not matter */
	t->buf = p;
	t->cap = cap;
	return 0;
}

int txn_init(struct txn *t, struct nl *nl, size_t max_bytes)
{
	int err;

	memset(t, 0, sizeof(*t));
	err = txn_room(t, TXN_MAX_MSG + TXN_END_ROOM);
	if (err)
		return err;
	t->max_bytes = max_bytes;
	t->t_start_ns = now_ns();
	t->cpu_start_ns = cpu_ns();
	t->seq_begin = nl->seq;
	t->seq_next = nl->seq;
	txn_put_batch_msg(t, NFNL_MSG_BATCH_BEGIN, t->seq_next++);
	return 0;
}

void txn_fini(struct txn *t)
{
	if (t->buf)
		munmap(t->buf, t->cap);
	t->buf = NULL;
	t->cap = 0;
	for (size_t i = 0; i < t->nmarks; i++)
		free(t->marks[i].label);
	free(t->marks);
	t->marks = NULL;
	t->nmarks = t->cap_marks = 0;
}

/* Messages from now on belong to label (a script line), for reports. */
int txn_mark(struct txn *t, const char *label)
{
	struct txn_mark *m;

	if (t->nmarks == t->cap_marks) {
		size_t cap = t->cap_marks ? t->cap_marks * 2 : 16;
		void *p = realloc(t->marks, cap * sizeof(*t->marks));

		if (!p)
			return -ENOMEM;
		t->marks = p;
		t->cap_marks = cap;
	}
	m = &t->marks[t->nmarks];
	m->label = strdup(label);
	if (!m->label)
		return -ENOMEM;
	m->seq = t->seq_next;
	t->nmarks++;
	return 0;
}

int txn_genid(struct txn *t, uint32_t genid)
{
	struct nlmsghdr *begin = (struct nlmsghdr *)t->buf;

	if (t->nmsgs || t->open || t->bytes != NLMSG_ALIGN(begin->nlmsg_len))
		return -EINVAL;
	mnl_attr_put_u32(begin, NFNL_BATCH_GENID, htonl(genid));
	t->bytes = NLMSG_ALIGN(begin->nlmsg_len);
	return 0;
}

static const char *txn_label(const struct txn *t, uint32_t seq,
			     const char *op)
{
	for (size_t i = t->nmarks; i-- > 0;)
		if (t->marks[i].seq <= seq)
			return t->marks[i].label;
	return op;
}

size_t txn_bytes(const struct txn *t)
{
	return t->bytes;
}

/*
 * Start a message in the batch; NLM_F_ACK is always requested.  The
 * message may use TXN_MAX_MSG bytes (txn_init() and txn_msg_end() keep
 * that much room); it stays where it is until txn_msg_end(), which is
 * where the batch grows.
 */
struct nlmsghdr *txn_msg_begin(struct txn *t, uint16_t type, uint16_t family,
			       uint16_t flags)
{
	/* a message begun and never ended leaves no bytes behind */
	if (t->open)
		memset(t->open, 0, NLMSG_ALIGN(t->open->nlmsg_len));
	t->open = nftnl_nlmsg_build_hdr(t->buf + t->bytes, type, family,
					flags | NLM_F_ACK, t->seq_next++);
	return t->open;
}

int txn_msg_end(struct txn *t)
{
	t->bytes += NLMSG_ALIGN(t->open->nlmsg_len);
	t->open = NULL;
	t->nmsgs++;
	if (t->bytes > t->max_bytes)
		return -EMSGSIZE;
	return txn_room(t, TXN_MAX_MSG + TXN_END_ROOM);
}

/* Find the message with sequence number seq in the batch. */
static const struct nlmsghdr *txn_find(const struct txn *t, struct iovec *iov,
				       int iovlen, uint32_t seq)
{
	for (int i = 0; i < iovlen; i++) {
		const struct nlmsghdr *nlh = iov[i].iov_base;
		int rem = (int)iov[i].iov_len;

		for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem))
			if (nlh->nlmsg_seq == seq)
				return nlh;
	}
	(void)t;
	return NULL;
}

struct txn_names {
	const char *table;
	const char *name;
};

static int txn_names_cb(const struct nlattr *attr, void *data)
{
	const char **slot = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type < 4 && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		slot[type] = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

/* Names from the request; attr numbers per object type. */
static void txn_parse_what(const struct nlmsghdr *nlh, struct txn_what *w)
{
	const struct nfgenmsg *nfg = mnl_nlmsg_get_payload(nlh);
	const char *slot[4] = { NULL, NULL, NULL, NULL };

	mnl_attr_parse(nlh, sizeof(*nfg), txn_names_cb, slot);
	w->type = NFNL_MSG_TYPE(nlh->nlmsg_type);
	w->nlflags = nlh->nlmsg_flags;
	w->family = nfg->nfgen_family;
	switch (w->type) {
	case NFT_MSG_NEWTABLE: case NFT_MSG_DELTABLE:
		w->table = slot[NFTA_TABLE_NAME];
		break;
	case NFT_MSG_NEWCHAIN: case NFT_MSG_DELCHAIN:
		/* NFTA_CHAIN_HANDLE is 2 */
		w->table = slot[NFTA_CHAIN_TABLE];
		w->name = slot[NFTA_CHAIN_NAME];
		break;
	default:	/* set, element, rule, object: table 1, name 2 */
		w->table = slot[1];
		if (w->type != NFT_MSG_NEWRULE && w->type != NFT_MSG_DELRULE)
			w->name = slot[2];
		else
			w->name = slot[NFTA_RULE_CHAIN];
		break;
	}
}

/* "family/table/object" */
static void txn_describe(const struct txn_what *w, char *buf, size_t len)
{
	if (!w->table)
		snprintf(buf, len, "%s", nl_family_name(w->family));
	else if (!w->name)
		snprintf(buf, len, "%s/%s", nl_family_name(w->family), w->table);
	else
		snprintf(buf, len, "%s/%s/%s", nl_family_name(w->family),
			 w->table, w->name);
}

static void txn_report(const struct txn *t, struct iovec *iov, int iovlen,
		       uint32_t seq, const struct nl_err *e,
		       const struct txn_reporter *rep)
{
	const struct nlmsghdr *req = txn_find(t, iov, iovlen, seq);
	struct txn_what w = { .type = -1, .txn = t };
	char what[600] = "transaction", elem[512] = "", why[512];
	const char *text = NULL;

	if (req && seq != t->seq_begin) {
		txn_parse_what(req, &w);
		txn_describe(&w, what, sizeof(what));
	}
	if (req && e->offset &&
	    (w.type == NFT_MSG_NEWSETELEM || w.type == NFT_MSG_DELSETELEM) &&
	    e->offset + sizeof(struct nlattr) <= req->nlmsg_len) {
		char buf[480];

		w.elem = (const void *)((const char *)req + e->offset);
		w.req = req;
		if (rep->elem_fmt &&
		    rep->elem_fmt(&w, buf, sizeof(buf), rep->data) == 0)
			snprintf(elem, sizeof(elem), ": %s", buf);
	}
	if (rep->explain)
		text = rep->explain(&w, e->err, why, sizeof(why), rep->data);
	if (!text)
		text = strerror(-e->err);
	fprintf(stderr, "nftlab: %s: %s%s: %s%s%s%s\n",
		txn_label(t, seq, rep->op), what, elem, text,
		e->msg[0] ? " (" : "", e->msg, e->msg[0] ? ")" : "");
}

static int txn_set_buffers(struct nl *nl, size_t sndbuf, size_t rcvbuf)
{
	int fd = mnl_socket_get_fd(nl->sock);
	int val, cur;
	socklen_t len = sizeof(cur);

	if (sndbuf > (size_t)(INT32_MAX / 2) - 64)
		return -EMSGSIZE;
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cur, &len) == 0 &&
	    (size_t)cur < sndbuf + 64) {
		val = (int)sndbuf + 64;
		/* FORCE needs CAP_NET_ADMIN, which nf_tables needs anyway */
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &val, sizeof(val)))
			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &val, sizeof(val));
		len = sizeof(cur);
		if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cur, &len) ||
		    (size_t)cur < sndbuf + 32)
			return -EMSGSIZE;
	}
	if (rcvbuf > (size_t)(INT32_MAX / 2))
		rcvbuf = INT32_MAX / 2;
	val = (int)rcvbuf;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &val, sizeof(val)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &val, sizeof(val));
	return 0;
}

/* Drain the replies; returns the first error, or -EPROTO if ACKs are lost. */
static int txn_collect(const struct txn *t, struct nl *nl, struct iovec *iov,
		       int iovlen, const struct txn_reporter *rep)
{
	char buf[32768];
	unsigned int acks = 0, errors = 0;
	int first = 0;

	for (;;) {
		ssize_t len = recv(mnl_socket_get_fd(nl->sock), buf, sizeof(buf),
				   MSG_DONTWAIT);
		const struct nlmsghdr *nlh = (const void *)buf;
		int rem;

		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (len < 0) {
			fprintf(stderr, "nftlab: %s: reading replies: %s\n",
				rep->op, strerror(errno));
			return -errno;
		}
		rem = (int)len;
		for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			struct nl_err e;
			uint32_t seq;

			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    nl_parse_err(nlh, &e, &seq))
				continue;
			if (seq < t->seq_begin || seq >= t->seq_next)
				continue;
			if (!e.err) {
				acks++;
				continue;
			}
			if (!first)
				first = e.err;
			if (errors++ < rep->max_reports)
				txn_report(t, iov, iovlen, seq, &e, rep);
		}
	}
	if (errors > rep->max_reports)
		fprintf(stderr, "nftlab: %s: %u more errors not shown\n",
			rep->op, errors - rep->max_reports);
	if (!first && acks != t->nmsgs) {
		fprintf(stderr, "nftlab: %s: %u of %u ACKs received\n", rep->op,
			acks, t->nmsgs);
		return -EPROTO;
	}
	return first;
}

int txn_commit(struct txn *t, struct nl *nl, const struct txn_reporter *rep)
{
	struct sockaddr_nl snl = { .nl_family = AF_NETLINK };
	struct msghdr msg = { 0 };
	struct iovec *iov;
	int iovlen, ret;
	ssize_t sent;

	/*
	 * -c, as nft -c: without BATCH_END the kernel checks every message
	 * (each is ACKed or refused as usual) and then aborts the batch.
	 */
	if (!t->check)
		txn_put_batch_msg(t, NFNL_MSG_BATCH_END, t->seq_next);
	t->seq_next++;
	nl->seq = t->seq_next;

	ret = txn_set_buffers(nl, t->bytes, (size_t)t->nmsgs * 1024 + 262144);
	if (ret) {
		fprintf(stderr, "nftlab: %s: transaction of %zu bytes does not fit "
			"the socket send buffer: %s\n", rep->op, t->bytes,
			strerror(-ret));
		return ret;
	}
	iovlen = 1;
	iov = calloc((size_t)iovlen, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	iov[0].iov_base = t->buf;
	iov[0].iov_len = t->bytes;
	msg.msg_name = &snl;
	msg.msg_namelen = sizeof(snl);
	msg.msg_iov = iov;
	msg.msg_iovlen = (size_t)iovlen;
	t->cpu_send_ns = cpu_ns();
	t->t_send_ns = now_ns();
	sent = sendmsg(mnl_socket_get_fd(nl->sock), &msg, 0);
	t->t_done_ns = now_ns();
	if (sent < 0) {
		ret = -errno;
		fprintf(stderr, "nftlab: %s: sending %zu bytes: %s\n", rep->op,
			t->bytes, strerror(errno));
	} else {
		ret = txn_collect(t, nl, iov, iovlen, rep);
	}
	t->t_collect_ns = now_ns();
	free(iov);
	return ret;
}
