/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_NFT_ELEM_H
#define NFTLAB_NFT_ELEM_H

#include <stddef.h>

#include "elem_list.h"

/*
 * Set elements as nft 1.0.6 lists them (nft list, nft -j list), for
 * nftlab list.  The same fields as elem_format() (element list, the
 * syntax nftlab reads) with nft's differences: protocol names from
 * /etc/protocols (numbers inside ranges), marks as prefixes where a range
 * is one; in JSON ports, marks and unnamed protocols are numbers.
 */
/* "10.0.0.0/8 . 80-90 counter packets 0 bytes 0 timeout 1h expires 59m : accept" */
int nft_elem_text(const struct setinfo *si, const struct elem_raw *e,
		  char *buf, size_t len);
/* the element as nft -j prints it, on stdout */
void nft_elem_json(const struct setinfo *si, const struct elem_raw *e);
/* nft's time_print(): "1d2h3m4s5ms", nothing for 0 */
void nft_time_text(uint64_t ms, char *buf, size_t len);

#endif
