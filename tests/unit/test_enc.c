// SPDX-License-Identifier: GPL-2.0
/*
 * elem_enc() against libnftnl's nftnl_set_elem_nlmsg_build(), which it
 * replaces: the same bytes for every attribute combination nftlab sends.
 * And elem_parse_simple() against elem_parse_full(): the same result
 * wherever the fast path accepts, refusal (fallback) elsewhere.
 */
#include <string.h>

#include <libmnl/libmnl.h>
#include <libnftnl/set.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "elem.h"
#include "elem_enc.h"
#include "keytype.h"
#include "tap.h"

static int same_as_libnftnl(const struct elem_attrs *a)
{
	static char b1[4096], b2[4096];
	struct nlmsghdr *n1, *n2;
	struct nftnl_set_elem *e = nftnl_set_elem_alloc();
	int same;

	if (!e)
		return 0;
	/*
	 * This libmnl leaves padding as it finds it (txn_msg_begin() zeroes
	 * the room); elem_enc() must write its padding itself.
	 */
	memset(b1, 0, sizeof(b1));
	memset(b2, 0xa5, sizeof(b2));
	n1 = mnl_nlmsg_put_header(b1);
	n2 = mnl_nlmsg_put_header(b2);
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, a->key, a->key_len);
	if (a->key_end)
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, a->key_end,
				   a->key_len);
	if (a->flags)
		nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_FLAGS, a->flags);
	if (a->timeout_ms)
		nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, a->timeout_ms);
	if (a->expiration_ms)
		nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_EXPIRATION,
				       a->expiration_ms);
	if (a->data && a->verdict) {
		nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_VERDICT,
				       (uint32_t)a->data->verdict);
		if (a->data->verdict == NFT_JUMP || a->data->verdict == NFT_GOTO)
			nftnl_set_elem_set_str(e, NFTNL_SET_ELEM_CHAIN,
					       a->data->chain);
	} else if (a->data) {
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_DATA, a->data->value,
				   a->dlen);
	}
	nftnl_set_elem_nlmsg_build(n1, e, NFTA_LIST_ELEM);
	nftnl_set_elem_free(e);
	elem_enc(n2, a);
	same = n1->nlmsg_len == n2->nlmsg_len &&
	       !memcmp(mnl_nlmsg_get_payload(n1), mnl_nlmsg_get_payload(n2),
		       n1->nlmsg_len - sizeof(*n1));
	return same;
}

static void test_enc_bytes(struct tap *t)
{
	static const uint32_t lens[] = { 4, 8, 12, 16, 20, 36, 64 };
	static const uint32_t dlens[] = { 1, 2, 4, 6, 16 };
	struct elem_data d = { .verdict = NF_ACCEPT };
	uint8_t key[64], end[64];
	int bad = 0, n = 0;

	for (int i = 0; i < 64; i++) {
		key[i] = (uint8_t)(i * 7 + 1);
		end[i] = (uint8_t)(i * 13 + 2);
	}
	memcpy(d.value, key, sizeof(d.value));
	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		for (int v = 0; v < 64; v++) {
			/* set sync renews timeouts with EXPIRATION (bit 32) */
			struct elem_attrs a = {
				.key = key, .key_len = lens[l],
				.key_end = v & 1 ? end : NULL,
				.flags = v & 2 ? NFT_SET_ELEM_INTERVAL_END : 0,
				.timeout_ms = v & 4 ? 90061001ULL : 0,
				.expiration_ms = v & 32 ? 3600000ULL : 0,
			};

			if (v & 8) {
				a.data = &d;
				a.verdict = 1;
				d.verdict = v & 16 ? NFT_JUMP : NF_DROP;
				strcpy(d.chain, v & 16 ? "a_chain_of_odd_len" : "");
			}
			n++;
			bad += !same_as_libnftnl(&a);
			if (v & 16 && a.data) {
				d.verdict = NFT_GOTO;
				strcpy(d.chain, "c4");
				n++;
				bad += !same_as_libnftnl(&a);
			}
			for (size_t dl = 0; !(v & 8) && dl < 5; dl++) {
				a.data = &d;
				a.verdict = 0;
				a.dlen = dlens[dl];
				n++;
				bad += !same_as_libnftnl(&a);
				a.data = NULL;
			}
		}
	}
	TAP_OK(t, !bad, "enc: %d of %d elements byte-identical to libnftnl",
	       n - bad, n);
}

/* type, element, whether the fast path must take it */
static const struct { const char *type, *text; int fast; } cases[] = {
	{ "ipv4_addr", "10.0.0.1", 1 },
	{ "ipv4_addr", "0.0.0.0-255.255.255.255", 1 },
	{ "ipv4_addr", "10.0.0.01", 0 },
	{ "ipv4_addr", "10.0.0.1/24", 0 },
	{ "ipv4_addr", "10.0.0.5-10.0.0.1", 0 },
	{ "ipv4_addr", "10.0.0.1 - 10.0.0.5", 0 },
	{ "ipv4_addr", "10.0.0.1 timeout 30s", 0 },
	{ "ipv4_addr", "10.0.0.256", 0 },
	{ "ipv4_addr", "10.0.0.1\t", 0 },
	{ "ipv4_addr", "10.0.0.1-", 0 },
	{ "ipv4_addr", "-10.0.0.1", 0 },
	{ "ipv4_addr", "10.0.0.1-10.0.0.2-10.0.0.3", 0 },
	{ "ipv4_addr", "", 0 },
	{ "ipv4_addr . inet_service", "10.0.0.1-10.0.0.5 . 80-90", 1 },
	{ "ipv4_addr . inet_service", "10.0.0.1 . 0", 1 },
	{ "ipv4_addr . inet_service", "10.0.0.1 . 080", 0 },
	{ "ipv4_addr . inet_service", "10.0.0.1 . 0x50", 0 },
	{ "ipv4_addr . inet_service", "10.0.0.1 . 65536", 0 },
	{ "ipv4_addr . inet_service", "10.0.0.1 .  80", 0 },
	{ "ipv4_addr . inet_service", "10.0.0.1 . 80 . 1", 0 },
	{ "ipv4_addr . inet_service", "10.0.0.1", 0 },
	{ "inet_proto . inet_service", "udp . 53", 1 },
	{ "inet_proto . inet_service", "udplite-sctp . 53", 0 },
	/* one name to nft (issue #53 N14), refused by the full parser */
	{ "inet_proto . inet_service", "tcp-udplite . 53", 0 },
	{ "inet_proto . inet_service", "6-udplite . 53", 1 },
	{ "inet_proto . inet_service", "6 . 53", 1 },
	{ "inet_proto . inet_service", "06 . 53", 0 },
	{ "inet_proto . inet_service", "udpx . 53", 0 },
	{ "ether_addr", "00:01:0A:0b:c:0d", 1 },
	{ "ether_addr", "00:01:0a:0b:0c:0d-00:01:0a:0b:0c:ff", 1 },
	{ "ether_addr", "00:01:0a:0b:0c:0d0", 0 },
	{ "ether_addr", "00:01:0a:0b:0c", 0 },
	{ "ipv6_addr", "2001:db8::1-2001:db8::ff", 1 },
	{ "ipv6_addr", "2001:db8::/32", 0 },
	{ "ipv6_addr", "::ffff:10.0.0.1", 1 },
	{ "mark", "0x10", 0 },
	{ "ipv4_addr : verdict", "10.0.0.1 : accept", 1 },
	{ "ipv4_addr : verdict", "10.0.0.1 : drop", 1 },
	{ "ipv4_addr : verdict", "10.0.0.1 : jump c", 0 },
	{ "ipv4_addr : verdict", "10.0.0.1 : accept ", 0 },
	{ "ipv4_addr : verdict", "10.0.0.1 : acceptx", 0 },
	{ "ipv4_addr : verdict", "10.0.0.1", 1 },
	{ "ipv4_addr", "10.0.0.1 : accept", 0 },
	{ "ipv4_addr : inet_service", "10.0.0.1 : 80", 1 },
	{ "ipv4_addr : inet_service", "10.0.0.1 : 80-81", 0 },
	{ "ipv4_addr : mark", "10.0.0.1 : 5", 0 },
	{ "ipv4_addr : ipv4_addr", "10.0.0.1 : 10.0.0.2", 1 },
};

static void test_parse_simple(struct tap *t)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct keytype kt;
		struct elem fast, full, scan;
		char why[256], type[64], line[128], *data;
		size_t n;
		int rf, rs;

		snprintf(type, sizeof(type), "%s", cases[i].type);
		data = strstr(type, " : ");
		if (data)
			*data = '\0';
		if (keytype_parse(&kt, type) ||
		    (data && keytype_set_data(&kt, data + 3))) {
			TAP_OK(t, 0, "simple: type %s", cases[i].type);
			continue;
		}
		/* stale bytes in *e must not matter */
		memset(&fast, 0xa5, sizeof(fast));
		memset(&scan, 0x5a, sizeof(scan));
		rs = elem_parse_simple(&fast, &kt, cases[i].text);
		rf = elem_parse_full(&full, &kt, cases[i].text, why, sizeof(why));
		TAP_OK(t, (rs == 0) == cases[i].fast &&
		       (rs || (rf == 0 && elem_same(&kt, &fast, &full))),
		       "simple: %s '%s': %s", cases[i].type, cases[i].text,
		       rs ? "full parser" : "fast path, same as full");
		snprintf(line, sizeof(line), "%s\n", cases[i].text);
		n = elem_scan_line(&scan, &kt, line);
		TAP_OK(t, cases[i].fast ? n == strlen(line) &&
		       elem_same(&kt, &scan, &full) : n == 0,
		       "simple: %s '%s\\n' in place: %s", cases[i].type,
		       cases[i].text, cases[i].fast ? "taken" : "left");
	}
}

/* In place, only a line ending in a plain '\n' is taken. */
static void test_scan_line(struct tap *t)
{
	static const struct { const char *text; size_t len, want; } lines[] = {
		{ "10.0.0.1\n10.0.0.2\n", 18, 9 },
		{ "10.0.0.1\r\n", 10, 0 },
		{ "10.0.0.1\0x\n", 12, 0 },
		{ "10.0.0.1", 8, 0 },		/* no '\n' yet: NUL after it */
		{ "10.0.0.1 \n", 10, 0 },
		{ "10.0.0.1\t\n", 10, 0 },
		{ "10.0.0.1,\n", 10, 0 },
		{ "\n", 1, 0 },
	};
	struct keytype kt;
	struct elem e;

	if (keytype_parse(&kt, "ipv4_addr")) {
		TAP_OK(t, 0, "scan: type ipv4_addr");
		return;
	}
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char buf[32];

		memcpy(buf, lines[i].text, lines[i].len);
		buf[lines[i].len] = '\0';
		TAP_OK(t, elem_scan_line(&e, &kt, buf) == lines[i].want &&
		       (!lines[i].want || (e.key[0] == 10 && e.key[3] == 1)),
		       "scan: line %zu taken as %zu bytes", i, lines[i].want);
	}
}

void test_enc(struct tap *t)
{
	test_enc_bytes(t);
	test_parse_simple(t);
	test_scan_line(t);
}
