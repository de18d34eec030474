/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_RULE_BUILD_H
#define NFTLAB_RULE_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "setinfo.h"

/*
 * The rules nftlab writes, as expressions (rule_build_exprs()): N lookups
 * of one set, verdict map or mark map on packet fields, then an optional
 * counter and verdict.  rule add builds them from its options; list
 * recognises a kernel rule as one of them by building the candidate and
 * comparing (rule_shape.c), so this file is the one description of them.
 */
enum rule_kind { RULE_SET, RULE_VMAP, RULE_MAP };

struct rule_shape {
	const struct setinfo *si;	/* NULL: no lookup */
	enum rule_kind kind;	/* --set, --vmap or --map */
	uint64_t lookups;
	unsigned int src;	/* bit i: key field i from the source field */
	int counter;
	int has_verdict;
	int32_t verdict;	/* NF_ACCEPT ... NFT_GOTO */
	const char *chain;	/* jump/goto target */
};

/*
 * The packet field a key field is matched against, as nft names it: proto
 * "ip", "ip6", "ether", "th" (a payload field src or dst) or "meta" (the
 * meta key src, dst NULL).
 */
struct rule_field {
	uint32_t type;
	const char *proto, *src, *dst;
};
const struct rule_field *rule_field(uint32_t type);

struct nftnl_rule;
/*
 * -EINVAL with the reason in why (a field the set's family cannot match);
 * why is a string after every return
 */
int rule_build_exprs(struct nftnl_rule *r, const struct rule_shape *s,
		     char *why, size_t whylen);

#endif
