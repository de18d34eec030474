// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "keytype.h"
#include "tap.h"

void test_keytype(struct tap *t)
{
	struct keytype kt, back;
	char buf[128];

	TAP_OK(t, keytype_parse(&kt, "ipv4_addr . inet_service") == 0 &&
	       kt.nfields == 2 && kt.key_len == 8 && kt.f[1].offset == 4 &&
	       kt.f[1].len == 2, "keytype: ipv4_addr . inet_service layout");
	TAP_OK(t, keytype_id(&kt) == 461,
	       "keytype: concat id is (7 << 6) | 13 as nft sends it");
	TAP_OK(t, keytype_from_id(&back, 461, 8) == 0 && back.nfields == 2 &&
	       back.f[0].type == 7 && back.f[1].type == 13,
	       "keytype: id 461 decodes back");
	TAP_OK(t, keytype_format(&back, buf, sizeof(buf)) == 0 &&
	       !strcmp(buf, "ipv4_addr . inet_service"), "keytype: format");
	TAP_OK(t, keytype_parse(&kt, "inet_service") == 0 && kt.key_len == 2,
	       "keytype: single field is not padded");
	TAP_OK(t, keytype_parse(&kt, "ipv6_addr.inet_proto.ether_addr") == 0 &&
	       kt.key_len == 16 + 4 + 8 && kt.f[2].offset == 20,
	       "keytype: three fields without blanks");
	TAP_OK(t, keytype_parse(&kt, "ipv4_addr . bogus") == -EINVAL,
	       "keytype: unknown type rejected");
	TAP_OK(t, keytype_parse(&kt, "ipv4_addr .") == -EINVAL &&
	       keytype_parse(&kt, "") == -EINVAL,
	       "keytype: empty field rejected");
	TAP_OK(t, keytype_parse(&kt, "ipv6_addr . ipv6_addr . ipv6_addr . "
				"ipv6_addr . ipv6_addr") == -E2BIG,
	       "keytype: key over 64 bytes rejected");
	TAP_OK(t, keytype_from_id(&back, 4, 4) == -EOPNOTSUPP,
	       "keytype: unsupported kernel type id");
	TAP_OK(t, keytype_from_id(&back, 7, 16) == -EOPNOTSUPP,
	       "keytype: wrong kernel key length");
}
