/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_RULE_SHAPE_H
#define NFTLAB_RULE_SHAPE_H

#include "rule_build.h"

/*
 * A kernel rule as one of the rules nftlab writes: its set, lookups,
 * fields, counter and verdict are read off its expressions, the rule
 * those options make is built (rule_build_exprs()) and compared with it
 * expression by expression.  0: *s describes r exactly (s->chain points
 * into r); -ENOENT: r is no rule nftlab writes.
 */
typedef const struct setinfo *(*rule_set_fn)(void *arg, const char *name);
struct nftnl_rule;
int rule_shape_of(struct nftnl_rule *r, rule_set_fn find, void *arg,
		  struct rule_shape *s);

#endif
