// SPDX-License-Identifier: GPL-2.0
/*
 * Set element attributes written directly into the message (see
 * elem_enc.h): for a million elements the libnftnl object's set/unset
 * bookkeeping and the generic attribute calls cost more than the
 * attributes themselves.  Padding is written as zeros, as libmnl does.
 */
#include <endian.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "elem_enc.h"

static struct nlattr *tail(struct nlmsghdr *nlh)
{
	return (struct nlattr *)((char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len));
}

static void put(struct nlmsghdr *nlh, uint16_t type, const void *data,
		uint32_t len)
{
	struct nlattr *a = tail(nlh);
	uint32_t padded = NLA_ALIGN(len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, padded - len);
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_HDRLEN + padded;
}

static struct nlattr *nest_start(struct nlmsghdr *nlh, uint16_t type)
{
	struct nlattr *a = tail(nlh);

	a->nla_type = NLA_F_NESTED | type;
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_HDRLEN;
	return a;
}

static void nest_end(struct nlmsghdr *nlh, struct nlattr *a)
{
	a->nla_len = (uint16_t)((char *)tail(nlh) - (char *)a);
}

/* NEST { NFTA_DATA_VALUE } */
static void put_value(struct nlmsghdr *nlh, uint16_t type, const void *data,
		      uint32_t len)
{
	struct nlattr *n = nest_start(nlh, type);

	put(nlh, NFTA_DATA_VALUE, data, len);
	nest_end(nlh, n);
}

void elem_enc(struct nlmsghdr *nlh, const struct elem_attrs *a)
{
	struct nlattr *elem;

	if (!a->flags && !a->timeout_ms && !a->expiration_ms && !a->key_end &&
	    !a->data &&
	    a->key_len % NLA_ALIGNTO == 0) {
		elem_enc_key(nlh, a->key, a->key_len);
		return;
	}
	elem = nest_start(nlh, NFTA_LIST_ELEM);

	if (a->flags) {
		uint32_t v = htobe32(a->flags);

		put(nlh, NFTA_SET_ELEM_FLAGS, &v, sizeof(v));
	}
	if (a->timeout_ms) {
		uint64_t v = htobe64(a->timeout_ms);

		put(nlh, NFTA_SET_ELEM_TIMEOUT, &v, sizeof(v));
	}
	if (a->expiration_ms) {
		uint64_t v = htobe64(a->expiration_ms);

		put(nlh, NFTA_SET_ELEM_EXPIRATION, &v, sizeof(v));
	}
	put_value(nlh, NFTA_SET_ELEM_KEY, a->key, a->key_len);
	if (a->key_end)
		put_value(nlh, NFTA_SET_ELEM_KEY_END, a->key_end, a->key_len);
	if (a->data && a->verdict) {
		struct nlattr *data = nest_start(nlh, NFTA_SET_ELEM_DATA);
		struct nlattr *verdict = nest_start(nlh, NFTA_DATA_VERDICT);
		uint32_t code = htobe32((uint32_t)a->data->verdict);

		put(nlh, NFTA_VERDICT_CODE, &code, sizeof(code));
		if (a->data->verdict == NFT_JUMP || a->data->verdict == NFT_GOTO)
			put(nlh, NFTA_VERDICT_CHAIN, a->data->chain,
			    (uint32_t)strlen(a->data->chain) + 1);
		nest_end(nlh, verdict);
		nest_end(nlh, data);
	} else if (a->data) {
		put_value(nlh, NFTA_SET_ELEM_DATA, a->data->value, a->dlen);
	}
	nest_end(nlh, elem);
}
