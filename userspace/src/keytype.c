// SPDX-License-Identifier: GPL-2.0
/* Set key types: parse "ipv4_addr . inet_service", map to kernel ids. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "keytype.h"

struct kt_desc {
	const char *name;
	uint32_t type;
	uint32_t len;
	enum kt_byteorder order;
};

/* nft datatype ids (nftables include/datatype.h, enum datatypes) */
static const struct kt_desc kt_descs[] = {
	{ "ipv4_addr",    7,  4, KT_BIG_ENDIAN },
	{ "ipv6_addr",    8, 16, KT_BIG_ENDIAN },
	{ "ether_addr",   9,  6, KT_BIG_ENDIAN },
	{ "inet_proto",  12,  1, KT_BIG_ENDIAN },
	{ "inet_service", 13, 2, KT_BIG_ENDIAN },
	{ "mark",        19,  4, KT_HOST_ENDIAN },
};

static const struct kt_desc *kt_desc_by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(kt_descs) / sizeof(kt_descs[0]); i++)
		if (strlen(kt_descs[i].name) == len &&
		    !strncmp(kt_descs[i].name, name, len))
			return &kt_descs[i];
	return NULL;
}

static const struct kt_desc *kt_desc_by_type(uint32_t type)
{
	for (size_t i = 0; i < sizeof(kt_descs) / sizeof(kt_descs[0]); i++)
		if (kt_descs[i].type == type)
			return &kt_descs[i];
	return NULL;
}

const char *keytype_field_name(uint32_t type)
{
	const struct kt_desc *d = kt_desc_by_type(type);

	return d ? d->name : "unknown";
}

enum kt_byteorder keytype_field_byteorder(uint32_t type)
{
	const struct kt_desc *d = kt_desc_by_type(type);

	return d ? d->order : KT_BIG_ENDIAN;
}

static int keytype_add(struct keytype *kt, const struct kt_desc *d)
{
	uint32_t padded = (d->len + 3) & ~3U;

	if (kt->nfields == KT_MAX_FIELDS || kt->key_len + padded > KT_MAX_KEY)
		return -E2BIG;
	kt->f[kt->nfields].type = d->type;
	kt->f[kt->nfields].len = d->len;
	kt->f[kt->nfields].offset = kt->key_len;
	kt->nfields++;
	kt->key_len += padded;
	return 0;
}

/* A single field is not padded: the key is just the value. */
static void keytype_finish(struct keytype *kt)
{
	if (kt->nfields == 1)
		kt->key_len = kt->f[0].len;
}

/* "ipv4_addr . inet_service": names separated by '.' (spaces optional). */
int keytype_parse(struct keytype *kt, const char *spec)
{
	const char *p = spec;
	int err;

	memset(kt, 0, sizeof(*kt));
	for (;;) {
		const struct kt_desc *d;
		const char *start;

		while (*p == ' ' || *p == '\t')
			p++;
		start = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '.')
			p++;
		d = kt_desc_by_name(start, (size_t)(p - start));
		if (!d)
			return -EINVAL;
		err = keytype_add(kt, d);
		if (err)
			return err;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p) {
			keytype_finish(kt);
			return 0;
		}
		if (*p != '.')
			return -EINVAL;
		p++;
	}
}

int keytype_from_id(struct keytype *kt, uint32_t id, uint32_t key_len)
{
	uint32_t types[KT_MAX_FIELDS];
	unsigned int n = 0;
	int err;

	memset(kt, 0, sizeof(*kt));
	while (id) {
		if (n == KT_MAX_FIELDS)
			return -EOPNOTSUPP;
		types[n++] = id & ((1U << KT_TYPE_BITS) - 1);
		id >>= KT_TYPE_BITS;
	}
	if (!n)
		return -EOPNOTSUPP;
	while (n--) {
		const struct kt_desc *d = kt_desc_by_type(types[n]);

		if (!d)
			return -EOPNOTSUPP;
		err = keytype_add(kt, d);
		if (err)
			return err;
	}
	keytype_finish(kt);
	if (key_len != kt->key_len)
		return -EOPNOTSUPP;
	return 0;
}

uint32_t keytype_id(const struct keytype *kt)
{
	uint32_t id = 0;

	for (unsigned int i = 0; i < kt->nfields; i++)
		id = (id << KT_TYPE_BITS) | kt->f[i].type;
	return id;
}

int keytype_format(const struct keytype *kt, char *buf, size_t len)
{
	size_t off = 0;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		int n = snprintf(buf + off, len - off, "%s%s", i ? " . " : "",
				 keytype_field_name(kt->f[i].type));

		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
	}
	return 0;
}

/* Map data "verdict" or one field type name; -EINVAL otherwise. */
int keytype_set_data(struct keytype *kt, const char *spec)
{
	const struct kt_desc *d;

	if (!strcmp(spec, "verdict")) {
		kt->dtype = KT_DATA_VERDICT;
		kt->dlen = 0;
		return 0;
	}
	d = kt_desc_by_name(spec, strlen(spec));
	if (!d)
		return -EINVAL;
	kt->dtype = d->type;
	kt->dlen = d->len;
	return 0;
}

/* From the kernel's NFTA_SET_DATA_TYPE and _LEN. */
int keytype_set_data_id(struct keytype *kt, uint32_t id, uint32_t len)
{
	const struct kt_desc *d;

	if (id == KT_DATA_VERDICT) {
		kt->dtype = id;
		kt->dlen = 0;
		return 0;
	}
	d = kt_desc_by_type(id);
	if (!d || d->len != len)
		return -EOPNOTSUPP;
	kt->dtype = id;
	kt->dlen = len;
	return 0;
}
