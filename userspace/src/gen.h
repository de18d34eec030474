/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_GEN_H
#define NFTLAB_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "keytype.h"

/*
 * Element generator following the field formats of the kernel selftest
 * tools/testing/selftests/net/netfilter/nft_concat_range.sh:
 *   addr4  10.0.0.5 + n          addr6  2001:db8::%04x:%04x of n
 *   port   n % 65534 + 1         proto  a fixed protocol (udp)
 *   mac    00:01:%02x:%02x:%02x:%02x of n
 * With range size R > 0 each element is start-end with end = start + R for
 * every field (proto stays a single value), a range never wraps a port
 * (as in the selftest) and the next start is end + R; with R = 0 the
 * elements are single values start, start + 1, ...
 */
enum gen_fmt { GEN_ADDR4, GEN_ADDR6, GEN_PORT, GEN_PROTO, GEN_MAC };

/*
 * Text of one generated element: at most 5 fields of 39 bytes (an addr6
 * range) and " . "; gen_next() needs this much room.
 */
enum { GEN_TEXT_MAX = 512 };

struct gen {
	unsigned int nfields;
	enum gen_fmt f[KT_MAX_FIELDS];
	uint64_t count;
	uint64_t range;
	uint64_t done;		/* elements produced so far */
	uint64_t next;		/* start value of the next element */
	uint64_t max;		/* largest value every field can show */
	char proto[16];
};

int gen_init(struct gen *g, const char *fields, uint64_t start,
	     uint64_t count, uint64_t range, const char *proto,
	     char *why, size_t whylen);
int gen_next(struct gen *g, char *buf, size_t len);
int gen_matches(const struct gen *g, const struct keytype *kt);

/*
 * The next element as key bytes (kt->key_len, zero padded) instead of
 * text: what the text of gen_next() parses to, without writing and
 * parsing it.  Only for single values (range 0) of addr4, addr6, port
 * and mac fields, whose text always parses (gen_keys() says), into a key
 * type gen_matches().  1: written, 0: no more, <0: error, as gen_next().
 */
int gen_keys(const struct gen *g);
int gen_next_key(struct gen *g, const struct keytype *kt, uint8_t *key);

#endif
