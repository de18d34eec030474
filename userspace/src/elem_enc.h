/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_ENC_H
#define NFTLAB_ELEM_ENC_H

#include <stdint.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/netfilter/nf_tables.h>

#include "elem.h"

/*
 * One set element as netlink attributes, written straight after the end
 * of a message: the NFTA_LIST_ELEM nest that libnftnl's
 * nftnl_set_elem_nlmsg_build() writes, byte for byte (tests/unit/
 * test_enc.c compares them), without a libnftnl object per element.
 * Attribute order as libnftnl: FLAGS, TIMEOUT, EXPIRATION, KEY, KEY_END,
 * DATA.
 */
struct elem_attrs {
	const uint8_t *key;		/* key_len bytes */
	const uint8_t *key_end;		/* NULL: no NFTA_SET_ELEM_KEY_END */
	uint32_t key_len;
	uint32_t flags;			/* NFTA_SET_ELEM_FLAGS, 0: none */
	uint64_t timeout_ms;		/* NFTA_SET_ELEM_TIMEOUT, 0: none */
	uint64_t expiration_ms;		/* NFTA_SET_ELEM_EXPIRATION, 0: none */
	const struct elem_data *data;	/* NULL: no NFTA_SET_ELEM_DATA */
	int verdict;			/* data is a verdict, else dlen bytes */
	uint32_t dlen;
};

/* Longest element elem_enc() writes (64-byte keys, a 256-byte chain). */
enum { ELEM_ENC_MAX = 640 };

/* Append the element to nlh (ELEM_ENC_MAX bytes of room after it). */
void elem_enc(struct nlmsghdr *nlh, const struct elem_attrs *a);

/*
 * elem_enc() of the bulk case, a key alone whose key_len is a multiple of
 * 4 (no attribute padding: concatenations, IPv4 and IPv6 addresses, marks;
 * not a single 2-byte port or 6-byte ether_addr): ELEM { KEY { VALUE } }
 * in one go, inline in the loops that write a million of them.
 */
static inline void elem_enc_key(struct nlmsghdr *nlh, const uint8_t *key,
				uint32_t key_len)
{
	struct nlattr *h = (struct nlattr *)((char *)nlh +
					     NLMSG_ALIGN(nlh->nlmsg_len));
	uint16_t vlen = (uint16_t)(NLA_HDRLEN + key_len);

	h[0].nla_type = NLA_F_NESTED | NFTA_LIST_ELEM;
	h[0].nla_len = (uint16_t)(vlen + 2 * NLA_HDRLEN);
	h[1].nla_type = NLA_F_NESTED | NFTA_SET_ELEM_KEY;
	h[1].nla_len = (uint16_t)(vlen + NLA_HDRLEN);
	h[2].nla_type = NFTA_DATA_VALUE;
	h[2].nla_len = vlen;
	if (key_len == 4)	/* a constant size is a plain move */
		memcpy(&h[3], key, 4);
	else
		memcpy(&h[3], key, key_len);
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + vlen + 2 * NLA_HDRLEN;
}

#endif
