/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_ENC_H
#define NFTLAB_ELEM_ENC_H

#include <stdint.h>

#include <linux/netlink.h>

#include "elem.h"

/*
 * One set element as netlink attributes, written straight after the end
 * of a message: the NFTA_LIST_ELEM nest that libnftnl's
 * nftnl_set_elem_nlmsg_build() writes, byte for byte (tests/unit/
 * test_enc.c compares them), without a libnftnl object per element.
 * Attribute order as libnftnl: FLAGS, TIMEOUT, KEY, KEY_END, DATA.
 */
struct elem_attrs {
	const uint8_t *key;		/* key_len bytes */
	const uint8_t *key_end;		/* NULL: no NFTA_SET_ELEM_KEY_END */
	uint32_t key_len;
	uint32_t flags;			/* NFTA_SET_ELEM_FLAGS, 0: none */
	uint64_t timeout_ms;		/* NFTA_SET_ELEM_TIMEOUT, 0: none */
	const struct elem_data *data;	/* NULL: no NFTA_SET_ELEM_DATA */
	int verdict;			/* data is a verdict, else dlen bytes */
	uint32_t dlen;
};

/* Longest element elem_enc() writes (64-byte keys, a 256-byte chain). */
enum { ELEM_ENC_MAX = 640 };

/* Append the element to nlh (ELEM_ENC_MAX bytes of room after it). */
void elem_enc(struct nlmsghdr *nlh, const struct elem_attrs *a);

#endif
