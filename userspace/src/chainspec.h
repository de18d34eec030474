/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_CHAINSPEC_H
#define NFTLAB_CHAINSPEC_H

#include <stddef.h>
#include <stdint.h>

/* Hooks: prerouting input forward output postrouting; ingress, egress. */
int chain_hook_parse(uint16_t family, const char *name, uint32_t *hook);
const char *chain_hook_name(uint16_t family, uint32_t hook);

/*
 * Priority names as nft 1.0.6 takes them: per family, some for one hook
 * only.  chain_prio_name(): the value of the name s[0..len); -EINVAL: no
 * such name, -EPERM: the family's, but not for this hook.
 */
int chain_prio_name(const char *s, size_t len, uint16_t family, uint32_t hook,
		    int32_t *prio);
const char *chain_prio_list(uint16_t family);
void chain_prio_format(uint16_t family, uint32_t hook, int32_t prio,
		       char *buf, size_t len);

#endif
