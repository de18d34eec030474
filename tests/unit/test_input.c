// SPDX-License-Identifier: GPL-2.0
/* Input checks of issue #14: quoting, names, script words, lines, limits. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elem.h"
#include "gen.h"
#include "keytype.h"
#include "linein.h"
#include "name.h"
#include "quote.h"
#include "script.h"
#include "tap.h"

static void test_quote(struct tap *t)
{
	char big[1000];
	struct qbuf q;
	const char *s;

	TAP_OK(t, !strcmp(quote(&q, "10.0.0.1 . 80"), "10.0.0.1 . 80"),
	       "quote: printable text unchanged");
	s = quote(&q, "a\nb\tc\033[31m\\\x80");
	TAP_OK(t, !strcmp(s, "a\\nb\\tc\\x1b[31m\\\\\\x80"),
	       "quote: control bytes, backslash and high bytes escaped: %s", s);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	s = quote(&q, big);
	TAP_OK(t, strlen(s) < QUOTE_MAX && !strcmp(s + strlen(s) - 3, "..."),
	       "quote: long text cut with ... (%zu bytes)", strlen(s));
	memset(big, '\001', 200);
	big[200] = '\0';
	s = quote(&q, big);
	TAP_OK(t, strlen(s) < QUOTE_MAX && !strncmp(s, "\\x01\\x01", 8),
	       "quote: escapes never overrun the buffer");
}

static void test_names(struct tap *t)
{
	char why[160], long_name[300];

	memset(long_name, 'a', 256);
	long_name[256] = '\0';
	TAP_OK(t, name_check("perf", why, sizeof(why)) == 0 &&
	       name_check("_a-b.c/d9", why, sizeof(why)) == 0,
	       "name: plain names pass");
	TAP_OK(t, name_check("", why, sizeof(why)) == -EINVAL,
	       "name: empty refused: %s", why);
	TAP_OK(t, name_check("a\nb", why, sizeof(why)) == -EINVAL,
	       "name: newline refused: %s", why);
	TAP_OK(t, name_check("9lives", why, sizeof(why)) == -EINVAL,
	       "name: digit first refused: %s", why);
	TAP_OK(t, name_check("set", why, sizeof(why)) == -EINVAL &&
	       strstr(why, "keyword"), "name: keyword refused: %s", why);
	TAP_OK(t, name_check("lt", why, sizeof(why)) == -EINVAL &&
	       name_check("xor", why, sizeof(why)) == -EINVAL &&
	       name_check("sets", why, sizeof(why)) == -EINVAL &&
	       name_check("all", why, sizeof(why)) == -EINVAL &&
	       name_check("lsh", why, sizeof(why)) == 0,
	       "name: operator and list words refused (nft cannot list them)");
	TAP_OK(t, name_check(long_name, why, sizeof(why)) == -EINVAL &&
	       (long_name[255] = '\0', name_check(long_name, why, sizeof(why)) == 0),
	       "name: 255 bytes pass, 256 refused");
	TAP_OK(t, dev_name_check("eth0", why, sizeof(why)) == 0 &&
	       dev_name_check("abcdefghijklmnop", why, sizeof(why)) == -EINVAL &&
	       dev_name_check("a b", why, sizeof(why)) == -EINVAL,
	       "dev name: IFNAMSIZ and blanks");
}

static void test_split(struct tap *t)
{
	struct words w = { 0 };
	char why[128];
	char l1[] = "set add ip t s --type 'ipv4_addr . inet_service' # c";
	char l2[] = "element add ip t s \"10.0.0.1 . \\\"x\\\\\" a\\ b";
	char l3[] = "  # only a comment";
	char l4[] = "set add 'unterminated";
	char l5[] = "x ''";

	TAP_OK(t, script_split(l1, &w, why, sizeof(why)) == 0 && w.n == 7 &&
	       !strcmp(w.v[6], "ipv4_addr . inet_service"),
	       "script: single quotes, trailing comment");
	TAP_OK(t, script_split(l2, &w, why, sizeof(why)) == 0 && w.n == 7 &&
	       !strcmp(w.v[5], "10.0.0.1 . \"x\\") && !strcmp(w.v[6], "a b"),
	       "script: double quotes with escapes, backslash-blank");
	TAP_OK(t, script_split(l3, &w, why, sizeof(why)) == 0 && w.n == 0,
	       "script: comment line has no words");
	TAP_OK(t, script_split(l4, &w, why, sizeof(why)) == -EINVAL &&
	       strstr(why, "unterminated"), "script: %s", why);
	TAP_OK(t, script_split(l5, &w, why, sizeof(why)) == 0 && w.n == 2 &&
	       !*w.v[1], "script: '' is an empty word");
	words_free(&w);
}

static void test_lines(struct tap *t)
{
	char why[96];

	TAP_OK(t, linein_check("10.0.0.1\t# x\r\n", 14, why, sizeof(why)) == 0,
	       "line: tab and CRLF pass");
	TAP_OK(t, linein_check("10.0.0.9\0garbage\n", 17, why, sizeof(why)) ==
	       -EINVAL && strstr(why, "NUL byte at byte 9"), "line: %s", why);
	TAP_OK(t, linein_check("a\033b\n", 4, why, sizeof(why)) == -EINVAL &&
	       strstr(why, "0x1b"), "line: %s", why);
}

/* write data to a temporary file, read it back with linein_next() */
static int read_lines(const char *data, size_t len, char *out, size_t outlen,
		      unsigned long *lineno)
{
	char path[] = "/tmp/nftlab-unit-XXXXXX";
	struct linein in;
	size_t off = 0;
	char *line;
	int fd = mkstemp(path), ret;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -100;
	fwrite(data, 1, len, f);
	fclose(f);
	ret = linein_open(&in, "unit", path, 0);
	while (!ret && (ret = linein_next(&in, &line)) > 0) {
		off += (size_t)snprintf(out + off, outlen - off, "[%s]", line);
		ret = 0;
	}
	*lineno = in.lineno;
	linein_close(&in);
	unlink(path);
	return ret;
}

static void test_reader(struct tap *t)
{
	static const char ok[] = "10.0.0.1\n\tx\ty  \ncrlf\r\n\nlong line "
				 "of more than sixteen bytes\nlast";
	static const char bad[] = "10.0.0.1\n10.0.0.2 . 80\x01\n";
	static const char nul[] = "10.0.0.1\n1234567\0garbage\n";
	char out[256] = "";
	unsigned long n;

	TAP_OK(t, read_lines(ok, sizeof(ok) - 1, out, sizeof(out), &n) == 0 &&
	       !strcmp(out, "[10.0.0.1][\tx\ty  ][crlf][][long line of more "
		       "than sixteen bytes][last]") && n == 6,
	       "reader: tabs, CRLF, empty and last lines: %s", out);
	TAP_OK(t, read_lines(bad, sizeof(bad) - 1, out, sizeof(out), &n) ==
	       -EINVAL && n == 2, "reader: control byte refused on line %lu", n);
	TAP_OK(t, read_lines(nul, sizeof(nul) - 1, out, sizeof(out), &n) ==
	       -EINVAL && n == 2, "reader: NUL byte refused on line %lu", n);
}

static void test_limits(struct tap *t)
{
	struct keytype kt;
	struct gen g;
	char why[160], text[GEN_TEXT_MAX];

	TAP_OK(t, keytype_parse(&kt, "mark . mark . mark . mark . mark") == 0 &&
	       kt.nfields == 5 && keytype_id(&kt) >> 24 == 19U,
	       "keytype: 5 fields parse, first field in the top bits");
	TAP_OK(t, keytype_parse(&kt, "mark . mark . mark . mark . mark . mark") ==
	       -E2BIG, "keytype: 6 fields refused (type id has 5 x 6 bits)");
	TAP_OK(t, keytype_parse(&kt, "ipv6_addr . ipv6_addr . ipv6_addr . "
				"ipv6_addr . ipv6_addr") == -E2BIG,
	       "keytype: key over 64 bytes refused");
	TAP_OK(t, gen_init(&g, "addr4", 1, 2, 4294967295ULL, NULL, why,
			   sizeof(why)) == -EINVAL, "gen: %s", why);
	TAP_OK(t, gen_init(&g, "addr4", 4127195130ULL, 1, 0, NULL, why,
			   sizeof(why)) == 0 && gen_next(&g, text, sizeof(text)) == 1 &&
	       !strcmp(text, "255.255.255.255") &&
	       gen_init(&g, "addr4", 4127195130ULL, 2, 0, NULL, why,
			sizeof(why)) == -EINVAL,
	       "gen: the last addr4 value, and no further");
	TAP_OK(t, gen_init(&g, "mac", 4294967290ULL, 6, 0, NULL, why,
			   sizeof(why)) == 0 &&
	       gen_init(&g, "mac", 4294967290ULL, 7, 0, NULL, why,
			sizeof(why)) == -EINVAL, "gen: mac stops at 2^32 - 1");
	TAP_OK(t, gen_init(&g, "port", 1, 1, 65534, NULL, why, sizeof(why)) ==
	       -EINVAL && gen_init(&g, "port", 1, 1, 65533, NULL, why,
				   sizeof(why)) == 0,
	       "gen: port ranges hold at most 65534 values");
	TAP_OK(t, gen_init(&g, "mac . mac . mac . mac . mac", 1, 1, 3, NULL, why,
			   sizeof(why)) == 0 && gen_next(&g, text, sizeof(text)) == 1,
	       "gen: 5 mac ranges fit GEN_TEXT_MAX");
	TAP_OK(t, gen_init(&g, "addr4", 1, 1, 0, "tcp", why, sizeof(why)) ==
	       -EINVAL && gen_init(&g, "proto", 1, 1, 0,
				   "averyveryverylongproto", why, sizeof(why)) == -EINVAL &&
	       gen_init(&g, "proto", 1, 1, 0, "6-17", why, sizeof(why)) ==
	       -EINVAL && gen_init(&g, "proto", 1, 1, 0, "-tcp", why,
				   sizeof(why)) == -EINVAL,
	       "gen: --proto checked");
	TAP_OK(t, gen_init(&g, "proto", 1, 1, 0, "ipv6-icmp", why,
			   sizeof(why)) == 0 && gen_next(&g, text, sizeof(text)) == 1 &&
	       !strcmp(text, "ipv6-icmp") &&
	       gen_init(&g, "proto", 1, 1, 0, "TCP", why, sizeof(why)) == 0,
	       "gen: --proto takes the names nft does (ipv6-icmp, TCP)");
}

static void test_map_elems(struct tap *t)
{
	struct keytype kt;
	struct elem e;
	char why[256], out[300];

	keytype_parse(&kt, "ipv4_addr");
	keytype_set_data(&kt, "verdict");
	TAP_OK(t, elem_parse(&e, &kt, "10.0.0.1 : jump other", why,
			     sizeof(why)) == 0 && e.has_data &&
	       elem_data_format(&kt, &e.data, out, sizeof(out)) == 0 &&
	       !strcmp(out, "jump other"), "map: verdict with chain: %s", out);
	TAP_OK(t, elem_parse(&e, &kt, "10.0.0.1 timeout 10s : drop", why,
			     sizeof(why)) == 0 && e.timeout_ms == 10000 &&
	       elem_data_format(&kt, &e.data, out, sizeof(out)) == 0 &&
	       !strcmp(out, "drop"), "map: timeout before the data");
	TAP_OK(t, elem_parse(&e, &kt, "10.0.0.1 : accept extra", why,
			     sizeof(why)) == -EINVAL, "map: %s", why);
	TAP_OK(t, elem_parse(&e, &kt, "10.0.0.1 :", why, sizeof(why)) == -EINVAL,
	       "map: %s", why);
	TAP_OK(t, elem_parse(&e, &kt, "10.0.0.1", why, sizeof(why)) == 0 &&
	       !e.has_data, "map: key only (for del and get)");
	keytype_parse(&kt, "ipv4_addr . inet_service");
	keytype_set_data(&kt, "mark");
	TAP_OK(t, elem_parse(&e, &kt, "10.0.0.1 . 80 : 0x10", why,
			     sizeof(why)) == 0 &&
	       elem_data_format(&kt, &e.data, out, sizeof(out)) == 0 &&
	       !strcmp(out, "0x00000010"), "map: mark data: %s", out);
	keytype_parse(&kt, "ipv4_addr");
	TAP_OK(t, elem_parse(&e, &kt, "10.0.0.1 : 0x10", why, sizeof(why)) ==
	       -EINVAL, "set: ':' refused: %s", why);
	TAP_OK(t, keytype_set_data(&kt, "bogus") == -EINVAL &&
	       keytype_set_data_id(&kt, 0xffffff00, 0) == 0 &&
	       kt.dtype == KT_DATA_VERDICT, "map: data type names and ids");
}

void test_input(struct tap *t)
{
	test_map_elems(t);
	test_quote(t);
	test_names(t);
	test_split(t);
	test_lines(t);
	test_reader(t);
	test_limits(t);
}
