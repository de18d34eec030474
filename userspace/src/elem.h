/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_H
#define NFTLAB_ELEM_H

#include <stddef.h>
#include <stdint.h>

#include "keytype.h"

/*
 * One set element in nft syntax, e.g. "10.0.0.1-10.0.0.5 . 80-90 timeout 30s".
 * key holds the range starts (or the values), key_end the range ends; for a
 * field without a range both are equal.
 */
/* Map data of an element: a verdict, or a value of the map's data type. */
struct elem_data {
	uint8_t value[16];	/* KT_DATA_NONE/verdict: unused */
	int32_t verdict;	/* NF_ACCEPT, NFT_JUMP, ... */
	char chain[256];	/* jump/goto target; last member */
};

struct elem {
	uint8_t key[KT_MAX_KEY];
	uint8_t key_end[KT_MAX_KEY];
	int is_range;		/* at least one field has start != end */
	int has_data;
	uint64_t timeout_ms;	/* 0: no per-element timeout */
	struct elem_data data;	/* maps: after " : "; chain is a string,
				 * bytes after its NUL are undefined */
};

int elem_parse(struct elem *e, const struct keytype *kt, const char *text,
	       char *why, size_t whylen);
/*
 * elem_parse(): elem_parse_simple() if it handles text, else _full().  The
 * fast path leaves key and key_end past kt->key_len, and data unless
 * has_data, as they were; _full() clears all of *e.
 */
int elem_parse_simple(struct elem *e, const struct keytype *kt,
		      const char *text);
/*
 * elem_parse_simple() of a line in an input buffer, text up to a '\n':
 * the line's length with its '\n' if the fast path takes the line as it
 * is, else 0 (nothing past the first byte it cannot take is read, so the
 * buffer only needs a NUL after its last byte).  A line it takes holds
 * printable characters only.
 */
size_t elem_scan_line(struct elem *e, const struct keytype *kt,
		      const char *text);
/*
 * The same element in the bytes the parsers define (see above): what the
 * fast path and elem_parse_full() must agree on.
 */
int elem_same(const struct keytype *kt, const struct elem *a,
	      const struct elem *b);
int elem_data_same(const struct elem_data *a, const struct elem_data *b);
int elem_parse_full(struct elem *e, const struct keytype *kt, const char *text,
		    char *why, size_t whylen);
int elem_format(const struct keytype *kt, const uint8_t *key,
		const uint8_t *key_end, char *buf, size_t len);
int elem_data_format(const struct keytype *kt, const struct elem_data *d,
		     char *buf, size_t len);
/* One field's value (be: a host-endian type stored big endian); snprintf() */
int elem_value_format(uint32_t type, int be, const uint8_t *v, char *buf,
		      size_t len);
/* Prefix length if [lo, hi] is exactly one CIDR block, else -1. */
int elem_range_prefix(const uint8_t *lo, const uint8_t *hi, uint32_t len);
int elem_key_inc(const struct keytype *kt, const uint8_t *in, uint8_t *out);
int elem_key_dec(const struct keytype *kt, const uint8_t *in, uint8_t *out);
/*
 * The largest timeout the kernel takes: nf_msecs_to_jiffies64() refuses
 * (ERANGE) milliseconds from U64_MAX / NSEC_PER_MSEC up, which it could
 * not turn into nanoseconds.  213503d23h34m33s708ms.
 */
#define TIMEOUT_MAX_MS 18446744073708ULL
/* nft's time syntax; -ERANGE beyond TIMEOUT_MAX_MS, -EINVAL not a time */
int timeout_parse(const char *s, uint64_t *ms);
/* "bad timeout 'S'" or "timeout 'S': value too large (at most ...)" */
int timeout_why(const char *s, int err, char *why, size_t whylen);
int timeout_format(uint64_t ms, char *buf, size_t len);
const char *elem_trim(char *line);

#endif
