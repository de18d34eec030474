/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_LIST_H
#define NFTLAB_ELEM_LIST_H

#include "setinfo.h"

struct ctx;

int elem_list(struct ctx *c, const struct setinfo *si, int json);

#endif
