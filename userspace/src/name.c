// SPDX-License-Identifier: GPL-2.0
/* Names nft can list back, device names the kernel takes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "name.h"

/*
 * Words nft 1.0.6 reads as keywords where a table, chain or set name is
 * expected (checked with "nft -c" on "table ip W { set W ...; chain W
 * ... @W }", and with "nft list table ip W", "list chain ip t W", "list
 * set ip t W"): nft lists such names unquoted and cannot parse its own
 * listing, or cannot list the object by its name, so they are refused.
 */
static const char *const keywords[] = {
#include "name_keywords.h"
};

static int why_fmt(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_fmt(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int is_letter(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

int name_check(const char *s, char *why, size_t whylen)
{
	size_t len = strlen(s);

	if (!len)
		return why_fmt(why, whylen, "empty name");
	if (len > NAME_MAX_LEN)
		return why_fmt(why, whylen, "name of %zu bytes, at most %d",
			       len, NAME_MAX_LEN);
	if (!is_letter(s[0]) && s[0] != '_')
		return why_fmt(why, whylen, "a name starts with a letter or '_'");
	for (size_t i = 1; i < len; i++) {
		char ch = s[i];

		if (!is_letter(ch) && !is_digit(ch) && !strchr("_-./", ch))
			return why_fmt(why, whylen, "a name holds letters, "
				       "digits, '_', '-', '.' and '/' only");
	}
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (!strcmp(keywords[i], s))
			return why_fmt(why, whylen, "'%s' is an nft keyword: nft "
				       "could not read its own listing back, "
				       "or list it by name", s);
	return 0;
}

int dev_name_check(const char *s, char *why, size_t whylen)
{
	size_t len = strlen(s);

	if (!len)
		return why_fmt(why, whylen, "empty device name");
	if (len > DEV_NAME_MAX_LEN)
		return why_fmt(why, whylen, "device name of %zu bytes, at most "
			       "%d (IFNAMSIZ)", len, DEV_NAME_MAX_LEN);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= ' ' || ch >= 0x7f || ch == '/' || ch == ':')
			return why_fmt(why, whylen, "a device name has no "
				       "blanks, control bytes, '/' or ':'");
	}
	if (!strcmp(s, ".") || !strcmp(s, ".."))
		return why_fmt(why, whylen, "'%s' is not a device name", s);
	return 0;
}
