/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nft 1.0.6 keywords refused as names (name.c): the words of nft's scanner
 * that nft -c refuses as a table, chain or set name, or nft list refuses
 * after list table|chain|set (operators such as lt and xor, list words
 * such as sets, all)
 */
	"accept", "add", "ah", "all", "and", "arp",
	"auto-merge", "bridge", "cgroup", "chain", "chains", "comment",
	"comp", "constant", "continue", "counter", "counters", "cpu",
	"create", "ct", "day", "dccp", "define", "delete",
	"describe", "device", "devices", "dnat", "drop", "dst",
	"dup", "dynamic", "ecn", "element", "elements", "eq",
	"esp", "ether", "exists", "expires", "export", "exthdr",
	"fib", "flags", "flow", "flowtable", "flowtables", "flush",
	"frag", "fwd", "gc-interval", "ge", "get", "goto",
	"gt", "handle", "hbh", "hook", "hooks", "hour",
	"ibriport", "ibrname", "icmp", "icmpv6", "igmp", "iif",
	"iifgroup", "iifname", "iiftype", "import", "include", "index",
	"inet", "insert", "interval", "ip", "ip6", "ipsec",
	"jhash", "jump", "le", "limit", "limits", "list",
	"ll", "log", "lshift", "lt", "map", "maps",
	"mark", "masquerade", "meta", "meter", "meters", "mh",
	"missing", "monitor", "ne", "netdev", "nftrace", "nh",
	"not", "notrack", "numgen", "obriport", "obrname", "offload",
	"oif", "oifgroup", "oifname", "oiftype", "or", "osf",
	"pkttype", "policy", "position", "priority", "queue", "quota",
	"quotas", "random", "redefine", "redirect", "reject", "rename",
	"replace", "reset", "return", "rshift", "rt", "rt0",
	"rt2", "rtclassid", "rule", "ruleset", "sctp", "secmark",
	"secmarks", "set", "sets", "size", "skgid", "skuid",
	"snat", "socket", "srh", "symhash", "synproxy", "synproxys",
	"table", "tables", "tcp", "th", "time", "timeout",
	"tproxy", "type", "typeof", "udp", "udplite", "undefine",
	"update", "vlan", "vmap", "xor", "xt",
