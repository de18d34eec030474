// SPDX-License-Identifier: GPL-2.0
/*
 * The packet probe of bench-sync.sh: UDP datagrams to a list of IPv4
 * addresses in turn, RATE per second in bursts of one millisecond's
 * worth, until SIGTERM or SIGINT.  Every datagram goes through the
 * output hook, where the benchmark's rules count it against the set under
 * test.  The number sent in each millisecond (CLOCK_REALTIME, as strace
 * -ttt prints it) is written to OUT at the end as native uint32 counts,
 * after a header line "start_us SENT ERRORS\n": the benchmark adds up the
 * milliseconds of each commit's sendmsg().
 *
 * Usage: sync-probe RATE OUT ADDR...
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_us(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	struct sockaddr_in *dst;
	uint64_t start, sent = 0, errors = 0;
	uint32_t *ms = NULL;
	size_t nms = 0, cap = 0;
	struct timespec next;
	long rate, burst;
	int fd, n;
	FILE *out;

	if (argc < 4 || (rate = strtol(argv[1], NULL, 10)) < 1000) {
		fprintf(stderr, "usage: sync-probe RATE(>=1000) OUT ADDR...\n");
		return 2;
	}
	n = argc - 3;
	dst = calloc((size_t)n, sizeof(*dst));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!dst || fd < 0)
		return 1;
	for (int i = 0; i < n; i++) {
		dst[i].sin_family = AF_INET;
		dst[i].sin_port = htons(9);
		if (inet_pton(AF_INET, argv[3 + i], &dst[i].sin_addr) != 1) {
			fprintf(stderr, "sync-probe: bad address %s\n", argv[3 + i]);
			return 2;
		}
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	burst = rate / 1000;
	start = now_us(CLOCK_REALTIME);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (uint64_t k = 0; !stop; k++) {
		for (long b = 0; b < burst; b++) {
			size_t slot = (size_t)((now_us(CLOCK_REALTIME) - start) / 1000);

			if (sendto(fd, "probe", 5, 0, (void *)&dst[(sent + errors) % (uint64_t)n],
				   sizeof(dst[0])) < 0) {
				errors++;
				continue;
			}
			sent++;
			while (slot >= cap) {
				size_t ncap = cap ? cap * 2 : 65536;
				uint32_t *p = realloc(ms, ncap * sizeof(*ms));

				if (!p)
					return 1;
				memset(p + cap, 0, (ncap - cap) * sizeof(*ms));
				ms = p;
				cap = ncap;
			}
			ms[slot]++;
			if (slot + 1 > nms)
				nms = slot + 1;
		}
		next.tv_nsec += 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
						&next, NULL) == EINTR)
			;
	}
	out = fopen(argv[2], "w");
	if (!out)
		return 1;
	fprintf(out, "%llu %llu %llu\n", (unsigned long long)start,
		(unsigned long long)sent, (unsigned long long)errors);
	if (nms)
		fwrite(ms, sizeof(*ms), nms, out);
	free(ms);
	free(dst);
	return fclose(out) ? 1 : 0;
}
