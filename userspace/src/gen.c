// SPDX-License-Identifier: GPL-2.0
/* Element generator mirroring nft_concat_range.sh's format_*() helpers. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

static const struct {
	const char *name;
	enum gen_fmt fmt;
	uint32_t type;		/* nft datatype id of the matching set field */
} gen_fields[] = {
	{ "addr4", GEN_ADDR4, 7 }, { "addr6", GEN_ADDR6, 8 },
	{ "port", GEN_PORT, 13 }, { "proto", GEN_PROTO, 12 },
	{ "mac", GEN_MAC, 9 },
};

static int gen_why(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int gen_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * Address octets in decimal, from a table (four per addr4 element): each
 * entry is the digits, padded, then their count in the last byte.
 */
static char octet_text[256][4];

static void octet_init(void)
{
	if (octet_text[255][3])
		return;
	for (unsigned int v = 0; v < 256; v++) {
		char *p = octet_text[v];
		int n = 0;

		if (v >= 100)
			p[n++] = (char)('0' + v / 100);
		if (v >= 10)
			p[n++] = (char)('0' + v / 10 % 10);
		p[n++] = (char)('0' + v % 10);
		p[3] = (char)n;
	}
}

/* Writes 4 bytes (the buffer has room), returns the digits' count. */
static int put_octet(char *p, unsigned int v)
{
	memcpy(p, octet_text[v], 4);
	return octet_text[v][3];
}

/* Largest n each format shows without wrapping. */
static uint64_t gen_fmt_max(enum gen_fmt f)
{
	switch (f) {
	case GEN_ADDR4:		/* 10.0.0.5 + n up to 255.255.255.255 */
		return UINT32_MAX - (16777216ULL * 10 + 5);
	default:		/* addr6, mac: 32 bits of n; port wraps by design */
		return UINT32_MAX;
	}
}

static int gen_parse_fields(struct gen *g, const char *fields, char *why,
			    size_t whylen)
{
	const char *p = fields;

	while (*p) {
		size_t len, i;

		while (*p == ' ' || *p == '.' || *p == ',')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " .,");
		for (i = 0; i < sizeof(gen_fields) / sizeof(gen_fields[0]); i++)
			if (strlen(gen_fields[i].name) == len &&
			    !strncmp(gen_fields[i].name, p, len))
				break;
		if (i == sizeof(gen_fields) / sizeof(gen_fields[0]))
			return gen_why(why, whylen, "unknown field (addr4, addr6, "
				       "port, proto, mac)");
		if (g->nfields == KT_MAX_FIELDS)
			return gen_why(why, whylen, "more than %d fields",
				       KT_MAX_FIELDS);
		g->f[g->nfields++] = gen_fields[i].fmt;
		p += len;
	}
	return g->nfields ? 0 : gen_why(why, whylen, "no fields");
}

static int gen_has(const struct gen *g, enum gen_fmt f)
{
	for (unsigned int i = 0; i < g->nfields; i++)
		if (g->f[i] == f)
			return 1;
	return 0;
}

/* The largest value the sequence reaches, exactly (see gen_next()). */
static uint64_t gen_last_value(uint64_t start, uint64_t count, uint64_t range)
{
	uint64_t s = start, e = start;

	for (uint64_t i = 0; i < count; i++) {
		e = s + range;
		if (e / 65534 > s / 65534)
			e = e + 1;
		s = e + range;
	}
	return e;
}

/* Refuse sequences that would run past a field's largest value. */
static int gen_check_values(const struct gen *g, uint64_t start, char *why,
			    size_t whylen)
{
	uint64_t n = g->count - 1, r = g->range, max = g->max, last;

	if (!g->count)
		return 0;
	if (start > max)
		goto wraps;
	if (!r) {
		if (n > max - start)
			goto wraps;
		return 0;
	}
	/* every element advances by 2R, or 2R + 1 at a port boundary */
	if (r > max - start || n > (max - start - r) / (2 * r))
		goto wraps;
	if (max - start - r >= 1 && n <= (max - start - r - 1) / (2 * r + 1))
		return 0;
	last = gen_last_value(start, g->count, r);
	if (last <= max)
		return 0;
wraps:
	return gen_why(why, whylen, "--start %llu, --count %llu, --range-size "
		       "%llu go past %llu, the largest value of these fields "
		       "(values would wrap)", (unsigned long long)start,
		       (unsigned long long)g->count, (unsigned long long)r,
		       (unsigned long long)max);
}

/*
 * --proto: one value, no range: a number, or a name (ipv6-icmp, TCP: its
 * '-' is part of it, as for the element parser), which the element parser
 * then looks up.
 */
static int gen_proto_ok(const char *proto, size_t size)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len = strlen(proto);

	if (!len || len >= size)
		return 0;
	if (!isalpha((unsigned char)proto[0]))
		return strspn(proto, "0123456789") == len;
	for (const char *p = proto; *p; p++)
		if (*p != '-' && !strchr(alnum, *p))
			return 0;
	return 1;
}

int gen_init(struct gen *g, const char *fields, uint64_t start,
	     uint64_t count, uint64_t range, const char *proto,
	     char *why, size_t whylen)
{
	int err;

	memset(g, 0, sizeof(*g));
	octet_init();
	g->count = count;
	g->range = range;
	g->next = start;
	err = gen_parse_fields(g, fields, why, whylen);
	if (err)
		return err;
	if (proto && !gen_has(g, GEN_PROTO))
		return gen_why(why, whylen, "--proto without a proto field");
	if (proto && !gen_proto_ok(proto, sizeof(g->proto)))
		return gen_why(why, whylen, "--proto: a protocol name or number "
			       "(at most %zu letters, digits and '-', a name "
			       "starting with a letter)", sizeof(g->proto) - 1);
	snprintf(g->proto, sizeof(g->proto), "%s", proto ? proto : "udp");
	if (range > 65533 && gen_has(g, GEN_PORT))
		return gen_why(why, whylen, "--range-size %llu: a port range "
			       "holds at most 65534 values (--range-size 65533)",
			       (unsigned long long)range);
	g->max = UINT32_MAX;
	for (unsigned int i = 0; i < g->nfields; i++)
		if (gen_fmt_max(g->f[i]) < g->max)
			g->max = gen_fmt_max(g->f[i]);
	return gen_check_values(g, start, why, whylen);
}

int gen_matches(const struct gen *g, const struct keytype *kt)
{
	if (g->nfields != kt->nfields)
		return 0;
	for (unsigned int i = 0; i < g->nfields; i++)
		for (size_t j = 0; j < sizeof(gen_fields) / sizeof(gen_fields[0]); j++)
			if (gen_fields[j].fmt == g->f[i] &&
			    gen_fields[j].type != kt->f[i].type)
				return 0;
	return 1;
}

/* Decimal, no padding; returns characters written (buffer has room). */
static int put_dec(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

/* Fixed-width lower-case hex. */
static int put_hex(char *p, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = width - 1; i >= 0; i--) {
		p[i] = digits[v & 15];
		v >>= 4;
	}
	return width;
}

/*
 * Formats as the selftest's printf calls do, without printf: this runs
 * once or twice per field for a million elements.
 */
static int gen_format(const struct gen *g, enum gen_fmt f, uint64_t n,
		      char *buf, size_t len)
{
	enum { GEN_FIELD_MAX = 48 };	/* longest field text + NUL */
	uint64_t a;
	char *p = buf;

	if (len < GEN_FIELD_MAX)
		return -ENOSPC;
	switch (f) {
	case GEN_ADDR4:
		a = n + 16777216ULL * 10 + 5;
		p += put_octet(p, (unsigned int)(a >> 24) & 255);
		*p++ = '.';
		p += put_octet(p, (unsigned int)(a >> 16) & 255);
		*p++ = '.';
		p += put_octet(p, (unsigned int)(a >> 8) & 255);
		*p++ = '.';
		p += put_octet(p, (unsigned int)a & 255);
		break;
	case GEN_ADDR6:
		memcpy(p, "2001:db8::", 10);
		p += 10;
		p += put_hex(p, n / 65536 % 65536, 4);
		*p++ = ':';
		p += put_hex(p, n % 65536, 4);
		break;
	case GEN_PORT:
		p += put_dec(p, n % 65534 + 1);
		break;
	case GEN_PROTO:
		a = strlen(g->proto);
		memcpy(p, g->proto, a);
		p += a;
		break;
	case GEN_MAC:
		memcpy(p, "00:01", 5);
		p += 5;
		for (int shift = 24; shift >= 0; shift -= 8) {
			*p++ = ':';
			p += put_hex(p, (n >> shift) & 0xff, 2);
		}
		break;
	}
	*p = '\0';
	return (int)(p - buf);
}

/* Writes the next element as nft text; 1: written, 0: no more, <0: error. */
int gen_next(struct gen *g, char *buf, size_t len)
{
	uint64_t start = g->next, end = start;
	size_t off = 0;

	if (g->done == g->count)
		return 0;
	if (g->range) {
		end = start + g->range;
		/* as the selftest: avoid negative or zero-sized port ranges */
		if (end / 65534 > start / 65534) {
			start = end;
			end = end + 1;
		}
		g->next = end + g->range;
	} else {
		g->next = start + 1;
	}
	if (end > g->max)
		return -ERANGE;	/* gen_init() refuses these */
	for (unsigned int i = 0; i < g->nfields; i++) {
		int n;

		if (i) {
			if (len - off < 4)
				return -ENOSPC;
			memcpy(buf + off, " . ", 3);
			off += 3;
		}
		n = gen_format(g, g->f[i], start, buf + off, len - off);
		if (n < 0)
			return n;
		off += (size_t)n;
		if (g->range && g->f[i] != GEN_PROTO) {
			if (off + 1 >= len)
				return -ENOSPC;
			buf[off++] = '-';
			n = gen_format(g, g->f[i], end, buf + off, len - off);
			if (n < 0)
				return n;
			off += (size_t)n;
		}
	}
	g->done++;
	return 1;
}

int gen_keys(const struct gen *g)
{
	return !g->range && !gen_has(g, GEN_PROTO);
}

/* Network byte order, as the kernel keeps addresses and ports. */
static void put_be32(uint8_t *out, uint32_t v)
{
	out[0] = (uint8_t)(v >> 24);
	out[1] = (uint8_t)(v >> 16);
	out[2] = (uint8_t)(v >> 8);
	out[3] = (uint8_t)v;
}

/* One field of value n, as parsing gen_format()'s text stores it. */
static void gen_key_field(enum gen_fmt f, uint64_t n, uint8_t *out)
{
	uint32_t a;

	switch (f) {
	case GEN_ADDR4:		/* gen_check_values(): no wrap */
		put_be32(out, (uint32_t)(n + 16777216ULL * 10 + 5));
		break;
	case GEN_ADDR6:		/* 2001:db8::%04x:%04x */
		memset(out, 0, 16);
		out[0] = 0x20;
		out[1] = 0x01;
		out[2] = 0x0d;
		out[3] = 0xb8;
		put_be32(out + 12, (uint32_t)n);
		break;
	case GEN_PORT:
		a = (uint32_t)(n % 65534 + 1);
		out[0] = (uint8_t)(a >> 8);
		out[1] = (uint8_t)a;
		break;
	case GEN_MAC:		/* 00:01:%02x:%02x:%02x:%02x */
		out[0] = 0x00;
		out[1] = 0x01;
		put_be32(out + 2, (uint32_t)n);
		break;
	case GEN_PROTO:		/* gen_keys() refuses it */
		break;
	}
}

int gen_next_key(struct gen *g, const struct keytype *kt, uint8_t *key)
{
	uint64_t n = g->next;

	if (g->done == g->count)
		return 0;
	if (!gen_keys(g) || g->nfields != kt->nfields)
		return -EINVAL;
	if (n > g->max)
		return -ERANGE;	/* gen_init() refuses these */
	g->next = n + 1;
	memset(key, 0, kt->key_len);
	for (unsigned int i = 0; i < g->nfields; i++)
		gen_key_field(g->f[i], n, key + kt->f[i].offset);
	g->done++;
	return 1;
}
