/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_LOOKUP_H
#define NFTLAB_ELEM_LOOKUP_H

#include <stdint.h>

#include "nl.h"
#include "setinfo.h"

int elem_lookup(struct nl *nl, const struct setinfo *si, const uint8_t *key,
		const uint8_t *key_end, uint8_t *start, uint8_t *end,
		struct nl_err *ne);

#endif
