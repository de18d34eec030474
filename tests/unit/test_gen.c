// SPDX-License-Identifier: GPL-2.0
/* Expected strings computed by hand from nft_concat_range.sh's format_*() */
#include <errno.h>
#include <string.h>

#include "elem.h"
#include "gen.h"
#include "tap.h"

/*
 * gen_next_key() gives the key bytes that parsing gen_next()'s text gives,
 * element by element, across octet, port (65534) and 16-bit boundaries
 * and up to the largest addr4 value.
 */
static void test_gen_keys(struct tap *t)
{
	static const struct { const char *fields, *type; uint64_t start; } c[] = {
		{ "addr4", "ipv4_addr", 0 },
		{ "addr4", "ipv4_addr", 4127195130ULL - 2999 },
		{ "addr4 . port", "ipv4_addr . inet_service", 65534 - 1500 },
		{ "addr6", "ipv6_addr", 65536 - 1500 },
		{ "addr6 . mac", "ipv6_addr . ether_addr", 16777216 - 1500 },
		{ "port . addr4 . mac", "inet_service . ipv4_addr . ether_addr", 1 },
	};
	struct gen g;
	char why[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct gen gt, gk;
		struct keytype kt;
		struct elem e;
		uint8_t key[KT_MAX_KEY];
		char text[GEN_TEXT_MAX];
		unsigned int n = 0, bad = 0;
		int rt, rk;

		if (keytype_parse(&kt, c[i].type) ||
		    gen_init(&gt, c[i].fields, c[i].start, 3000, 0, NULL, why,
			     sizeof(why)) ||
		    gen_init(&gk, c[i].fields, c[i].start, 3000, 0, NULL, why,
			     sizeof(why)) || !gen_keys(&gk) ||
		    !gen_matches(&gk, &kt)) {
			TAP_OK(t, 0, "gen: keys of %s: set-up", c[i].fields);
			continue;
		}
		for (;;) {
			rt = gen_next(&gt, text, sizeof(text));
			rk = gen_next_key(&gk, &kt, key);
			if (rt != rk) {
				bad++;
				break;
			}
			if (rt <= 0)
				break;
			n++;
			if (elem_parse(&e, &kt, text, why, sizeof(why)) ||
			    memcmp(e.key, key, kt.key_len))
				bad++;
		}
		TAP_OK(t, !bad && n == 3000 && rt == 0,
		       "gen: keys of %s from %llu: %u of 3000 as parsed text",
		       c[i].fields, (unsigned long long)c[i].start, n - bad);
	}
	TAP_OK(t, gen_init(&g, "addr4 . port", 1, 1, 1, NULL, why, sizeof(why)) == 0 &&
	       !gen_keys(&g) &&
	       gen_init(&g, "addr4 . proto", 1, 1, 0, NULL, why, sizeof(why)) == 0 &&
	       !gen_keys(&g), "gen: no keys for ranges or proto");
}

void test_gen(struct tap *t)
{
	struct keytype kt;
	struct gen g;
	char a[128], b[128], c[128], why[160];

	TAP_OK(t, gen_init(&g, "addr4 . port", 1, 2, 1, NULL, why, sizeof(why)) == 0 &&
	       gen_next(&g, a, sizeof(a)) == 1 && gen_next(&g, b, sizeof(b)) == 1 &&
	       gen_next(&g, c, sizeof(c)) == 0 &&
	       !strcmp(a, "10.0.0.6-10.0.0.7 . 2-3") &&
	       !strcmp(b, "10.0.0.8-10.0.0.9 . 4-5"),
	       "gen: addr4 . port ranges as the selftest's perf test");
	TAP_OK(t, gen_init(&g, "port", 65533, 1, 1, NULL, why, sizeof(why)) == 0 &&
	       gen_next(&g, a, sizeof(a)) == 1 && !strcmp(a, "1-2"),
	       "gen: port range never wraps (%s)", a);
	TAP_OK(t, gen_init(&g, "addr6 mac proto", 65537, 1, 0, "tcp", why, sizeof(why)) == 0 &&
	       gen_next(&g, a, sizeof(a)) == 1 &&
	       !strcmp(a, "2001:db8::0001:0001 . 00:01:00:01:00:01 . tcp"),
	       "gen: addr6, mac, proto formats (%s)", a);
	TAP_OK(t, gen_init(&g, "addr4", 250, 2, 0, NULL, why, sizeof(why)) == 0 &&
	       gen_next(&g, a, sizeof(a)) == 1 && gen_next(&g, b, sizeof(b)) == 1 &&
	       !strcmp(a, "10.0.0.255") && !strcmp(b, "10.0.1.0"),
	       "gen: single values count up (%s, %s)", a, b);
	TAP_OK(t, gen_init(&g, "addr4 . proto", 1, 1, 3, "udp", why, sizeof(why)) == 0 &&
	       gen_next(&g, a, sizeof(a)) == 1 &&
	       !strcmp(a, "10.0.0.6-10.0.0.9 . udp"),
	       "gen: proto stays a single value in ranges (%s)", a);
	keytype_parse(&kt, "ipv4_addr . inet_service");
	gen_init(&g, "addr4 port", 1, 1, 0, NULL, why, sizeof(why));
	TAP_OK(t, gen_matches(&g, &kt), "gen: fields match set key type");
	gen_init(&g, "addr4 mac", 1, 1, 0, NULL, why, sizeof(why));
	TAP_OK(t, !gen_matches(&g, &kt), "gen: mismatching fields detected");
	TAP_OK(t, gen_init(&g, "addr4 . bogus", 1, 1, 0, NULL, why, sizeof(why)) == -EINVAL &&
	       gen_init(&g, "", 1, 1, 0, NULL, why, sizeof(why)) == -EINVAL,
	       "gen: unknown or no fields rejected");
	TAP_OK(t, gen_init(&g, "addr4", 1, 1, 0, NULL, why, sizeof(why)) == 0 &&
	       gen_next(&g, a, 4) == -ENOSPC, "gen: short buffer -> ENOSPC");
	test_gen_keys(t);
}
