// SPDX-License-Identifier: GPL-2.0
/*
 * nfq-verdict: the userspace end of an nfnetlink_queue, for make
 * check-debug's part hookstress (tests/reliability/guest-hookstress.sh).
 *
 * With patch 5 of series v6 an nf_tables chain that comes after a `queue`
 * statement in the same hook is reached, once the verdict reinjects the
 * packet, through its entry's pointer (nf_reinject()), i.e. through
 * nf_hook_nft_entry() and the nf_hook_nft static call, not through
 * nf_hook_slow_nft().  The test needs a verdict rule it can predict to
 * check that the later chain sees exactly the accepted packets: this
 * program binds queue N, accepts every packet but each K-th (numbered from
 * 1 in the order they are queued), which it drops, and stops after COUNT
 * packets or SECONDS.  libmnl only: the lab has no libnetfilter_queue, and
 * the few messages it needs are simple.
 *
 * Usage: nfq-verdict --queue N --count COUNT [--drop-every K] [--timeout SECONDS]
 *   K = 0 (default) accepts every packet.  After binding it writes
 *   "nfq-verdict: queue N bound" to stderr: until then the queue has no
 *   listener and the kernel drops what it queues.
 *
 * Output: one JSON line on stdout, {"queue":N,"queued":Q,"accepted":A,
 * "dropped":D,"timed_out":false}.  Exit 0: COUNT packets got a verdict;
 * 1: the timeout came first (the counts are printed all the same); 2:
 * bad arguments or a netlink error (named on stderr, no JSON).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct opts {
	unsigned long queue, count, drop_every, timeout;
};

struct state {
	const struct opts *o;
	struct mnl_socket *nl;
	unsigned long queued, accepted, dropped;
	int err;		/* negative errno of a failed verdict */
};

static const char usage_line[] =
	"usage: nfq-verdict --queue N --count COUNT [--drop-every K] [--timeout SECONDS]\n";

static void usage(void)
{
	fputs(usage_line, stdout);
	fputs("  binds nfnetlink_queue N (0-65535), accepts every packet but each K-th\n"
	      "  (K = 0, the default: none), which it drops, until COUNT packets (1 or\n"
	      "  more) got a verdict or SECONDS (default 60) passed; prints the counts as\n"
	      "  one JSON line.  Exit 0: COUNT reached, 1: timeout, 2: error.\n", stdout);
}

/* A whole decimal number in [min, max], or -EINVAL. */
static int parse_num(const char *opt, const char *s, unsigned long min,
		     unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		goto bad;
	*v = strtoul(s, &end, 10);
	if (errno || *end || *v < min || *v > max)
		goto bad;
	return 0;
bad:
	fprintf(stderr, "nfq-verdict: %s: '%s' is not a number from %lu to %lu\n",
		opt, s, min, max);
	return -EINVAL;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "queue", required_argument, NULL, 'q' },
		{ "count", required_argument, NULL, 'c' },
		{ "drop-every", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_queue = false, have_count = false;
	int c;

	*o = (struct opts){ .timeout = 60 };
	while ((c = getopt_long(argc, argv, "q:c:d:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			if (parse_num("--queue", optarg, 0, 65535, &o->queue))
				return -EINVAL;
			have_queue = true;
			break;
		case 'c':
			if (parse_num("--count", optarg, 1, 100000000, &o->count))
				return -EINVAL;
			have_count = true;
			break;
		case 'd':
			if (parse_num("--drop-every", optarg, 0, 100000000, &o->drop_every))
				return -EINVAL;
			break;
		case 't':
			if (parse_num("--timeout", optarg, 1, 86400, &o->timeout))
				return -EINVAL;
			break;
		case 'h':
			usage();
			exit(0);
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "nfq-verdict: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (!have_queue || !have_count) {
		fprintf(stderr, "nfq-verdict: --queue and --count are required\n");
		return -EINVAL;
	}
	return 0;
}

/* Room for the messages this program sends: a header and one small attribute. */
#define NFQ_MSG_LEN 256

/*
 * An nfnetlink_queue message of TYPE for QUEUE, built in BUF (NFQ_MSG_LEN
 * bytes).  BUF is zeroed first: the attributes' alignment padding goes to
 * the kernel too, and libmnl leaves it as it was.
 */
static struct nlmsghdr *nfq_msg(char *buf, uint16_t type, uint16_t queue)
{
	struct nlmsghdr *nlh;
	struct nfgenmsg *nfg;

	memset(buf, 0, NFQ_MSG_LEN);
	nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = (NFNL_SUBSYS_QUEUE << 8) | type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htons(queue);
	return nlh;
}

/* Send a config message and wait for the kernel's ack: 0 or negative errno. */
static int nfq_config(struct mnl_socket *nl, struct nlmsghdr *nlh, uint32_t seq)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(nl);
	ssize_t n;
	int ret;

	nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(buf, n, seq, portid, NULL, NULL);
	} while (ret > 0);
	return ret < 0 ? -errno : 0;
}

static int nfq_bind(struct mnl_socket *nl, uint16_t queue)
{
	char buf[NFQ_MSG_LEN];
	struct nfqnl_msg_config_cmd cmd = { .command = NFQNL_CFG_CMD_BIND };
	/* The verdict needs the packet id only: no payload is copied. */
	struct nfqnl_msg_config_params params = { .copy_mode = NFQNL_COPY_META };
	struct nlmsghdr *nlh;
	int err;

	nlh = nfq_msg(buf, NFQNL_MSG_CONFIG, queue);
	mnl_attr_put(nlh, NFQA_CFG_CMD, sizeof(cmd), &cmd);
	err = nfq_config(nl, nlh, 1);
	if (err)
		return err;
	nlh = nfq_msg(buf, NFQNL_MSG_CONFIG, queue);
	mnl_attr_put(nlh, NFQA_CFG_PARAMS, sizeof(params), &params);
	return nfq_config(nl, nlh, 2);
}

static int nfq_verdict(struct mnl_socket *nl, uint16_t queue, uint32_t id_be,
		       uint32_t verdict)
{
	char buf[NFQ_MSG_LEN];
	struct nfqnl_msg_verdict_hdr vh = {
		.verdict = htonl(verdict),
		.id = id_be,
	};
	struct nlmsghdr *nlh = nfq_msg(buf, NFQNL_MSG_VERDICT, queue);

	mnl_attr_put(nlh, NFQA_VERDICT_HDR, sizeof(vh), &vh);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	return 0;
}

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, NFQA_MAX) > 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

/* One queued packet: its verdict by the rule of --drop-every. */
static int packet_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NFQA_MAX + 1] = { NULL };
	const struct nfqnl_msg_packet_hdr *ph;
	struct state *st = data;
	uint32_t verdict;
	int err;

	if ((nlh->nlmsg_type & 0xff) != NFQNL_MSG_PACKET)
		return MNL_CB_OK;
	if (mnl_attr_parse(nlh, sizeof(struct nfgenmsg), attr_cb, tb) < 0)
		return MNL_CB_ERROR;
	if (!tb[NFQA_PACKET_HDR] ||
	    mnl_attr_get_payload_len(tb[NFQA_PACKET_HDR]) < sizeof(*ph)) {
		st->err = -EPROTO;
		return MNL_CB_ERROR;
	}
	ph = mnl_attr_get_payload(tb[NFQA_PACKET_HDR]);
	st->queued++;
	if (st->o->drop_every && st->queued % st->o->drop_every == 0)
		verdict = NF_DROP;
	else
		verdict = NF_ACCEPT;
	err = nfq_verdict(st->nl, st->o->queue, ph->packet_id, verdict);
	if (err) {
		st->err = err;
		return MNL_CB_ERROR;
	}
	if (verdict == NF_DROP)
		st->dropped++;
	else
		st->accepted++;
	return st->queued == st->o->count ? MNL_CB_STOP : MNL_CB_OK;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Verdicts until COUNT packets or the deadline: 1 done, 0 timeout, <0 errno. */
static int run(struct state *st)
{
	static char buf[65536];
	double deadline = now() + st->o->timeout;
	struct pollfd pfd = { .fd = mnl_socket_get_fd(st->nl), .events = POLLIN };
	ssize_t n;
	int ret;

	while (st->queued < st->o->count) {
		double left = deadline - now();

		if (left <= 0)
			return 0;
		ret = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (ret == 0)
			continue;
		/* ENOBUFS: the kernel lost queued packets, the counts would lie. */
		n = mnl_socket_recvfrom(st->nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(buf, n, 0, 0, packet_cb, st);
		if (ret < 0)
			return st->err ? st->err : -errno;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct state st = { .o = &o };
	int ret;

	if (parse_opts(argc, argv, &o)) {
		fputs(usage_line, stderr);
		return 2;
	}
	st.nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!st.nl) {
		fprintf(stderr, "nfq-verdict: netlink socket: %s\n", strerror(errno));
		return 2;
	}
	if (mnl_socket_bind(st.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		fprintf(stderr, "nfq-verdict: netlink bind: %s\n", strerror(errno));
		mnl_socket_close(st.nl);
		return 2;
	}
	ret = nfq_bind(st.nl, o.queue);
	if (ret) {
		fprintf(stderr, "nfq-verdict: queue %lu: bind: %s\n", o.queue, strerror(-ret));
		mnl_socket_close(st.nl);
		return 2;
	}
	fprintf(stderr, "nfq-verdict: queue %lu bound\n", o.queue);
	ret = run(&st);
	mnl_socket_close(st.nl);
	if (ret < 0) {
		fprintf(stderr, "nfq-verdict: queue %lu: after %lu packets: %s\n",
			o.queue, st.queued, strerror(-ret));
		return 2;
	}
	printf("{\"queue\":%lu,\"queued\":%lu,\"accepted\":%lu,\"dropped\":%lu,\"timed_out\":%s}\n",
	       o.queue, st.queued, st.accepted, st.dropped, ret ? "false" : "true");
	return ret ? 0 : 1;
}
