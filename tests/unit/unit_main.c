// SPDX-License-Identifier: GPL-2.0
/* Unit tests of nftlab's parsers, generators and element writer (TAP). */
#include "tap.h"

int main(void)
{
	struct tap t = { 0, 0 };

	test_keytype(&t);
	test_elem(&t);
	test_gen(&t);
	test_input(&t);
	test_enc(&t);
	test_src(&t);
	test_list(&t);
	test_ivl(&t);
	test_write(&t);
	printf("1..%d\n", t.n);
	if (t.failed)
		printf("# %d of %d unit tests failed\n", t.failed, t.n);
	return t.failed ? 1 : 0;
}
