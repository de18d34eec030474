/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_CHAININFO_H
#define NFTLAB_CHAININFO_H

#include <stdint.h>

#include "nl.h"

/*
 * Ask the kernel about one chain (NFT_MSG_GETCHAIN): 0 and *is_base
 * (it has a hook), -ENOENT (no such chain or table) or another negative
 * errno; the kernel's answer lands in e.
 */
int chaininfo_get(struct nl *nl, uint16_t family, const char *table,
		  const char *name, int *is_base, struct nl_err *e);

#endif
