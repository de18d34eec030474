/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_LIST_H
#define NFTLAB_ELEM_LIST_H

#include <stdint.h>

#include "setinfo.h"

struct ctx;

int elem_list(struct ctx *c, const struct setinfo *si, int json);

/* elem_walk(): each element's key range, end = start for single values */
typedef void (*elem_visit_fn)(void *arg, const uint8_t *start,
			      const uint8_t *end);
struct nl;
int elem_walk(struct nl *nl, const struct setinfo *si, elem_visit_fn visit,
	      void *arg);

#endif
