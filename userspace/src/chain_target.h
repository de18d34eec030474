/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_CHAIN_TARGET_H
#define NFTLAB_CHAIN_TARGET_H

#include <stddef.h>
#include <stdint.h>

/*
 * Jump and goto targets (of rules, verdict map elements and set sync),
 * checked before anything is sent: the kernel refuses a target that does
 * not exist (ENOENT, reported against the rule's own chain, which
 * misleads) or that is a base chain (EOPNOTSUPP).  What the run knows
 * about chains is in c->chains: declared or deleted earlier in a script
 * (chain_target_note()), or asked from the kernel once (chaininfo.c).
 * Its own file so that the element checks (elem_check.c), rule add and
 * set sync ask it without going through the chain command.
 */
struct ctx;

/* 0, or -EINVAL with the reason in why; -ENOMEM */
int chain_target_check(struct ctx *c, uint16_t family, const char *table,
		       const char *chain, char *why, size_t whylen);
/* chain_target_check(), the reason refused as a command's input */
int chain_target_refuse(struct ctx *c, uint16_t family, const char *table,
			const char *chain);
/* chain add (type NFT_MSG_NEWCHAIN) or del of a chain, for later checks */
int chain_target_note(struct ctx *c, uint16_t type, uint16_t family,
		      const char *table, const char *name, int is_base);

#endif
