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
	static const struct option opts[] = {
		{ "start", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "range-size", required_argument, NULL, 'r' },
		{ "proto", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t start = 1, count = 0, range = 0;
	const char *proto = NULL;
	char text[GEN_TEXT_MAX], why[160];
	unsigned int seen = 0;
	struct qbuf q;
	struct gen g;
	int ch, li = 0, err = 0;

	if (argc < 1)
		return cmd_usage(c);
	optind = 0;
	opterr = 0;
	while (!err && (ch = cmd_getopt(argc, argv, "+:", opts, &li)) != -1) {
		switch (ch) {
		case 's':
			err = cmd_u64(c, "--start", optarg, 0, UINT32_MAX, &start);
			break;
		case 'n':
			err = cmd_u64(c, "--count", optarg, 1, UINT32_MAX, &count);
			break;
		case 'r':
			err = cmd_u64(c, "--range-size", optarg, 0, UINT32_MAX,
				      &range);
			break;
		case 'p': proto = optarg; break;
		default: return cmd_opt_err(c, ch, argv);
		}
		if (!err)
			err = cmd_once(c, &seen, li, opts[li].name);
	}
	if (err)
		return err;
	if (optind != argc)
		return cmd_usage(c);
	if (!(seen & (1U << 1)))
		return cmd_refuse(c, "--count is required");
	if (gen_init(&g, argv[0], start, count, range, proto, why, sizeof(why)))
		return cmd_refuse(c, "'%s': %s", quote(&q, argv[0]), why);
	while ((err = gen_next(&g, text, sizeof(text))) > 0)
		if (puts(text) < 0)
			return -EIO;
	if (err)
		fprintf(stderr, "nftlab: %s: element %llu: %s\n", c->op,
			(unsigned long long)g.done + 1, strerror(-err));
	return err;
}
