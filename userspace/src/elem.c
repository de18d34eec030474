// SPDX-License-Identifier: GPL-2.0
/*
 * Set elements in nft syntax: parse text into key bytes, format key bytes
 * back into text (for error messages and "element get").
 *
 * Grammar (one element): FIELD [ . FIELD ]... [timeout TIME]
 *   FIELD := VALUE | VALUE-VALUE | VALUE/PREFIXLEN
 * Fields are separated by a '.' surrounded by blanks, as nft prints them.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <netdb.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "name.h"

/* verdict codes (linux/netfilter.h, nf_tables.h), no netlink headers here */
enum { V_DROP = 0, V_ACCEPT = 1, V_CONTINUE = -1, V_RETURN = -5,
       V_JUMP = -3, V_GOTO = -4 };

static const struct { const char *name; int32_t code; int chain; } verdicts[] = {
	{ "accept", V_ACCEPT, 0 }, { "drop", V_DROP, 0 },
	{ "continue", V_CONTINUE, 0 }, { "return", V_RETURN, 0 },
	{ "jump", V_JUMP, 1 }, { "goto", V_GOTO, 1 },
};

enum { ELEM_TEXT_MAX = 512 };	/* longest element text + 1 */

/* protocol names in messages and element get (nft lists /etc/protocols) */
static const struct { const char *name; uint8_t num; } protos[] = {
	{ "icmp", 1 }, { "igmp", 2 }, { "tcp", 6 }, { "udp", 17 },
	{ "gre", 47 }, { "esp", 50 }, { "ah", 51 }, { "icmpv6", 58 },
	{ "sctp", 132 }, { "udplite", 136 },
};

/*
 * Protocol names nft 1.0.6 knows as keywords, whatever /etc/protocols
 * holds (checked with an empty one); every other name is looked up there,
 * as nft does with getprotobyname(): names and aliases, case and all
 * (ipv6-icmp, ip, TCP; not Tcp).
 */
static const struct { const char *name; uint8_t num; } proto_keywords[] = {
	{ "icmp", 1 }, { "igmp", 2 }, { "tcp", 6 }, { "udp", 17 },
	{ "dccp", 33 }, { "esp", 50 }, { "ah", 51 }, { "icmpv6", 58 },
	{ "comp", 108 }, { "sctp", 132 }, { "udplite", 136 },
};

static int why_set(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Strict unsigned number: decimal or 0x hex, whole string. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * A port as nft 1.0.6 reads one: a number as parse_u64() takes it (0x hex,
 * a leading 0 octal: 010 is 8), else digits that are no octal number as
 * decimal (080 is 80, which nft gets from getaddrinfo()), else a service
 * name of /etc/services (http, ssh; tcp first, then udp).
 */
static int parse_port(const char *s, uint64_t *out)
{
	const struct servent *se;
	int err = parse_u64(s, 65535, out);
	char *end;

	if (err != -EINVAL)
		return err;
	if (isdigit((unsigned char)*s)) {
		errno = 0;
		*out = strtoull(s, &end, 10);
		if (errno || *end)
			return -EINVAL;
		return *out > 65535 ? -ERANGE : 0;
	}
	if (!isalpha((unsigned char)*s))
		return -EINVAL;
	se = getservbyname(s, "tcp");
	if (!se)
		se = getservbyname(s, "udp");
	if (!se)
		return -ENOENT;
	*out = ntohs((uint16_t)se->s_port);
	return 0;
}

/*
 * A protocol as nft 1.0.6 reads one: one of its keywords, a number as
 * parse_u64() takes it, else a name or alias of /etc/protocols.
 */
static int parse_proto(const char *s, uint64_t *out)
{
	const struct protoent *pe;
	int err;

	for (size_t i = 0; i < sizeof(proto_keywords) / sizeof(proto_keywords[0]);
	     i++) {
		if (!strcmp(proto_keywords[i].name, s)) {
			*out = proto_keywords[i].num;
			return 0;
		}
	}
	err = parse_u64(s, 255, out);
	if (err != -EINVAL || !isalpha((unsigned char)*s))
		return err;
	pe = getprotobyname(s);
	if (!pe || pe->p_proto < 0 || pe->p_proto > 255)
		return -ENOENT;
	*out = (uint64_t)pe->p_proto;
	return 0;
}

/*
 * A name with a '-' is one name to nft (its scanner reads a word that
 * starts with a letter, '-' and all): a range of names needs blanks.
 */
static const char *range_hint(const char *s)
{
	return strchr(s, '-') ? " (a range of names needs ' - ')" : "";
}

/* Dotted quad, as inet_pton(): four decimal octets, no leading zeros. */
static int parse_ipv4(const char *s, uint8_t *out)
{
	for (int i = 0; i < 4; i++) {
		unsigned int v = 0;
		const char *start = s;

		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (unsigned int)(*s++ - '0');
			if (v > 255)
				return -EINVAL;
		}
		if (s == start || (s - start > 1 && *start == '0'))
			return -EINVAL;
		out[i] = (uint8_t)v;
		if (i < 3 && *s++ != '.')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}

static int parse_ether(const char *s, uint8_t *out)
{
	for (int i = 0; i < 6; i++) {
		int digits = 0;
		unsigned int v = 0;

		while (isxdigit((unsigned char)*s) && digits < 3) {
			v = v * 16 + (unsigned int)(isdigit((unsigned char)*s) ?
				*s - '0' : tolower((unsigned char)*s) - 'a' + 10);
			s++;
			digits++;
		}
		if (!digits || digits > 2)
			return -EINVAL;
		out[i] = (uint8_t)v;
		if (i < 5 && *s++ != ':')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}

/* Parse one value of a field type into out (field length bytes). */
static int parse_value(uint32_t type, int be, const char *s, uint8_t *out,
		       char *why, size_t whylen)
{
	uint64_t v;
	int err;

	switch (type) {
	case TYPE_IPADDR:
		if (parse_ipv4(s, out))
			return why_set(why, whylen, "'%s' is not an IPv4 address", s);
		return 0;
	case TYPE_IP6ADDR:
		if (inet_pton(AF_INET6, s, out) != 1)
			return why_set(why, whylen, "'%s' is not an IPv6 address", s);
		return 0;
	case TYPE_ETHERADDR:
		if (parse_ether(s, out))
			return why_set(why, whylen, "'%s' is not an Ethernet address", s);
		return 0;
	case TYPE_INET_PROTOCOL:
		err = parse_proto(s, &v);
		if (err == -ERANGE)
			return why_set(why, whylen, "protocol %s out of range (0-255)", s);
		if (err == -ENOENT)
			return why_set(why, whylen, "'%s' is no protocol number or "
				       "name of /etc/protocols%s", s,
				       range_hint(s));
		if (err)
			return why_set(why, whylen, "'%s' is not a protocol", s);
		out[0] = (uint8_t)v;
		return 0;
	case TYPE_INET_SERVICE:
		err = parse_port(s, &v);
		if (err == -ERANGE)
			return why_set(why, whylen, "port %s out of range (0-65535)", s);
		if (err == -ENOENT)
			return why_set(why, whylen, "'%s' is no port number or "
				       "service name of /etc/services%s", s,
				       range_hint(s));
		if (err)
			return why_set(why, whylen, "'%s' is not a port number", s);
		out[0] = (uint8_t)(v >> 8);
		out[1] = (uint8_t)v;
		return 0;
	case TYPE_MARK: {
		uint32_t m;

		err = parse_u64(s, UINT32_MAX, &v);
		if (err == -ERANGE)
			return why_set(why, whylen, "mark %s out of range (32 bits)", s);
		if (err)
			return why_set(why, whylen, "'%s' is not a mark", s);
		m = be ? htonl((uint32_t)v) : (uint32_t)v;
		memcpy(out, &m, sizeof(m));	/* host order unless be */
		return 0;
	}
	}
	return why_set(why, whylen, "unsupported key type %u", type);
}

/* Compare two values of a field as numbers. */
static int value_cmp(uint32_t type, int be, const uint8_t *a,
		     const uint8_t *b, uint32_t len)
{
	if (type == TYPE_MARK && !be) {
		uint32_t x, y;

		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		return x < y ? -1 : x > y;
	}
	return memcmp(a, b, len);
}

static int parse_prefix(const struct kt_field *f, const char *addr,
			const char *plen, uint8_t *lo, uint8_t *hi,
			char *why, size_t whylen)
{
	uint64_t bits;
	int err;

	if (f->type != TYPE_IPADDR && f->type != TYPE_IP6ADDR)
		return why_set(why, whylen, "prefix on a %s field",
			       keytype_field_name(f->type));
	err = parse_value(f->type, 1, addr, lo, why, whylen);
	if (err)
		return err;
	if (parse_u64(plen, f->len * 8, &bits))
		return why_set(why, whylen, "bad prefix length '/%s'", plen);
	for (uint32_t i = 0; i < f->len; i++) {
		uint64_t keep = bits > i * 8 ? bits - i * 8 : 0;
		uint8_t mask = keep >= 8 ? 0xff : (uint8_t)(0xff << (8 - keep));

		lo[i] &= mask;
		hi[i] = lo[i] | (uint8_t)~mask;
	}
	return 0;
}

/*
 * Where a '-' in tok separates a range, as nft's scanner reads it: the
 * " - " tokenize() left of "A - B"; else, in a port or protocol that
 * starts with a letter, none (ftp-data, ipv6-icmp: one name); else the
 * first '-' after the first byte (20-21, 21-ssh, 10.0.0.1-10.0.0.9).
 * NULL: no range.  *seplen: the separator's length.
 */
static char *range_sep(uint32_t type, char *tok, size_t *seplen)
{
	char *sep = strstr(tok, " - ");

	*seplen = 3;
	if (sep)
		return sep;
	*seplen = 1;
	if ((type == TYPE_INET_SERVICE || type == TYPE_INET_PROTOCOL) &&
	    (isalpha((unsigned char)*tok) || *tok == '_'))
		return NULL;
	sep = strchr(tok, '-');
	return sep && sep != tok ? sep : NULL;
}

/* One field token: VALUE, VALUE-VALUE or ADDR/LEN. tok is modified. */
static int parse_field(const struct kt_field *f, int be, char *tok,
		       uint8_t *lo, uint8_t *hi, char *why, size_t whylen)
{
	size_t seplen;
	char *sep;
	int err;

	sep = range_sep(f->type, tok, &seplen);
	if (!sep && (sep = strchr(tok, '/'))) {
		*sep = '\0';
		return parse_prefix(f, tok, sep + 1, lo, hi, why, whylen);
	}
	if (sep) {
		*sep = '\0';
		sep += seplen;
		err = parse_value(f->type, be, tok, lo, why, whylen);
		if (!err)
			err = parse_value(f->type, be, sep, hi, why, whylen);
		if (err)
			return err;
		if (value_cmp(f->type, be, lo, hi, f->len) > 0)
			return why_set(why, whylen, "range %s-%s: start above end",
				       tok, sep);
		return 0;
	}
	err = parse_value(f->type, be, tok, lo, why, whylen);
	if (!err)
		memcpy(hi, lo, f->len);
	return err;
}

/* Split text into blank separated tokens, joining "A - B" into "A-B". */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return n;
		if (n == max)
			return -E2BIG;
		tok[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
		/*
		 * "A - B": glued back together as "A - B" (it fits: there
		 * were blanks on either side of the '-'), which
		 * parse_field() reads as a range even where "A-B" is a name
		 */
		if (n >= 3 && !strcmp(tok[n - 2], "-")) {
			char *a = tok[n - 3];
			size_t la = strlen(a);

			memcpy(a + la, " - ", 3);
			memmove(a + la + 3, tok[n - 1], strlen(tok[n - 1]) + 1);
			n -= 2;
		}
	}
}

/* The data after " : ": a verdict ("jump CHAIN") or one value. */
static int parse_data(struct elem *e, const struct keytype *kt, char **tok,
		      int ntok, char *why, size_t whylen)
{
	char nwhy[128];

	if (!ntok)
		return why_set(why, whylen, "missing data after ':'");
	e->has_data = 1;
	if (kt->dtype != KT_DATA_VERDICT) {
		if (ntok > 1)
			return why_set(why, whylen, "unexpected '%s'", tok[1]);
		return parse_value(kt->dtype, 0, tok[0], e->data.value, why,
				   whylen);
	}
	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		if (strcmp(verdicts[i].name, tok[0]))
			continue;
		if (ntok != 1 + verdicts[i].chain)
			return why_set(why, whylen, verdicts[i].chain ?
				       "%s needs one chain name" :
				       "unexpected words after '%s'", tok[0]);
		e->data.verdict = verdicts[i].code;
		if (!verdicts[i].chain)
			return 0;
		if (name_check(tok[1], nwhy, sizeof(nwhy)))
			return why_set(why, whylen, "chain: %s", nwhy);
		snprintf(e->data.chain, sizeof(e->data.chain), "%s", tok[1]);
		return 0;
	}
	return why_set(why, whylen, "'%s' is not a verdict (accept, drop, "
		       "continue, return, jump CHAIN, goto CHAIN)", tok[0]);
}

/*
 * Fast path for the plain forms bulk loads use (a million elements per
 * command): fields "V" or "V-V" joined by " . ", values IPv4 and IPv6
 * addresses, Ethernet addresses, decimal ports and protocols (numbers
 * without leading zeros, or a protocol name), then, for maps, " : " and
 * accept/drop/continue/return or one value.  Anything else (blanks other
 * than single spaces, prefixes, timeouts, hex or octal numbers, marks,
 * jump/goto, errors) returns -1 and elem_parse_full() decides.  When it
 * returns 0, *e is what elem_parse_full() gives (the fuzz target checks
 * this) in every byte the element's users read: key and key_end up to
 * key_len, is_range, has_data, timeout_ms and, if has_data, data.
 */

/* Decimal without leading zeros up to max; *s advanced. */
static int simple_dec(const char **s, uint32_t max, uint32_t *out)
{
	const char *p = *s;
	uint32_t v = 0;

	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (uint32_t)(*p++ - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	*s = p;
	return 0;
}

static int simple_hex(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * Where a value may end: a blank before " . " or " : ", a '-' before a
 * range end, the end of the text, or the '\n' ending a line that
 * elem_scan_line() parses in its input buffer.  The caller looks at what
 * follows, so a '\n' or NUL in the middle of an element is still refused.
 */
static int simple_end(char ch)
{
	return !ch || ch == ' ' || ch == '-' || ch == '\n';
}

/* One octet: 1-3 digits, no leading zero, at most 255; NULL if not. */
static inline const char *simple_octet(const char *p, uint8_t *out)
{
	unsigned int v = (unsigned char)p[0] - '0', d;

	if (v > 9)
		return NULL;
	if ((d = (unsigned char)p[1] - '0') > 9) {
		*out = (uint8_t)v;
		return p + 1;
	}
	if (!v)
		return NULL;
	v = v * 10 + d;
	if ((d = (unsigned char)p[2] - '0') > 9) {
		*out = (uint8_t)v;
		return p + 2;
	}
	v = v * 10 + d;
	if (v > 255)
		return NULL;
	*out = (uint8_t)v;
	return p + 3;
}

/*
 * Dotted quad as parse_ipv4() takes it; a fourth digit in an octet fails
 * on the '.' or end check.  Unrolled: this is most of the work of a
 * million-element load of IPv4 addresses.
 */
static inline const char *simple_ipv4(const char *p, uint8_t *out)
{
	if (!(p = simple_octet(p, &out[0])) || *p != '.' ||
	    !(p = simple_octet(p + 1, &out[1])) || *p != '.' ||
	    !(p = simple_octet(p + 1, &out[2])) || *p != '.' ||
	    !(p = simple_octet(p + 1, &out[3])))
		return NULL;
	return simple_end(*p) ? p : NULL;
}

/* One value of type up to simple_end(); *s advanced. */
static int simple_value(uint32_t type, const char **s, uint8_t *out)
{
	const char *p = *s;
	uint32_t v;

	switch (type) {
	case TYPE_IPADDR:
		p = simple_ipv4(p, out);
		if (!p)
			return -1;
		break;
	case TYPE_INET_SERVICE:
		if (simple_dec(&p, 65535, &v))
			return -1;
		out[0] = (uint8_t)(v >> 8);
		out[1] = (uint8_t)v;
		break;
	case TYPE_INET_PROTOCOL:
		if (*p >= '0' && *p <= '9') {
			if (simple_dec(&p, 255, &v))
				return -1;
			out[0] = (uint8_t)v;
			break;
		}
		/* a '-' after a name is part of it (range_sep()) */
		for (size_t i = 0;
		     i < sizeof(proto_keywords) / sizeof(proto_keywords[0]); i++) {
			size_t n = strlen(proto_keywords[i].name);

			if (!strncmp(p, proto_keywords[i].name, n) &&
			    simple_end(p[n]) && p[n] != '-') {
				out[0] = proto_keywords[i].num;
				p += n;
				break;
			}
		}
		if (p == *s)
			return -1;
		break;
	case TYPE_ETHERADDR:
		for (int i = 0; i < 6; i++) {
			int hi = simple_hex(*p), lo;

			if (hi < 0)
				return -1;
			p++;
			lo = simple_hex(*p);
			if (lo >= 0) {
				p++;
				hi = hi * 16 + lo;
			}
			out[i] = (uint8_t)hi;
			if (i < 5 && *p++ != ':')
				return -1;
		}
		break;
	case TYPE_IP6ADDR: {
		char tmp[INET6_ADDRSTRLEN];
		size_t n = 0;

		while (!simple_end(p[n]) && n < sizeof(tmp) - 1)
			n++;
		if (!n || n == sizeof(tmp) - 1)
			return -1;
		memcpy(tmp, p, n);
		tmp[n] = '\0';
		if (inet_pton(AF_INET6, tmp, out) != 1)
			return -1;
		p += n;
		break;
	}
	default:
		return -1;
	}
	if (!simple_end(*p))
		return -1;
	*s = p;
	return 0;
}

/* The rest of the element after its key at p: the end, or " : DATA". */
static const char *simple_data(struct elem *e, const struct keytype *kt,
			       const char *text, const char *p, char term)
{
	/* elem_parse_full() refuses texts this long */
	if (*p == term)
		return p - text < ELEM_TEXT_MAX ? p : NULL;
	if (!kt->dtype || strncmp(p, " : ", 3))
		return NULL;
	p += 3;
	e->has_data = 1;
	memset(&e->data, 0, offsetof(struct elem_data, chain) + 1);
	if (kt->dtype == KT_DATA_VERDICT) {
		for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
			size_t n = strlen(verdicts[i].name);

			if (!verdicts[i].chain && !strncmp(p, verdicts[i].name, n) &&
			    p[n] == term) {
				e->data.verdict = verdicts[i].code;
				p += n;
				return p - text < ELEM_TEXT_MAX ? p : NULL;
			}
		}
		return NULL;
	}
	if (kt->dtype == TYPE_MARK || simple_value(kt->dtype, &p, e->data.value))
		return NULL;
	return *p != term || p - text >= ELEM_TEXT_MAX ? NULL : p;
}

/* simple_elem() for any key type: fields in a loop. */
static const char *simple_fields(struct elem *e, const struct keytype *kt,
				 const char *text, char term)
{
	const char *p = text;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		const struct kt_field *f = &kt->f[i];
		uint8_t *lo = e->key + f->offset, *hi = e->key_end + f->offset;

		if (i && strncmp(p, " . ", 3))
			return NULL;
		p += i ? 3 : 0;
		/* the zero padding of a field to its 32-bit register */
		if (f->len % 4) {
			uint32_t k = f->len & ~3U;

			memset(lo + k, 0, 4);
			memset(hi + k, 0, 4);
		}
		if (simple_value(f->type, &p, lo))
			return NULL;
		if (*p == '-') {
			p++;
			if (simple_value(f->type, &p, hi) ||
			    memcmp(lo, hi, f->len) > 0)
				return NULL;
			if (memcmp(lo, hi, f->len))
				e->is_range = 1;
		} else if (f->len == 4) {
			memcpy(hi, lo, 4);
		} else {
			memcpy(hi, lo, f->len);
		}
	}
	return simple_data(e, kt, text, p, term);
}

/*
 * The fast path on text that ends in term ('\0', or '\n' for a line in
 * place); the end (the term byte) or NULL.  Only the bytes the element's
 * users read are written: no memset of the whole struct per element.
 * Inline, with the commonest bulk key, one IPv4 address, needing no field
 * loop; other keys, and IPv4 ranges, go to simple_fields().
 */
static inline const char *simple_elem(struct elem *e, const struct keytype *kt,
				      const char *text, char term)
{
	const char *p;

	e->is_range = 0;
	e->has_data = 0;
	e->timeout_ms = 0;
	if (kt->nfields == 1 && kt->f[0].type == TYPE_IPADDR &&
	    (p = simple_ipv4(text, e->key)) && *p != '-') {
		memcpy(e->key_end, e->key, 4);
		if (*p == term)		/* at most 15 bytes: not too long */
			return p;
		return simple_data(e, kt, text, p, term);
	}
	return simple_fields(e, kt, text, term);
}

int elem_parse_simple(struct elem *e, const struct keytype *kt,
		      const char *text)
{
	return simple_elem(e, kt, text, '\0') ? 0 : -1;
}

size_t elem_scan_line(struct elem *e, const struct keytype *kt,
		      const char *text)
{
	const char *end = simple_elem(e, kt, text, '\n');

	return end ? (size_t)(end - text) + 1 : 0;
}

int elem_data_same(const struct elem_data *a, const struct elem_data *b)
{
	return !memcmp(a->value, b->value, sizeof(a->value)) &&
	       a->verdict == b->verdict && !strcmp(a->chain, b->chain);
}

int elem_same(const struct keytype *kt, const struct elem *a,
	      const struct elem *b)
{
	return !memcmp(a->key, b->key, kt->key_len) &&
	       !memcmp(a->key_end, b->key_end, kt->key_len) &&
	       a->is_range == b->is_range && a->has_data == b->has_data &&
	       a->timeout_ms == b->timeout_ms &&
	       (!a->has_data || elem_data_same(&a->data, &b->data));
}

int elem_parse(struct elem *e, const struct keytype *kt, const char *text,
	       char *why, size_t whylen)
{
	if (elem_parse_simple(e, kt, text) == 0)
		return 0;
	return elem_parse_full(e, kt, text, why, whylen);
}

int elem_parse_full(struct elem *e, const struct keytype *kt, const char *text,
		    char *why, size_t whylen)
{
	char copy[ELEM_TEXT_MAX];
	char *tok[3 * KT_MAX_FIELDS + 8];
	unsigned int field = 0;
	int ntok, i = 0;

	if (strlen(text) >= sizeof(copy))
		return why_set(why, whylen, "element too long");
	memcpy(copy, text, strlen(text) + 1);
	memset(e, 0, sizeof(*e));
	ntok = tokenize(copy, tok, (int)(sizeof(tok) / sizeof(tok[0])));
	if (ntok < 0)
		return why_set(why, whylen, "too many tokens");
	if (ntok == 0)
		return why_set(why, whylen, "empty element");

	for (;;) {
		const struct kt_field *f = &kt->f[field];
		int err;

		if (i == ntok || !strcmp(tok[i], ".") || !strcmp(tok[i], "timeout"))
			return why_set(why, whylen, "missing %s value",
				       keytype_field_name(f->type));
		err = parse_field(f, kt->interval, tok[i++], e->key + f->offset,
				  e->key_end + f->offset, why, whylen);
		if (err)
			return err;
		if (memcmp(e->key + f->offset, e->key_end + f->offset, f->len))
			e->is_range = 1;
		if (++field == kt->nfields)
			break;
		if (i == ntok || strcmp(tok[i], "."))
			return why_set(why, whylen,
				       "key has %u field(s), set type has %u",
				       field, kt->nfields);
		i++;
	}
	while (i < ntok) {
		if (!strcmp(tok[i], ":") && kt->dtype) {
			return parse_data(e, kt, tok + i + 1, ntok - i - 1, why,
					  whylen);
		} else if (!strcmp(tok[i], ".")) {
			return why_set(why, whylen,
				       "key has more than %u field(s)",
				       kt->nfields);
		} else if (!strcmp(tok[i], "timeout") && i + 1 < ntok) {
			/* "timeout 0s": none, the set's default (as nft) */
			int err = timeout_parse(tok[i + 1], &e->timeout_ms);

			if (err)
				return timeout_why(tok[i + 1], err, why, whylen);
			i += 2;
		} else {
			return why_set(why, whylen, "unexpected '%s'", tok[i]);
		}
	}
	return 0;
}

int elem_value_format(uint32_t type, int be, const uint8_t *v, char *buf,
		      size_t len)
{
	char tmp[INET6_ADDRSTRLEN];
	uint32_t m;

	switch (type) {
	case TYPE_IPADDR:
		inet_ntop(AF_INET, v, tmp, sizeof(tmp));
		return snprintf(buf, len, "%s", tmp);
	case TYPE_IP6ADDR:
		inet_ntop(AF_INET6, v, tmp, sizeof(tmp));
		return snprintf(buf, len, "%s", tmp);
	case TYPE_ETHERADDR:
		return snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
				v[0], v[1], v[2], v[3], v[4], v[5]);
	case TYPE_INET_PROTOCOL:
		for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
			if (protos[i].num == v[0])
				return snprintf(buf, len, "%s", protos[i].name);
		return snprintf(buf, len, "%u", v[0]);
	case TYPE_INET_SERVICE:
		return snprintf(buf, len, "%u", (unsigned int)(v[0] << 8 | v[1]));
	case TYPE_MARK:
		memcpy(&m, v, 4);
		return snprintf(buf, len, "0x%08x", be ? ntohl(m) : m);
	}
	return snprintf(buf, len, "?");
}

int elem_data_format(const struct keytype *kt, const struct elem_data *d,
		     char *buf, size_t len)
{
	int n = -1;

	if (kt->dtype != KT_DATA_VERDICT) {
		n = elem_value_format(kt->dtype, 0, d->value, buf, len);
	} else {
		for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
			if (verdicts[i].code == d->verdict)
				n = snprintf(buf, len, "%s%s%s", verdicts[i].name,
					     verdicts[i].chain ? " " : "",
					     verdicts[i].chain ? d->chain : "");
	}
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* Prefix length if [lo, hi] is exactly one CIDR block, else -1. */
int elem_range_prefix(const uint8_t *lo, const uint8_t *hi, uint32_t len)
{
	uint32_t bits = len * 8, p = 0;

	while (p < bits && !((lo[p / 8] ^ hi[p / 8]) & (0x80 >> (p % 8))))
		p++;
	for (uint32_t b = p; b < bits; b++) {
		uint8_t mask = (uint8_t)(0x80 >> (b % 8));

		if ((lo[b / 8] & mask) || !(hi[b / 8] & mask))
			return -1;
	}
	return (int)p;
}

int elem_format(const struct keytype *kt, const uint8_t *key,
		const uint8_t *key_end, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < kt->nfields; i++) {
		const struct kt_field *f = &kt->f[i];
		int n;

		if (i) {
			n = snprintf(buf + off, len - off, " . ");
			if (n < 0 || (size_t)n >= len - off)
				return -ENOSPC;
			off += (size_t)n;
		}
		/*
		 * a range of protocols in numbers, as nft lists it: "tcp-udp"
		 * would read back as one name (range_sep())
		 */
		if (f->type == TYPE_INET_PROTOCOL && key_end &&
		    key[f->offset] != key_end[f->offset])
			n = snprintf(buf + off, len - off, "%u", key[f->offset]);
		else
			n = elem_value_format(f->type, kt->interval,
					      key + f->offset, buf + off, len - off);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
		if (key_end && memcmp(key + f->offset, key_end + f->offset, f->len)) {
			int plen = -1;

			/* as nft lists them: address blocks as prefixes */
			if (f->type == TYPE_IPADDR || f->type == TYPE_IP6ADDR)
				plen = elem_range_prefix(key + f->offset,
						    key_end + f->offset, f->len);
			if (plen >= 0) {
				n = snprintf(buf + off, len - off, "/%d", plen);
				if (n < 0 || (size_t)n >= len - off)
					return -ENOSPC;
				off += (size_t)n;
				continue;
			}
			if (off + 1 >= len)
				return -ENOSPC;
			buf[off++] = '-';
			if (f->type == TYPE_INET_PROTOCOL)
				n = snprintf(buf + off, len - off, "%u",
					     key_end[f->offset]);
			else
				n = elem_value_format(f->type, kt->interval,
						      key_end + f->offset,
						      buf + off, len - off);
			if (n < 0 || (size_t)n >= len - off)
				return -ENOSPC;
			off += (size_t)n;
		}
	}
	return 0;
}

/*
 * Single-field interval sets store [start, end + 1) as two elements; these
 * step a key by one in its own byte order. -ERANGE on wrap-around.
 */
static int key_step(const struct keytype *kt, const uint8_t *in, uint8_t *out,
		    int delta)
{
	const struct kt_field *f = &kt->f[0];

	memcpy(out, in, kt->key_len);
	if (f->type == TYPE_MARK && !kt->interval) {
		uint32_t m;

		memcpy(&m, out, 4);
		if ((delta > 0 && m == UINT32_MAX) || (delta < 0 && m == 0))
			return -ERANGE;
		m += (uint32_t)delta;
		memcpy(out, &m, 4);
		return 0;
	}
	for (int i = (int)f->len - 1; i >= 0; i--) {
		uint8_t stop = delta > 0 ? 0xff : 0x00;

		if (out[i] != stop) {
			out[i] = (uint8_t)(out[i] + delta);
			return 0;
		}
		out[i] = (uint8_t)~stop;
	}
	return -ERANGE;
}

int elem_key_inc(const struct keytype *kt, const uint8_t *in, uint8_t *out)
{
	return key_step(kt, in, out, 1);
}

int elem_key_dec(const struct keytype *kt, const uint8_t *in, uint8_t *out)
{
	return key_step(kt, in, out, -1);
}

/* nft time syntax: 1d2h3m4s500ms, or a plain number of seconds. */
int timeout_parse(const char *s, uint64_t *ms)
{
	uint64_t total = 0;

	if (!*s)
		return -EINVAL;
	while (*s) {
		uint64_t v = 0, unit;

		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		while (isdigit((unsigned char)*s)) {
			if (v > UINT64_MAX / 10 - 10)
				return -ERANGE;
			v = v * 10 + (uint64_t)(*s++ - '0');
		}
		if (!strncmp(s, "ms", 2)) {
			unit = 1;
			s += 2;
		} else if (*s == 's' || !*s) {
			unit = 1000;
			s += *s ? 1 : 0;
		} else if (*s == 'm') {
			unit = 60000;
			s++;
		} else if (*s == 'h') {
			unit = 3600000;
			s++;
		} else if (*s == 'd') {
			unit = 86400000;
			s++;
		} else {
			return -EINVAL;
		}
		if (v > (UINT64_MAX - total) / unit)
			return -ERANGE;
		total += v * unit;
	}
	if (total > TIMEOUT_MAX_MS)
		return -ERANGE;
	*ms = total;
	return 0;
}

int timeout_why(const char *s, int err, char *why, size_t whylen)
{
	char max[64];

	if (err != -ERANGE)
		return why_set(why, whylen, "bad timeout '%s'", s);
	timeout_format(TIMEOUT_MAX_MS, max, sizeof(max));
	return why_set(why, whylen, "timeout '%s': value too large (at most "
		       "%s)", s, max);
}

int timeout_format(uint64_t ms, char *buf, size_t len)
{
	static const struct { uint64_t ms; const char *unit; } units[] = {
		{ 86400000, "d" }, { 3600000, "h" }, { 60000, "m" },
		{ 1000, "s" }, { 1, "ms" },
	};
	size_t off = 0;

	buf[0] = '\0';
	if (!ms)
		return snprintf(buf, len, "0s") < (int)len ? 0 : -ENOSPC;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t n = ms / units[i].ms;
		int w;

		if (!n)
			continue;
		ms -= n * units[i].ms;
		w = snprintf(buf + off, len - off, "%" PRIu64 "%s", n, units[i].unit);
		if (w < 0 || (size_t)w >= len - off)
			return -ENOSPC;
		off += (size_t)w;
	}
	return 0;
}

/* isspace() of the C locale (nftlab never calls setlocale()) */
static int blank(char ch)
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* Strip a '#' comment, surrounding blanks and one trailing ','. */
const char *elem_trim(char *line)
{
	char *end;

	/* the common line: no '#', no blank at either end, no ',' */
	if (!strchr(line, '#') && *line && !blank(*line)) {
		end = line + strlen(line);
		if (!blank(end[-1]) && end[-1] != ',')
			return line;
	}

	end = strchr(line, '#');
	if (end)
		*end = '\0';
	while (isspace((unsigned char)*line))
		line++;
	end = line + strlen(line);
	while (end > line && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (end > line && end[-1] == ',')
		*--end = '\0';
	while (end > line && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return line;
}
