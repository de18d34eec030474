// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "elem.h"
#include "tap.h"

static int parse(const char *type, const char *text, struct elem *e,
		 char *why, size_t whylen)
{
	struct keytype kt;

	if (keytype_parse(&kt, type))
		return -100;
	return elem_parse(e, &kt, text, why, whylen);
}

/* parse, then format back and compare with want */
static int roundtrip(const char *type, const char *text, const char *want)
{
	struct keytype kt;
	struct elem e;
	char why[256], out[256];

	if (keytype_parse(&kt, type) || elem_parse(&e, &kt, text, why, sizeof(why)))
		return 0;
	if (elem_format(&kt, e.key, e.key_end, out, sizeof(out)))
		return 0;
	return !strcmp(out, want);
}

static void test_elem_values(struct tap *t)
{
	static const uint8_t k1[8] = { 10, 0, 0, 1, 0, 80, 0, 0 };
	static const uint8_t e1[8] = { 10, 0, 0, 5, 0, 90, 0, 0 };
	struct elem e;
	char why[256];

	TAP_OK(t, parse("ipv4_addr . inet_service", "10.0.0.1-10.0.0.5 . 80-90",
			&e, why, sizeof(why)) == 0 && !memcmp(e.key, k1, 8) &&
	       !memcmp(e.key_end, e1, 8) && e.is_range,
	       "elem: concat range bytes (padded port)");
	TAP_OK(t, parse("ipv4_addr . inet_service", "10.0.0.1 - 10.0.0.5 . 80 - 90",
			&e, why, sizeof(why)) == 0 && !memcmp(e.key, k1, 8) &&
	       !memcmp(e.key_end, e1, 8), "elem: blanks around '-'");
	TAP_OK(t, parse("ipv4_addr", "10.2.3.4/16", &e, why, sizeof(why)) == 0 &&
	       e.key[1] == 2 && e.key[2] == 0 && e.key[3] == 0 &&
	       e.key_end[2] == 255 && e.key_end[3] == 255, "elem: ipv4 prefix");
	TAP_OK(t, parse("ipv6_addr", "2001:db8::/32", &e, why, sizeof(why)) == 0 &&
	       e.key_end[4] == 0xff && e.key_end[15] == 0xff && e.key[3] == 0xb8,
	       "elem: ipv6 prefix");
	TAP_OK(t, parse("inet_proto . inet_service", "udp . 53", &e, why,
			sizeof(why)) == 0 && e.key[0] == 17 && e.key[4] == 0 &&
	       e.key[5] == 53 && !e.is_range, "elem: protocol name");
	TAP_OK(t, parse("ipv4_addr", "10.0.0.1 timeout 1m30s", &e, why,
			sizeof(why)) == 0 && e.timeout_ms == 90000,
	       "elem: per-element timeout");
	TAP_OK(t, roundtrip("ether_addr", "00:01:0A:0b:c:0d", "00:01:0a:0b:0c:0d"),
	       "elem: ether address round trip");
	TAP_OK(t, roundtrip("ipv6_addr . inet_service", "2001:db8::1 . 22-23",
			    "2001:db8::1 . 22-23"), "elem: ipv6 . port round trip");
	TAP_OK(t, roundtrip("ipv4_addr . inet_service", "10.1.0.0-10.1.255.255 . 80",
			    "10.1.0.0/16 . 80") &&
	       roundtrip("ipv6_addr", "2001:db8::/32", "2001:db8::/32") &&
	       roundtrip("ipv4_addr", "0.0.0.0/0", "0.0.0.0/0"),
	       "elem: address blocks print as prefixes, as nft lists them");
	TAP_OK(t, roundtrip("ipv4_addr", "10.0.0.6-10.0.0.9", "10.0.0.6-10.0.0.9") &&
	       roundtrip("ipv4_addr", "10.0.0.4-10.0.0.6", "10.0.0.4-10.0.0.6"),
	       "elem: other ranges print as ranges");
	TAP_OK(t, roundtrip("mark", "0x10-0x20", "0x00000010-0x00000020"),
	       "elem: mark range round trip");
	TAP_OK(t, roundtrip("inet_service", "080", "80") &&
	       roundtrip("inet_service", "010", "8") &&
	       roundtrip("inet_service", "0x10-0100", "16-64") &&
	       roundtrip("inet_service", "00080-65535", "80-65535"),
	       "elem: ports with leading zeros as nft reads them");
	TAP_OK(t, roundtrip("inet_service", "ssh - http", "22-80") &&
	       roundtrip("inet_service", "21-ssh", "21-22") &&
	       roundtrip("inet_proto . inet_service", "tcp . https", "tcp . 443"),
	       "elem: service names of /etc/services");
	/* issue #53 N13: nft reads a word starting with a letter as one
	 * name, '-' and all; only "A - B" and NUMBER-... are ranges */
	TAP_OK(t, roundtrip("inet_service", "ftp-data", "20") &&
	       roundtrip("inet_service", "snmp-trap", "162") &&
	       roundtrip("inet_service", "kerberos-adm", "749") &&
	       roundtrip("inet_service", "zope-ftp", "8021") &&
	       roundtrip("inet_service", "ftp-data - ssh", "20-22") &&
	       roundtrip("inet_service", "20-21", "20-21"),
	       "elem: hyphenated service names are names, as nft");
	TAP_OK(t, parse("inet_service", "ftp-ssh", &e, why, sizeof(why)) ==
	       -EINVAL && strstr(why, "'ftp-ssh' is no port") &&
	       strstr(why, "' - '") &&
	       parse("inet_service", "ssh-100", &e, why, sizeof(why)) == -EINVAL,
	       "elem: NAME-NAME is no range, as nft: %s", why);
	/* N14: nft's keywords, then /etc/protocols names and aliases */
	TAP_OK(t, parse("inet_proto", "ipv6-icmp", &e, why, sizeof(why)) == 0 &&
	       e.key[0] == 58 && !e.is_range &&
	       parse("inet_proto", "ip", &e, why, sizeof(why)) == 0 &&
	       e.key[0] == 0 &&
	       parse("inet_proto", "TCP", &e, why, sizeof(why)) == 0 &&
	       e.key[0] == 6 &&
	       parse("inet_proto", "comp", &e, why, sizeof(why)) == 0 &&
	       e.key[0] == 108 &&
	       parse("inet_proto", "010", &e, why, sizeof(why)) == 0 &&
	       e.key[0] == 8,
	       "elem: protocols ipv6-icmp, ip, TCP, comp, 010 as nft");
	TAP_OK(t, parse("inet_proto", "Tcp", &e, why, sizeof(why)) == -EINVAL &&
	       parse("inet_proto", "tcp-udp", &e, why, sizeof(why)) == -EINVAL &&
	       parse("inet_proto", "tcp - udp", &e, why, sizeof(why)) == 0 &&
	       e.key[0] == 6 && e.key_end[0] == 17,
	       "elem: protocol names are case sensitive, tcp-udp is no range");
	TAP_OK(t, roundtrip("inet_proto", "tcp - udp", "6-17") &&
	       roundtrip("inet_proto . inet_service", "6-udp . ftp-data",
			 "6-17 . 20") && roundtrip("inet_proto", "17", "udp"),
	       "elem: protocol ranges print as numbers (read back as a range)");
	TAP_OK(t, parse("ipv4_addr", "10.0.0.1 timeout 0s", &e, why,
			sizeof(why)) == 0 && e.timeout_ms == 0,
	       "elem: timeout 0s is no timeout, as nft");
	TAP_OK(t, parse("inet_service", "0800000", &e, why, sizeof(why)) &&
	       strstr(why, "out of range") &&
	       parse("inet_service", "nosuchservice", &e, why, sizeof(why)) &&
	       strstr(why, "service name"),
	       "elem: ports out of range and unknown services are refused");
	{
		struct keytype kt;
		char out[64];

		keytype_parse(&kt, "mark");
		kt.interval = 1;
		TAP_OK(t, elem_parse(&e, &kt, "0x10-0x120", why, sizeof(why)) == 0 &&
		       e.key[3] == 0x10 && e.key_end[2] == 0x01 &&
		       elem_format(&kt, e.key, e.key_end, out, sizeof(out)) == 0 &&
		       !strcmp(out, "0x00000010-0x00000120"),
		       "elem: marks are big endian in interval sets (%s)", out);
	}
}

static void test_elem_errors(struct tap *t)
{
	struct elem e;
	char why[256];

	TAP_OK(t, parse("ipv4_addr . inet_service", "10.0.0.1 . 99999", &e, why,
			sizeof(why)) == -EINVAL && strstr(why, "out of range"),
	       "elem: port out of range: %s", why);
	TAP_OK(t, parse("ipv4_addr . inet_service", "10.0.0.1", &e, why,
			sizeof(why)) == -EINVAL && strstr(why, "1 field"),
	       "elem: too few fields: %s", why);
	TAP_OK(t, parse("ipv4_addr", "10.0.0.1 . 80", &e, why, sizeof(why)) ==
	       -EINVAL && strstr(why, "more than"),
	       "elem: too many fields: %s", why);
	TAP_OK(t, parse("ipv4_addr", "10.0.0.300", &e, why, sizeof(why)) ==
	       -EINVAL, "elem: malformed address: %s", why);
	TAP_OK(t, parse("ipv4_addr", "10.0.0.9-10.0.0.1", &e, why, sizeof(why)) ==
	       -EINVAL && strstr(why, "start above end"),
	       "elem: reversed range: %s", why);
	TAP_OK(t, parse("inet_service", "80 timeout forever", &e, why,
			sizeof(why)) == -EINVAL, "elem: bad timeout: %s", why);
	TAP_OK(t, parse("inet_service", "80 counter", &e, why, sizeof(why)) ==
	       -EINVAL && strstr(why, "unexpected"),
	       "elem: trailing garbage: %s", why);
	TAP_OK(t, parse("inet_service", "0x", &e, why, sizeof(why)) == -EINVAL,
	       "elem: malformed number: %s", why);
	TAP_OK(t, parse("inet_service", "-5", &e, why, sizeof(why)) == -EINVAL,
	       "elem: negative port: %s", why);
	TAP_OK(t, parse("inet_service", "80/8", &e, why, sizeof(why)) == -EINVAL,
	       "elem: prefix on a port: %s", why);
	TAP_OK(t, parse("ipv4_addr", "1.2.3.4/33", &e, why, sizeof(why)) ==
	       -EINVAL, "elem: prefix too long: %s", why);
	TAP_OK(t, parse("ipv4_addr", "", &e, why, sizeof(why)) == -EINVAL,
	       "elem: empty element: %s", why);
	TAP_OK(t, parse("inet_proto", "256", &e, why, sizeof(why)) == -EINVAL,
	       "elem: protocol out of range: %s", why);
	/* N11: the kernel's largest timeout, refused beyond it */
	TAP_OK(t, parse("ipv4_addr", "10.0.0.1 timeout 213503d23h34m33s708ms",
			&e, why, sizeof(why)) == 0 &&
	       e.timeout_ms == TIMEOUT_MAX_MS &&
	       parse("ipv4_addr", "10.0.0.1 timeout 213503d23h34m33s709ms",
		     &e, why, sizeof(why)) == -EINVAL &&
	       strstr(why, "value too large (at most 213503d23h34m33s708ms)"),
	       "elem: timeout beyond the kernel's: %s", why);
}

static void test_elem_helpers(struct tap *t)
{
	struct keytype kt;
	uint8_t in[4] = { 10, 0, 0, 255 }, out[4];
	uint8_t max[4] = { 255, 255, 255, 255 }, zero[4] = { 0 };
	uint64_t ms;
	char buf[64], line[64];

	keytype_parse(&kt, "ipv4_addr");
	TAP_OK(t, elem_key_inc(&kt, in, out) == 0 && out[2] == 1 && out[3] == 0,
	       "elem: key increment carries");
	TAP_OK(t, elem_key_inc(&kt, max, out) == -ERANGE,
	       "elem: key increment at the top wraps -> ERANGE");
	TAP_OK(t, elem_key_dec(&kt, zero, out) == -ERANGE,
	       "elem: key decrement at zero -> ERANGE");
	TAP_OK(t, timeout_parse("1d2h3m4s5ms", &ms) == 0 &&
	       ms == 86400000ULL + 7200000 + 180000 + 4000 + 5,
	       "timeout: all units");
	TAP_OK(t, timeout_parse("30", &ms) == 0 && ms == 30000,
	       "timeout: bare number is seconds");
	TAP_OK(t, timeout_parse("5x", &ms) == -EINVAL && timeout_parse("", &ms),
	       "timeout: bad unit rejected");
	TAP_OK(t, timeout_parse("99999999d", &ms) == -ERANGE &&
	       timeout_parse("18446744073708ms", &ms) == 0 &&
	       ms == TIMEOUT_MAX_MS &&
	       timeout_parse("18446744073709ms", &ms) == -ERANGE &&
	       timeout_parse("99999999999999999999s", &ms) == -ERANGE,
	       "timeout: beyond the kernel's limit -> ERANGE");
	TAP_OK(t, timeout_format(90500, buf, sizeof(buf)) == 0 &&
	       !strcmp(buf, "1m30s500ms"), "timeout: format %s", buf);
	strcpy(line, "  10.0.0.1 . 80 ,  # comment\n");
	TAP_OK(t, !strcmp(elem_trim(line), "10.0.0.1 . 80"),
	       "elem: trim comment, blanks, trailing comma");
}

void test_elem(struct tap *t)
{
	test_elem_values(t);
	test_elem_errors(t);
	test_elem_helpers(t);
}
