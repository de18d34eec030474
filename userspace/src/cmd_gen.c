// SPDX-License-Identifier: GPL-2.0
/* gen FIELDS --count N [--start N] [--range-size N] [--proto P]: print
 * generated elements, one per line (input for "nft -f" comparisons). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "gen.h"

int cmd_gen(struct ctx *c, int argc, char **argv)
{
	static const char usage[] =
		"gen FIELDS --count N [--start N] [--range-size N] [--proto P]";
	static const struct option opts[] = {
		{ "start", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "range-size", required_argument, NULL, 'r' },
		{ "proto", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t start = 1, count = 0, range = 0;
	const char *proto = NULL;
	char text[256];
	struct gen g;
	int ch, err = 0, have_count = 0;

	if (argc < 2)
		return cmd_usage(c, usage);
	optind = 0;
	while (!err && (ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (ch) {
		case 's': err = cmd_u64(c, "--start", optarg, UINT32_MAX, &start); break;
		case 'n':
			err = cmd_u64(c, "--count", optarg, UINT32_MAX, &count);
			have_count = 1;
			break;
		case 'r': err = cmd_u64(c, "--range-size", optarg, UINT32_MAX, &range); break;
		case 'p': proto = optarg; break;
		default: return cmd_usage(c, usage);
		}
	}
	if (err)
		return err;
	if (!have_count || optind != argc)
		return cmd_usage(c, usage);
	if (gen_init(&g, argv[0], start, count, range, proto)) {
		fprintf(stderr, "nftlab: %s: bad fields '%s' (addr4, addr6, "
			"port, proto, mac)\n", c->op, argv[0]);
		return -EINVAL;
	}
	while ((err = gen_next(&g, text, sizeof(text))) > 0)
		if (puts(text) < 0)
			return -EIO;
	return err;
}
