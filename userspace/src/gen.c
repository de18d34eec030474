// SPDX-License-Identifier: GPL-2.0
/* Element generator mirroring nft_concat_range.sh's format_*() helpers. */
#include <errno.h>
#include <inttypes.h>
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

int gen_init(struct gen *g, const char *fields, uint64_t start,
	     uint64_t count, uint64_t range, const char *proto)
{
	const char *p = fields;

	memset(g, 0, sizeof(*g));
	g->count = count;
	g->range = range;
	g->next = start;
	snprintf(g->proto, sizeof(g->proto), "%s", proto ? proto : "udp");
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
			return -EINVAL;
		if (g->nfields == KT_MAX_FIELDS)
			return -E2BIG;
		g->f[g->nfields++] = gen_fields[i].fmt;
		p += len;
	}
	return g->nfields ? 0 : -EINVAL;
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

static int gen_format(const struct gen *g, enum gen_fmt f, uint64_t n,
		      char *buf, size_t len)
{
	uint64_t a;

	switch (f) {
	case GEN_ADDR4:
		a = n + 16777216ULL * 10 + 5;
		return snprintf(buf, len, "%u.%u.%u.%u",
				(unsigned int)(a / 16777216 % 256),
				(unsigned int)(a % 16777216 / 65536),
				(unsigned int)(a % 65536 / 256),
				(unsigned int)(a % 256));
	case GEN_ADDR6:
		return snprintf(buf, len, "2001:db8::%04x:%04x",
				(unsigned int)(n / 65536 % 65536),
				(unsigned int)(n % 65536));
	case GEN_PORT:
		return snprintf(buf, len, "%u", (unsigned int)(n % 65534 + 1));
	case GEN_PROTO:
		return snprintf(buf, len, "%s", g->proto);
	case GEN_MAC:
		return snprintf(buf, len, "00:01:%02x:%02x:%02x:%02x",
				(unsigned int)(n / 16777216 % 256),
				(unsigned int)(n % 16777216 / 65536),
				(unsigned int)(n % 65536 / 256),
				(unsigned int)(n % 256));
	}
	return -EINVAL;
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
	for (unsigned int i = 0; i < g->nfields; i++) {
		int n;

		if (i) {
			n = snprintf(buf + off, len - off, " . ");
			if (n < 0 || (size_t)n >= len - off)
				return -ENOSPC;
			off += (size_t)n;
		}
		n = gen_format(g, g->f[i], start, buf + off, len - off);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
		if (g->range && g->f[i] != GEN_PROTO) {
			if (off + 1 >= len)
				return -ENOSPC;
			buf[off++] = '-';
			n = gen_format(g, g->f[i], end, buf + off, len - off);
			if (n < 0 || (size_t)n >= len - off)
				return -ENOSPC;
			off += (size_t)n;
		}
	}
	g->done++;
	return 1;
}
