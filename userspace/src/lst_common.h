/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_LST_COMMON_H
#define NFTLAB_LST_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "lst.h"

/* What the text and JSON printers of nftlab list both need (lst_common.c). */
int lst_set_in(const struct lst_set *ls, uint16_t family, const char *table);
int lst_chain_in(const struct nftnl_chain *ch, uint16_t family,
		 const char *table);
int lst_obj_in(struct nftnl_obj *o, uint16_t family, const char *table);
int lst_rule_in(const struct lst_rule *lr, const struct nftnl_chain *ch);

uint64_t lst_set_timeout(const struct lst_set *ls);	/* ms, 0: none */
uint32_t lst_set_gc(const struct lst_set *ls);		/* ms, 0: none */
int lst_set_policy_memory(const struct lst_set *ls);
const char *lst_data_type(const struct keytype *kt);	/* "verdict", "mark" */
/* nft's calculate_delim(): elements per line of "elements = { ... }" */
int lst_elems_per_line(const struct lst_set *ls);

void lst_rule_counter(const struct lst_rule *lr, uint64_t *packets,
		      uint64_t *bytes);
/* "accept", "jump other" */
int lst_verdict_text(const struct rule_shape *s, char *buf, size_t len);

#endif
