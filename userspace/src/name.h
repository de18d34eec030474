/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_NAME_H
#define NFTLAB_NAME_H

#include <stddef.h>

/*
 * Object names that nft can list back: 1-255 bytes (NFT_NAME_MAXLEN with
 * its NUL), a letter or '_' first, then letters, digits and _ - . /, and
 * not one of nft's keywords (which nft prints unquoted and then cannot
 * parse).  Device names: 1-15 bytes (IFNAMSIZ), no '/', ':' or blanks.
 */
enum { NAME_MAX_LEN = 255, DEV_NAME_MAX_LEN = 15 };

int name_check(const char *s, char *why, size_t whylen);
int dev_name_check(const char *s, char *why, size_t whylen);

#endif
