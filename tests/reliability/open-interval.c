// SPDX-License-Identifier: GPL-2.0
/*
 * Does the kernel refuse an interval open to the top of its type that
 * overlaps the set?  A raw netlink client (libnftnl, not nftlab, not nft)
 * sends what nft sends for such an interval: the start element alone, no
 * end element, since end + 1 does not exist.  nft checks overlaps in
 * userspace and never sends an overlapping one; any other client relies on
 * the kernel.
 *
 * Each case, in a table of its own: a set holding one interval (one batch),
 * then a second batch that adds the case's interval (or, for the one-batch
 * cases, an empty set, then one batch adding both, in that order).  Besides
 * open intervals that overlap the set, the cases send values and closed
 * intervals that reach an open interval the set holds (issue 53: nft
 * refuses them; the kernel may skip the start element that has the open
 * one's key and insert the end element, cutting it short).  Printed per case:
 * whether the kernel accepted the second batch, the elements the set then
 * holds (as the kernel lists them), and whether a packet to a key that
 * only the new interval holds matches `... @set counter` in an output
 * chain (on lo: 127.0.0.1, ::1 or a port of 127.0.0.1).  An overlap the
 * kernel accepts is a bug whatever the packet does: the set no longer holds
 * what either batch asked for.
 *
 * Run as root in a network namespace of its own, with lo up (see
 * open-interval.sh).  Exit 0: every overlap refused and every control
 * accepted and matching; 1: a case failed (named); 2: setup failed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

enum { MAXKEY = 16 };

/* nft's data types of the keys (include/datatype.h in nftables) */
enum { TYPE_IPADDR = 7, TYPE_IP6ADDR = 8, TYPE_INET_SERVICE = 13 };

enum key_kind { K_V4, K_V6, K_PORT };

struct ivl {
	const char *lo, *hi;	/* hi NULL: open, up to the top */
};

struct tcase {
	const char *name;
	enum key_kind kind;
	struct ivl have;	/* in the set first; lo NULL: empty set */
	struct ivl add;		/* the second batch */
	int wrap_end;		/* also send an end element whose key wrapped */
	const char *probe;	/* on lo: an address, or a port */
	int in_union;		/* 1: the probe is in have or add */
	int overlap;		/* 1: must be refused; 0: control */
	int one_batch;		/* have and add in the second batch, in that
				 * order (the set empty before) */
	const char *known;	/* a known limit of the fixes: its failure is
				 * reported as a TAP TODO with this reason */
};

static const struct tcase cases[] = {
	{ "v4-all-over-16", K_V4, { "10.1.0.0", "10.1.255.255" },
	  { "0.0.0.0", NULL }, 0, "127.0.0.1", 1, 1, 0, NULL },
	{ "v4-open-over-16", K_V4, { "10.1.0.0", "10.1.255.255" },
	  { "9.0.0.0", NULL }, 0, "127.0.0.1", 1, 1, 0, NULL },
	{ "v6-all-over-32", K_V6, { "2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff" },
	  { "::", NULL }, 0, "::1", 1, 1, 0, NULL },
	{ "port-all-over-80-90", K_PORT, { "80", "90" },
	  { "0", NULL }, 0, "5000", 1, 1, 0, NULL },
	/* the start plus an end element at end + 1 wrapped to 0.0.0.0 */
	{ "v4-all-wrapped-end-over-16", K_V4, { "10.1.0.0", "10.1.255.255" },
	  { "0.0.0.0", NULL }, 1, "127.0.0.1", 1, 1, 0, NULL },
	/* the other way round: a closed interval inside an open one */
	{ "v4-16-inside-open", K_V4, { "9.0.0.0", NULL },
	  { "10.1.0.0", "10.1.255.255" }, 0, "127.0.0.1", 1, 1, 0, NULL },
	/* controls: what the kernel must accept, and a closed overlap */
	{ "v4-all-alone", K_V4, { NULL, NULL },
	  { "0.0.0.0", NULL }, 0, "127.0.0.1", 1, 0, 0, NULL },
	{ "v4-open-above-16", K_V4, { "10.1.0.0", "10.1.255.255" },
	  { "10.2.0.0", NULL }, 0, "127.0.0.1", 1, 0, 0, NULL },
	{ "v4-closed-over-16", K_V4, { "10.1.0.0", "10.1.255.255" },
	  { "9.0.0.0", "11.0.0.0" }, 0, "127.0.0.1", 0, 1, 0, NULL },
	/*
	 * Issue 53 (N01-N05): a value or a closed interval that shares the
	 * start of an open interval the set holds.  Its start element has
	 * the open one's key, so an insert that skips duplicates keeps the
	 * old one, and its end element then closes the open interval: the
	 * set holds the new interval alone.  Then the same in one batch.
	 */
	{ "v4-value-at-all-start", K_V4, { "0.0.0.0", NULL },
	  { "0.0.0.0", "0.0.0.0" }, 0, "127.0.0.1", 1, 1, 0, NULL },
	{ "port-closed-at-open-start", K_PORT, { "1000", NULL },
	  { "1000", "2000" }, 0, "5000", 1, 1, 0, NULL },
	{ "v6-half-at-all-start", K_V6, { "::", NULL },
	  { "::", "7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" }, 0, "::1", 1, 1, 0, NULL },
	{ "v4-25-at-open-24-start", K_V4, { "255.255.255.0", NULL },
	  { "255.255.255.0", "255.255.255.127" }, 0, "127.0.0.1", 0, 1, 0, NULL },
	{ "port-closed-across-open-start", K_PORT, { "1000", NULL },
	  { "999", "2000" }, 0, "5000", 1, 1, 0, NULL },
	{ "port-open-then-closed-one-batch", K_PORT, { "1000", NULL },
	  { "1000", "2000" }, 0, "5000", 1, 1, 1, NULL },
	{ "v4-all-then-value-one-batch", K_V4, { "0.0.0.0", NULL },
	  { "0.0.0.0", "0.0.0.0" }, 0, "127.0.0.1", 1, 1, 1, NULL },
	{ "port-closed-then-open-one-batch", K_PORT, { "1000", "2000" },
	  { "1000", NULL }, 0, "5000", 1, 1, 1,
	  "the open interval's start element matches the closed one's and "
	  "is not added, the set stays 1000-2000: not covered by nf fixes "
	  "2 and 3 (fix 2's message)" },
};

static uint32_t key_len(enum key_kind k)
{
	return k == K_V4 ? 4 : k == K_V6 ? 16 : 2;
}

static int key_parse(enum key_kind k, const char *s, uint8_t *out)
{
	if (k == K_PORT) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);
		uint16_t be;

		if (*end || v > 65535)
			return -1;
		be = htons((uint16_t)v);
		memcpy(out, &be, 2);
		return 0;
	}
	return inet_pton(k == K_V4 ? AF_INET : AF_INET6, s, out) == 1 ? 0 : -1;
}

static void key_format(enum key_kind k, const uint8_t *key, char *buf,
		       size_t len)
{
	if (k == K_PORT) {
		snprintf(buf, len, "%u", (unsigned int)(key[0] << 8 | key[1]));
		return;
	}
	inet_ntop(k == K_V4 ? AF_INET : AF_INET6, key, buf, (socklen_t)len);
}

/* end + 1 in network byte order; 1: it wrapped to all zeros */
static int key_inc(const uint8_t *in, uint8_t *out, uint32_t len)
{
	memcpy(out, in, len);
	for (int i = (int)len - 1; i >= 0; i--)
		if (++out[i])
			return 0;
	return 1;
}

struct conn {
	struct mnl_socket *nl;
	uint32_t portid, seq;
	char buf[1 << 17];
};

/* the batch's errno, 0 when every message was acknowledged */
static int batch_send(struct conn *c, struct mnl_nlmsg_batch *b)
{
	char rbuf[1 << 16];
	int err = 0, ret;

	if (mnl_socket_sendto(c->nl, mnl_nlmsg_batch_head(b),
			      mnl_nlmsg_batch_size(b)) < 0)
		return -errno;
	/* one ack per message with NLM_F_ACK, errors as they come */
	for (;;) {
		fd_set fds;
		struct timeval tv = { 0, 200000 };
		int fd = mnl_socket_get_fd(c->nl);

		FD_ZERO(&fds);
		FD_SET(fd, &fds);
		if (select(fd + 1, &fds, NULL, NULL, &tv) <= 0)
			break;
		ret = (int)mnl_socket_recvfrom(c->nl, rbuf, sizeof(rbuf));
		if (ret <= 0)
			break;
		ret = mnl_cb_run(rbuf, (size_t)ret, 0, c->portid, NULL, NULL);
		if (ret < 0 && !err)
			err = -errno;
	}
	return err;
}

static struct mnl_nlmsg_batch *batch_begin(struct conn *c)
{
	struct mnl_nlmsg_batch *b = mnl_nlmsg_batch_start(c->buf, sizeof(c->buf));

	nftnl_batch_begin(mnl_nlmsg_batch_current(b), c->seq++);
	mnl_nlmsg_batch_next(b);
	return b;
}

static int batch_commit(struct conn *c, struct mnl_nlmsg_batch *b)
{
	int err;

	nftnl_batch_end(mnl_nlmsg_batch_current(b), c->seq++);
	mnl_nlmsg_batch_next(b);
	err = batch_send(c, b);
	mnl_nlmsg_batch_stop(b);
	return err;
}

static struct nlmsghdr *msg(struct conn *c, struct mnl_nlmsg_batch *b,
			    uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = nftnl_nlmsg_build_hdr(mnl_nlmsg_batch_current(b),
						     type, NFPROTO_INET,
						     flags | NLM_F_ACK, c->seq++);
	return nlh;
}

static void put_elem(struct nftnl_set *s, const uint8_t *key, uint32_t len,
		     int end)
{
	struct nftnl_set_elem *e = nftnl_set_elem_alloc();

	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, len);
	if (end)
		nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_FLAGS,
				       NFT_SET_ELEM_INTERVAL_END);
	nftnl_set_elem_add(s, e);
}

/* The interval as nft encodes it: start, end + 1 flagged (none if open). */
static int elems_msg(struct conn *c, struct mnl_nlmsg_batch *b,
		     const char *table, const struct tcase *t,
		     const struct ivl *v, int wrap_end)
{
	uint32_t len = key_len(t->kind);
	uint8_t lo[MAXKEY], hi[MAXKEY], next[MAXKEY];
	struct nftnl_set *s = nftnl_set_alloc();
	struct nlmsghdr *nlh;

	if (key_parse(t->kind, v->lo, lo) ||
	    (v->hi && key_parse(t->kind, v->hi, hi)))
		return -1;
	nftnl_set_set_str(s, NFTNL_SET_TABLE, table);
	nftnl_set_set_str(s, NFTNL_SET_NAME, "iv");
	put_elem(s, lo, len, 0);
	if (v->hi && !key_inc(hi, next, len))
		put_elem(s, next, len, 1);
	if (wrap_end) {
		memset(next, 0, len);
		put_elem(s, next, len, 1);
	}
	nlh = msg(c, b, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	mnl_nlmsg_batch_next(b);
	nftnl_set_free(s);
	return 0;
}

static void add_expr(struct nftnl_rule *r, struct nftnl_expr *e)
{
	nftnl_rule_add_expr(r, e);
}

/* `<key> @iv counter`: the key loaded from the packet, looked up */
static void rule_msg(struct conn *c, struct mnl_nlmsg_batch *b,
		     const char *table, enum key_kind k)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nftnl_expr *e;
	struct nlmsghdr *nlh;

	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, "out");
	e = nftnl_expr_alloc("meta");
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, NFT_META_NFPROTO);
	nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, NFT_REG_1);
	add_expr(r, e);
	e = nftnl_expr_alloc("cmp");
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
	nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, NFT_CMP_EQ);
	nftnl_expr_set_u8(e, NFTNL_EXPR_CMP_DATA,
			  k == K_V6 ? NFPROTO_IPV6 : NFPROTO_IPV4);
	add_expr(r, e);
	e = nftnl_expr_alloc("payload");
	if (k == K_PORT) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE,
				   NFT_PAYLOAD_TRANSPORT_HEADER);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, 2);
	} else {
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE,
				   NFT_PAYLOAD_NETWORK_HEADER);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET,
				   k == K_V4 ? 16 : 24);
	}
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, key_len(k));
	nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, NFT_REG_1);
	add_expr(r, e);
	e = nftnl_expr_alloc("lookup");
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, NFT_REG_1);
	nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, "iv");
	nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, 1);
	add_expr(r, e);
	add_expr(r, nftnl_expr_alloc("counter"));
	nlh = msg(c, b, NFT_MSG_NEWRULE, NLM_F_CREATE | NLM_F_APPEND);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	mnl_nlmsg_batch_next(b);
	nftnl_rule_free(r);
}

/* table, set, output chain and rule, the set's first interval */
static int setup(struct conn *c, const char *table, const struct tcase *t)
{
	static const uint32_t types[] = { TYPE_IPADDR, TYPE_IP6ADDR,
					  TYPE_INET_SERVICE };
	struct mnl_nlmsg_batch *b = batch_begin(c);
	struct nftnl_table *tb = nftnl_table_alloc();
	struct nftnl_chain *ch = nftnl_chain_alloc();
	struct nftnl_set *s = nftnl_set_alloc();
	struct nlmsghdr *nlh;

	nftnl_table_set_str(tb, NFTNL_TABLE_NAME, table);
	nlh = msg(c, b, NFT_MSG_NEWTABLE, NLM_F_CREATE);
	nftnl_table_nlmsg_build_payload(nlh, tb);
	mnl_nlmsg_batch_next(b);
	nftnl_table_free(tb);

	nftnl_set_set_str(s, NFTNL_SET_TABLE, table);
	nftnl_set_set_str(s, NFTNL_SET_NAME, "iv");
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS, NFT_SET_INTERVAL);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, types[t->kind]);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, key_len(t->kind));
	nftnl_set_set_u32(s, NFTNL_SET_ID, 1);
	nftnl_set_set_u32(s, NFTNL_SET_FAMILY, NFPROTO_INET);
	nlh = msg(c, b, NFT_MSG_NEWSET, NLM_F_CREATE);
	nftnl_set_nlmsg_build_payload(nlh, s);
	mnl_nlmsg_batch_next(b);
	nftnl_set_free(s);

	nftnl_chain_set_str(ch, NFTNL_CHAIN_TABLE, table);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_NAME, "out");
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TYPE, "filter");
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_HOOKNUM, NF_INET_LOCAL_OUT);
	nftnl_chain_set_s32(ch, NFTNL_CHAIN_PRIO, 0);
	nlh = msg(c, b, NFT_MSG_NEWCHAIN, NLM_F_CREATE);
	nftnl_chain_nlmsg_build_payload(nlh, ch);
	mnl_nlmsg_batch_next(b);
	nftnl_chain_free(ch);

	rule_msg(c, b, table, t->kind);
	if (t->have.lo && !t->one_batch &&
	    elems_msg(c, b, table, t, &t->have, 0))
		return -EINVAL;
	return batch_commit(c, b);
}

static void teardown(struct conn *c, const char *table)
{
	struct mnl_nlmsg_batch *b = batch_begin(c);
	struct nftnl_table *tb = nftnl_table_alloc();
	struct nlmsghdr *nlh;

	nftnl_table_set_str(tb, NFTNL_TABLE_NAME, table);
	nlh = msg(c, b, NFT_MSG_DELTABLE, 0);
	nftnl_table_nlmsg_build_payload(nlh, tb);
	mnl_nlmsg_batch_next(b);
	nftnl_table_free(tb);
	batch_commit(c, b);
}

/* A dump request's replies, each to cb. */
static int dump(struct conn *c, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char rbuf[1 << 16];
	uint32_t seq = nlh->nlmsg_seq;
	int ret;

	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ret = (int)mnl_socket_recvfrom(c->nl, rbuf, sizeof(rbuf));
		if (ret <= 0)
			return -errno;
		ret = mnl_cb_run(rbuf, (size_t)ret, seq, c->portid, cb, data);
	} while (ret > 0);
	return ret < 0 ? -errno : 0;
}

struct listing {
	enum key_kind kind;
	char text[512];
};

static int elem_cb(struct nftnl_set_elem *e, void *data)
{
	struct listing *l = data;
	uint32_t len = 0, flags = 0;
	const uint8_t *key = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
	char k[INET6_ADDRSTRLEN];
	size_t off = strlen(l->text);

	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS))
		flags = nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS);
	if (!key || len != key_len(l->kind))
		return 0;
	key_format(l->kind, key, k, sizeof(k));
	snprintf(l->text + off, sizeof(l->text) - off, "%s%s%s",
		 off ? " " : "", flags & NFT_SET_ELEM_INTERVAL_END ? "end:" : "",
		 k);
	return 0;
}

static int set_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_set *s = nftnl_set_alloc();

	if (nftnl_set_elems_nlmsg_parse(nlh, s) >= 0)
		nftnl_set_elem_foreach(s, elem_cb, data);
	nftnl_set_free(s);
	return MNL_CB_OK;
}

/* The set's elements as the kernel lists them, "end:" marking ends. */
static int list_elems(struct conn *c, const char *table, struct listing *l)
{
	char buf[1 << 12];
	struct nftnl_set *s = nftnl_set_alloc();
	struct nlmsghdr *nlh;
	int err;

	nftnl_set_set_str(s, NFTNL_SET_TABLE, table);
	nftnl_set_set_str(s, NFTNL_SET_NAME, "iv");
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM, NFPROTO_INET,
				    NLM_F_DUMP | NLM_F_ACK, c->seq++);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	nftnl_set_free(s);
	l->text[0] = '\0';
	err = dump(c, nlh, set_cb, l);
	if (!l->text[0])
		snprintf(l->text, sizeof(l->text), "(empty)");
	return err;
}

static int counter_expr_cb(struct nftnl_expr *e, void *data)
{
	if (!strcmp(nftnl_expr_get_str(e, NFTNL_EXPR_NAME), "counter"))
		*(uint64_t *)data = nftnl_expr_get_u64(e, NFTNL_EXPR_CTR_PACKETS);
	return 0;
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_rule *r = nftnl_rule_alloc();

	if (nftnl_rule_nlmsg_parse(nlh, r) >= 0)
		nftnl_expr_foreach(r, counter_expr_cb, data);
	nftnl_rule_free(r);
	return MNL_CB_OK;
}

static int read_counter(struct conn *c, const char *table, uint64_t *pkts)
{
	char buf[1 << 12];
	struct nftnl_rule *r = nftnl_rule_alloc();
	struct nlmsghdr *nlh;

	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, "out");
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETRULE, NFPROTO_INET,
				    NLM_F_DUMP | NLM_F_ACK, c->seq++);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	nftnl_rule_free(r);
	*pkts = UINT64_MAX;
	return dump(c, nlh, rule_cb, pkts);
}

/* One UDP datagram to the probe (an address, or a port on 127.0.0.1). */
static int send_probe(const struct tcase *t)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(9) };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(9) };
	const struct sockaddr *sa = (const struct sockaddr *)&a4;
	socklen_t salen = sizeof(a4);
	int fd, ret;

	if (t->kind == K_V6) {
		if (inet_pton(AF_INET6, t->probe, &a6.sin6_addr) != 1)
			return -1;
		sa = (const struct sockaddr *)&a6;
		salen = sizeof(a6);
	} else if (t->kind == K_PORT) {
		a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		a4.sin_port = htons((uint16_t)atoi(t->probe));
	} else if (inet_pton(AF_INET, t->probe, &a4.sin_addr) != 1) {
		return -1;
	}
	fd = socket(sa->sa_family, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	ret = (int)sendto(fd, "x", 1, 0, sa, salen);
	close(fd);
	return ret == 1 ? 0 : -1;
}

static const char *ivl_text(const struct ivl *v, char *buf, size_t len)
{
	if (!v->lo)
		return "nothing";
	snprintf(buf, len, "%s-%s", v->lo, v->hi ? v->hi : "(top)");
	return buf;
}

/* 0: the kernel did what it must, 1: it did not, 2: setup failed */
static int run_case(struct conn *c, const struct tcase *t, int num)
{
	char table[32], have[128], add[128], both[300];
	const char *h, *a;
	struct listing l = { .kind = t->kind };
	struct mnl_nlmsg_batch *b;
	uint64_t pkts;
	int err, bad;

	snprintf(table, sizeof(table), "openivl%d", num);
	teardown(c, table);
	err = setup(c, table, t);
	if (err) {
		printf("# %s: setup: %s\n", t->name, strerror(-err));
		return 2;
	}
	b = batch_begin(c);
	if ((t->one_batch && elems_msg(c, b, table, t, &t->have, 0)) ||
	    elems_msg(c, b, table, t, &t->add, t->wrap_end))
		return 2;
	err = batch_commit(c, b);
	if (list_elems(c, table, &l) || send_probe(t) ||
	    read_counter(c, table, &pkts) || pkts == UINT64_MAX) {
		printf("# %s: listing, probe or counter failed\n", t->name);
		teardown(c, table);
		return 2;
	}
	h = ivl_text(&t->have, have, sizeof(have));
	a = ivl_text(&t->add, add, sizeof(add));
	if (t->one_batch) {
		snprintf(both, sizeof(both), "%s, then %s, in one batch", h, a);
		h = "nothing";
		a = both;
	}
	printf("# %s: set %s, add %s%s: %s; set now: %s; %s %s (%s)\n",
	       t->name, h, a,
	       t->wrap_end ? " (+ wrapped end element)" : "",
	       err ? strerror(-err) : "accepted", l.text, t->probe,
	       pkts ? "matches" : "does not match",
	       t->in_union ? "in what was asked" : "in neither interval");
	bad = t->overlap ? !err : (err || !pkts);
	printf("%sok %d - %s: %s%s%s\n", bad ? "not " : "", num, t->name,
	       t->overlap ? "overlap refused" : "accepted, probe matches",
	       bad && t->known ? " # TODO known: " : "",
	       bad && t->known ? t->known : "");
	teardown(c, table);
	return bad && !t->known;
}

int main(void)
{
	struct conn c = { .seq = (uint32_t)time(NULL) };
	int n = (int)(sizeof(cases) / sizeof(cases[0])), worst = 0;

	c.nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!c.nl || mnl_socket_bind(c.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("open-interval: netlink");
		return 2;
	}
	c.portid = mnl_socket_get_portid(c.nl);
	printf("1..%d\n", n);
	for (int i = 0; i < n; i++) {
		int r = run_case(&c, &cases[i], i + 1);

		if (r > worst)
			worst = r;
	}
	mnl_socket_close(c.nl);
	return worst;
}
