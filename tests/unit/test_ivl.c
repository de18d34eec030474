// SPDX-License-Identifier: GPL-2.0
/* Unit tests of auto-merge's interval merging (ivl.c), on IPv4 keys. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "ivl.h"
#include "tap.h"

/* "10.0.0.1-10.0.0.9 10.0.0.20" into l */
static void ivl_of(struct ivl *l, const char *text)
{
	char buf[256], *tok, *save = NULL;

	ivl_init(l, 4);
	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *dash = strchr(tok, '-');
		uint8_t s[4], e[4];

		if (dash)
			*dash = '\0';
		inet_pton(AF_INET, tok, s);
		inet_pton(AF_INET, dash ? dash + 1 : tok, e);
		ivl_add(l, s, e);
	}
}

static int ivl_is(const struct ivl *l, const char *want)
{
	char got[512] = "", a[16], b[16];

	for (size_t i = 0; i < l->n; i++) {
		inet_ntop(AF_INET, ivl_start(l, i), a, sizeof(a));
		inet_ntop(AF_INET, ivl_end(l, i), b, sizeof(b));
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s%s%s",
			 i ? " " : "", a, strcmp(a, b) ? "-" : "", strcmp(a, b) ? b : "");
	}
	if (strcmp(got, want))
		printf("# got '%s', want '%s'\n", got, want);
	return !strcmp(got, want);
}

/* merge add into cur: cur, del and put afterwards as wanted */
static int merge_is(const char *cur_s, const char *add_s, const char *cur_w,
		    const char *del_w, const char *put_w)
{
	struct keytype kt;
	struct ivl cur, add, del, put;
	int ok;

	keytype_parse(&kt, "ipv4_addr");
	ivl_of(&cur, cur_s);
	ivl_of(&add, add_s);
	ivl_init(&del, 4);
	ivl_init(&put, 4);
	ok = !ivl_merge(&cur, &add, &kt, &del, &put) && ivl_is(&cur, cur_w) &&
	     ivl_is(&del, del_w) && ivl_is(&put, put_w);
	ivl_free(&cur);
	ivl_free(&add);
	ivl_free(&del);
	ivl_free(&put);
	return ok;
}

/* the intervals of a not in b as they are, both sorted first */
static int diff_is(const char *a_s, const char *b_s, const char *want)
{
	struct ivl a, b, out;
	int ok;

	ivl_of(&a, a_s);
	ivl_of(&b, b_s);
	ivl_init(&out, 4);
	ivl_sort(&a);
	ivl_sort(&b);
	ok = !ivl_diff(&a, &b, &out) && ivl_is(&out, want);
	ivl_free(&a);
	ivl_free(&b);
	ivl_free(&out);
	return ok;
}

void test_ivl(struct tap *t)
{
	TAP_OK(t, merge_is("", "10.0.0.1-10.0.0.5 10.0.0.6-10.0.0.9 10.0.0.20 10.0.0.4",
			   "10.0.0.1-10.0.0.9 10.0.0.20", "",
			   "10.0.0.1-10.0.0.9 10.0.0.20"),
	       "ivl: touching and overlapping new intervals become one");
	TAP_OK(t, merge_is("10.0.0.1-10.0.0.9 10.0.0.20",
			   "10.0.0.10 10.0.0.3-10.0.0.12 10.0.0.19",
			   "10.0.0.1-10.0.0.12 10.0.0.19-10.0.0.20",
			   "10.0.0.1-10.0.0.9 10.0.0.20",
			   "10.0.0.1-10.0.0.12 10.0.0.19-10.0.0.20"),
	       "ivl: the set's intervals that change are deleted, merged ones put");
	TAP_OK(t, merge_is("10.0.0.1-10.0.0.14", "10.0.0.2", "10.0.0.1-10.0.0.14",
			   "", ""),
	       "ivl: an interval inside one of the set changes nothing");
	TAP_OK(t, merge_is("10.0.0.1-10.0.0.3 10.0.0.7-10.0.0.9", "10.0.0.4-10.0.0.6",
			   "10.0.0.1-10.0.0.9", "10.0.0.1-10.0.0.3 10.0.0.7-10.0.0.9",
			   "10.0.0.1-10.0.0.9"),
	       "ivl: a new interval joins two of the set");
	TAP_OK(t, merge_is("10.0.0.1 10.0.0.2", "10.0.1.1", "10.0.0.1 10.0.0.2 10.0.1.1",
			   "", "10.0.1.1"),
	       "ivl: touching intervals of the set no new one reaches stay");
	TAP_OK(t, merge_is("255.255.255.0-255.255.255.254", "255.255.255.255 0.0.0.0",
			   "0.0.0.0 255.255.255.0-255.255.255.255",
			   "255.255.255.0-255.255.255.254",
			   "0.0.0.0 255.255.255.0-255.255.255.255"),
	       "ivl: the largest and the smallest value");
	TAP_OK(t, diff_is("10.0.2.0-10.0.2.9 10.0.0.0-10.0.1.255 10.0.5.1",
			  "10.0.5.1 10.0.0.0-10.0.0.255 10.0.2.0-10.0.2.9",
			  "10.0.0.0-10.0.1.255"),
	       "ivl: diff after sort: an interval with another end is not held");
	TAP_OK(t, diff_is("10.0.0.1 10.0.0.3", "", "10.0.0.1 10.0.0.3") &&
	       diff_is("", "10.0.0.1", ""),
	       "ivl: diff against nothing, and of nothing");
}
