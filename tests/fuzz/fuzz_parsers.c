// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for nftlab's parsers (no netlink): the input is split
 * into lines; line 1 is a key type spec, every further line goes through
 * the line check, the script word splitter, the name checks, the
 * generator's field parser and the element parser.  Properties checked
 * besides memory safety (ASan/UBSan): an element that parses formats back
 * into text that parses to the same key bytes and map data; the element
 * parser's fast path, where it accepts, gives what the full parser gives;
 * quote() output is bounded and printable.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "gen.h"
#include "keytype.h"
#include "linein.h"
#include "name.h"
#include "quote.h"
#include "script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_quote(const char *s)
{
	struct qbuf q;
	const char *out = quote(&q, s);

	if (strlen(out) >= QUOTE_MAX)
		abort();
	for (; *out; out++)
		if ((unsigned char)*out < 0x20 || (unsigned char)*out >= 0x7f)
			abort();
}

/*
 * The fast path, where it accepts, gives what the full parser gives (over
 * stale bytes: nothing it leaves unwritten may matter), and so does its
 * in-place form on the line with a '\n', which takes exactly the lines
 * the fast path takes.
 */
static void check_simple(const struct keytype *kt, const char *line)
{
	struct elem fast, full, scan;
	char why[256], buf[1024];
	size_t len = strlen(line), n;

	memset(&fast, 0xa5, sizeof(fast));
	memset(&scan, 0x5a, sizeof(scan));
	n = 0;
	if (len + 2 <= sizeof(buf)) {
		memcpy(buf, line, len);
		buf[len] = '\n';
		buf[len + 1] = '\0';
		n = elem_scan_line(&scan, kt, buf);
	}
	if (elem_parse_simple(&fast, kt, line)) {
		if (n)
			abort();
		return;
	}
	if (len + 2 <= sizeof(buf) && (n != len + 1 || !elem_same(kt, &scan, &fast)))
		abort();
	if (elem_parse_full(&full, kt, line, why, sizeof(why)) ||
	    !elem_same(kt, &fast, &full))
		abort();
}

static void check_elem(const struct keytype *kt, const char *line)
{
	struct elem e, back;
	char why[256], text[1024];

	check_simple(kt, line);
	if (elem_parse(&e, kt, line, why, sizeof(why)))
		return;
	if (elem_format(kt, e.key, e.key_end, text, sizeof(text)))
		abort();
	if (e.has_data) {
		size_t n = strlen(text);

		memcpy(text + n, " : ", 4);
		if (elem_data_format(kt, &e.data, text + n + 3,
				     sizeof(text) - n - 3))
			abort();
	}
	if (elem_parse(&back, kt, text, why, sizeof(why)) ||
	    memcmp(back.key, e.key, kt->key_len) ||
	    memcmp(back.key_end, e.key_end, kt->key_len) ||
	    back.has_data != e.has_data ||
	    (e.has_data && !elem_data_same(&back.data, &e.data)))
		abort();
	check_simple(kt, text);
}

static void check_line(const struct keytype *kt, int have_kt, char *line,
		       size_t len)
{
	struct words w = { 0 };
	char why[160], copy[4096];
	struct gen g;

	if (linein_check(line, len, why, sizeof(why)))
		return;
	check_quote(line);
	name_check(line, why, sizeof(why));
	dev_name_check(line, why, sizeof(why));
	if (gen_init(&g, line, 4294967000ULL, 3, 7, NULL, why, sizeof(why)) == 0) {
		char text[GEN_TEXT_MAX];

		while (gen_next(&g, text, sizeof(text)) > 0)
			if (have_kt && gen_matches(&g, kt))
				check_elem(kt, text);
	}
	if (have_kt)
		check_elem(kt, line);
	if (len < sizeof(copy)) {
		memcpy(copy, line, len + 1);
		script_split(copy, &w, why, sizeof(why));
		for (size_t i = 0; i < w.n; i++)
			check_quote(w.v[i]);
		words_free(&w);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *line, *next;
	struct keytype kt;
	int have_kt, first = 1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	have_kt = 0;
	for (line = buf; line; line = next) {
		size_t len;

		next = memchr(line, '\n', size - (size_t)(line - buf));
		if (next)
			*next++ = '\0';
		len = strlen(line);
		if (first) {
			char *data = strstr(line, " : ");

			if (data)
				*data = '\0';
			have_kt = keytype_parse(&kt, line) == 0;
			if (have_kt && data && keytype_set_data(&kt, data + 3))
				have_kt = 0;
			if (have_kt && (line[0] & 1))
				kt.interval = 1;
			first = 0;
			continue;
		}
		check_line(&kt, have_kt, line, len);
	}
	free(buf);
	return 0;
}
