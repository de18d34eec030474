// SPDX-License-Identifier: GPL-2.0
/* Set elements as nft 1.0.6 lists them (nft_elem.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "json_out.h"
#include "nft_elem.h"

/* protocol names as nft prints them: /etc/protocols; NULL: a number */
static const char *proto_name(uint8_t num, int numeric)
{
	const struct protoent *p = numeric ? NULL : getprotobynumber(num);

	return p ? p->p_name : NULL;
}

/* nft prints ranges of these types as prefixes where they are one */
static int has_prefix(uint32_t type)
{
	return type == TYPE_IPADDR || type == TYPE_IP6ADDR || type == TYPE_MARK;
}

static int value_text(uint32_t type, int be, const uint8_t *v, int numeric,
		      char *buf, size_t len)
{
	const char *name;

	if (type != TYPE_INET_PROTOCOL)
		return elem_value_format(type, be, v, buf, len);
	name = proto_name(v[0], numeric);
	return name ? snprintf(buf, len, "%s", name) :
		      snprintf(buf, len, "%u", v[0]);
}

/* One field: a value, VALUE/LEN or LOW-HIGH (protocols numeric). */
static int field_text(const struct keytype *kt, const struct kt_field *f,
		      const uint8_t *a, const uint8_t *b, char *buf, size_t len)
{
	int n, m, plen;

	if (!memcmp(a, b, f->len))
		return value_text(f->type, kt->interval, a, 0, buf, len);
	plen = has_prefix(f->type) ? elem_range_prefix(a, b, f->len) : -1;
	n = value_text(f->type, kt->interval, a, plen < 0, buf, len);
	if (n < 0 || (size_t)n + 1 >= len)
		return -1;
	if (plen >= 0) {
		m = snprintf(buf + n, len - (size_t)n, "/%d", plen);
	} else {
		buf[n++] = '-';
		m = value_text(f->type, kt->interval, b, 1, buf + n,
			       len - (size_t)n);
	}
	return m < 0 || (size_t)(n + m) >= len ? -1 : n + m;
}

static int key_text(const struct keytype *kt, const uint8_t *key,
		    const uint8_t *key_end, char *buf, size_t len)
{
	size_t off = 0;

	for (unsigned int i = 0; i < kt->nfields; i++) {
		const struct kt_field *f = &kt->f[i];
		int n = snprintf(buf + off, len - off, "%s", i ? " . " : "");

		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
		n = field_text(kt, f, key + f->offset, key_end + f->offset,
			       buf + off, len - off);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
	}
	return (int)off;
}

void nft_time_text(uint64_t ms, char *buf, size_t len)
{
	buf[0] = '\0';
	if (ms)
		timeout_format(ms, buf, len);
}

static int data_text(const struct keytype *kt, const struct elem_data *d,
		     char *buf, size_t len)
{
	if (kt->dtype == KT_DATA_VERDICT)
		return elem_data_format(kt, d, buf, len) ? -1 : 0;
	return value_text(kt->dtype, 0, d->value, 0, buf, len) < 0 ? -1 : 0;
}

int nft_elem_text(const struct setinfo *si, const struct elem_raw *e,
		  char *buf, size_t len)
{
	char tmo[64], exp[64], data[300] = "";
	int n;

	nft_time_text(e->timeout_ms, tmo, sizeof(tmo));
	nft_time_text(e->expire_ms, exp, sizeof(exp));
	if (key_text(&si->kt, e->key, e->key_end, buf, len) < 0 ||
	    (e->has_data && data_text(&si->kt, &e->data, data, sizeof(data))))
		return -ENOSPC;
	n = (int)strlen(buf);
	if (e->has_counter)
		n += snprintf(buf + n, len - (size_t)n, " counter packets %" PRIu64
			      " bytes %" PRIu64, e->packets, e->bytes);
	if ((size_t)n < len && *tmo)
		n += snprintf(buf + n, len - (size_t)n, " timeout %s", tmo);
	if ((size_t)n < len && *exp)
		n += snprintf(buf + n, len - (size_t)n, " expires %s", exp);
	if ((size_t)n < len && e->has_data)
		n += snprintf(buf + n, len - (size_t)n, " : %s", data);
	return (size_t)n < len ? 0 : -ENOSPC;
}

static void value_json(uint32_t type, int be, const uint8_t *v, int numeric)
{
	char text[64];
	uint32_t m;

	switch (type) {
	case TYPE_INET_SERVICE:
		printf("%u", (unsigned int)(v[0] << 8 | v[1]));
		return;
	case TYPE_MARK:
		memcpy(&m, v, 4);
		printf("%" PRIu32, be ? ntohl(m) : m);
		return;
	case TYPE_INET_PROTOCOL:
		if (!proto_name(v[0], numeric)) {
			printf("%u", v[0]);
			return;
		}
		break;
	}
	value_text(type, be, v, numeric, text, sizeof(text));
	json_str(text);
}

static void field_json(const struct keytype *kt, const struct kt_field *f,
		       const uint8_t *a, const uint8_t *b)
{
	int plen;

	if (!memcmp(a, b, f->len)) {
		value_json(f->type, kt->interval, a, 0);
		return;
	}
	plen = has_prefix(f->type) ? elem_range_prefix(a, b, f->len) : -1;
	printf(plen >= 0 ? "{\"prefix\": {\"addr\": " : "{\"range\": [");
	value_json(f->type, kt->interval, a, 1);
	if (plen >= 0) {
		printf(", \"len\": %d}}", plen);
		return;
	}
	printf(", ");
	value_json(f->type, kt->interval, b, 1);
	printf("]}");
}

static void key_json(const struct keytype *kt, const uint8_t *key,
		     const uint8_t *key_end)
{
	if (kt->nfields == 1) {
		field_json(kt, &kt->f[0], key, key_end);
		return;
	}
	printf("{\"concat\": [");
	for (unsigned int i = 0; i < kt->nfields; i++) {
		const struct kt_field *f = &kt->f[i];

		printf("%s", i ? ", " : "");
		field_json(kt, f, key + f->offset, key_end + f->offset);
	}
	printf("]}");
}

static void data_json(const struct keytype *kt, const struct elem_data *d)
{
	char text[300];

	if (kt->dtype != KT_DATA_VERDICT) {
		value_json(kt->dtype, 0, d->value, 0);
		return;
	}
	if (elem_data_format(kt, d, text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	if (d->verdict != NFT_JUMP && d->verdict != NFT_GOTO) {
		printf("{\"%s\": null}", text);
		return;
	}
	printf("{\"%s\": {\"target\": ", d->verdict == NFT_JUMP ? "jump" : "goto");
	json_str(d->chain);
	printf("}}");
}

void nft_elem_json(const struct setinfo *si, const struct elem_raw *e)
{
	int wrap = e->has_counter || e->timeout_ms || e->expire_ms;

	printf("%s%s", e->has_data ? "[" : "", wrap ? "{\"elem\": {\"val\": " : "");
	key_json(&si->kt, e->key, e->key_end);
	if (e->timeout_ms)
		printf(", \"timeout\": %" PRIu64, e->timeout_ms / 1000);
	if (e->expire_ms)
		printf(", \"expires\": %" PRIu64, e->expire_ms / 1000);
	if (e->has_counter)
		printf(", \"counter\": {\"packets\": %" PRIu64 ", \"bytes\": %"
		       PRIu64 "}", e->packets, e->bytes);
	printf("%s", wrap ? "}}" : "");
	if (e->has_data) {
		printf(", ");
		data_json(&si->kt, &e->data);
		putchar(']');
	}
}
