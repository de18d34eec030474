/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_SETINFO_H
#define NFTLAB_SETINFO_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "keytype.h"
#include "nl.h"

/* What element commands need to know about an existing set. */
struct setinfo {
	uint16_t family;
	const char *table;
	const char *name;
	uint32_t flags;		/* NFT_SET_* */
	uint32_t size;		/* declared size, 0: none */
	uint64_t timeout_ms;	/* default element timeout, 0: none */
	int automerge;		/* nft's auto-merge (set user data) */
	struct keytype kt;
};

int setinfo_get(struct nl *nl, struct setinfo *si, struct nl_err *e);
struct nftnl_set;
int setinfo_from_set(struct setinfo *si, const struct nftnl_set *s,
		     const char **unknown);
int setinfo_is_concat_interval(const struct setinfo *si);
int setinfo_is_single_interval(const struct setinfo *si);
int elem_attr_format(const struct setinfo *si, const struct nlattr *elem,
		     char *buf, size_t len);
struct nlmsghdr;
int elem_attr_interval(const struct setinfo *si, const struct nlmsghdr *req,
		       const struct nlattr *elem, uint8_t *start, uint8_t *end);
int elem_attr_range(const struct setinfo *si, const struct nlattr *elem,
		    uint8_t *start, uint8_t *end);

#endif
