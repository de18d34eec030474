// SPDX-License-Identifier: GPL-2.0
/* Jump and goto targets, checked before sending (chain_target.h). */
#include <errno.h>
#include <stdio.h>

#include <linux/netfilter/nf_tables.h>

#include "chain_target.h"
#include "chaininfo.h"
#include "cmd.h"

int chain_target_note(struct ctx *c, uint16_t type, uint16_t family,
		      const char *table, const char *name, int is_base)
{
	struct setinfo si = { .family = family, .table = table, .name = name,
			      .flags = (uint32_t)is_base };

	if (type == NFT_MSG_DELCHAIN)
		return setreg_forget(&c->chains, family, table, name);
	return setreg_add(&c->chains, &si);
}

/*
 * Errors of the question to the kernel itself are left to the kernel's
 * answer to the transaction: only a sure "no" refuses the input.
 */
int chain_target_check(struct ctx *c, uint16_t family, const char *table,
		       const char *chain, char *why, size_t whylen)
{
	struct setinfo known = { 0 };
	struct nl_err e;
	int err, is_base = 0, deleted;

	err = setreg_find(&c->chains, family, table, chain, &known);
	deleted = err == -ENOENT;
	if (err == 1)
		is_base = (int)known.flags;
	else if (err == 0)
		err = chaininfo_get(&c->nl, family, table, chain, &is_base, &e);
	if (err == 0 && !known.name)
		err = chain_target_note(c, NFT_MSG_NEWCHAIN, family, table,
					chain, is_base);
	if (err == -ENOENT) {
		snprintf(why, whylen, "jump to '%s': no such chain in %s/%s%s",
			 chain, nl_family_name(family), table,
			 deleted ? " (deleted earlier in this script)" :
			 " (chain add it first)");
		return -EINVAL;
	}
	if (!err && is_base) {
		snprintf(why, whylen, "jump to '%s': base chain (has a hook); "
			 "jumps go to regular chains only", chain);
		return -EINVAL;
	}
	return err == -ENOMEM ? err : 0;
}

int chain_target_refuse(struct ctx *c, uint16_t family, const char *table,
			const char *chain)
{
	char why[400];
	int err = chain_target_check(c, family, table, chain, why, sizeof(why));

	return err == -EINVAL ? cmd_refuse(c, "%s", why) : err;
}
