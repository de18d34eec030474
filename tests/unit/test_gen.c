// SPDX-License-Identifier: GPL-2.0
/* Expected strings computed by hand from nft_concat_range.sh's format_*() */
#include <errno.h>
#include <string.h>

#include "gen.h"
#include "tap.h"

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
}
