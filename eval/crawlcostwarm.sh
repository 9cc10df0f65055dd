#!/bin/sh
# crawlcostwarm.sh: CPU per request of a blogharvest crawl as the daemon
# pays it, in a process already warm, against wget's whole process, on
# one corpus blog replayed over HTTPS on loopback (replay.sh). DESIGN §9:
# "Start-up time is not a target (a daemon starts once)". Usage, from
# eval/:
#
#   ./crawlcostwarm.sh CORPUS BLOG BINARY [ROUNDS]
#
# (KEEP_WORK=1 leaves the work folder at exit; see replay.sh.)
#
# Each round runs, interleaved (bh wget wget bh, then wget1): blogharvest
# crawl -config of the blog twice under two ids, "warmup" then "x" (same
# URL, delay 0s, render never, a fresh archive and state each run), whose
# output gives each blog's requests and the CPU the process spent while it
# ran (crawl's per-blog line); wget --mirror --page-requisites --warc-file
# as crawlcost.sh runs it; and wget1, wget --warc-file of the home page
# alone (one request), for wget's own start-up. Each under /usr/bin/time,
# with a sync before it (freshout). Lines:
#
#   warm   user U s  sys S s  max RSS KB  requests R  CPU X s  X/R ms/request
#          whole W ms/request  own count A B  wall T s  x's line
#
# for blogharvest: x's requests (half the replay's count during the
# process: the replay cannot be read between the two crawls, and the two
# make the same requests by their own count, "own count", which also
# holds the attempts the replay refused, such as other hosts' requisites),
# x's CPU (crawl's line) per x's request, and "whole": the process's CPU
# (user + sys) minus x's, i.e. start-up and the warm-up crawl, per request
# (a crawl of one blog by a process of its own, as crawlcost.sh measures
# it with crawl -url); the max RSS is the process's, which held both
# crawls. A line ends in "MISMATCH" when the two crawls did not make the
# same requests by their own count (or the replay's count is odd) or did
# not write the same packages (entry AIPs, unchanged, comments, blog AIPs,
# the payload but for the few bytes of each blog's id). wget lines are crawlcost.sh's.
set -eu
corpus=$1 blog=$2 bin=$(cd "$(dirname "$3")" && pwd)/$(basename "$3") rounds=${4:-1}
. ./replay.sh
measure() { # measure COMMAND...: runs it in a fresh out folder; sets req, and $work/time, $work/stdout
	freshout
	before=$(curl -s "$proxy/requests")
	(cd "$work/out" && $inproxy /usr/bin/time -o "$work/time" -f "%U %S %M %e" "$@" >"$work/stdout" 2>"$work/stderr") || true
	after=$(curl -s "$proxy/requests")
	req=$((after - before))
}
warm() {
	o=$work/out
	measure sh -c "printf 'archive: %s\nstate: %s\ndefaults:\n  delay: 0s\n  render: never\nblogs:\n  - id: warmup\n    url: %s\n  - id: x\n    url: %s\n' \
		'$o/archive' '$o/state.db' '$url' '$url' >'$o/c.yaml' && exec '$bin' crawl -config '$o/c.yaml'"
	awk -v req="$req" -v t="$(tail -1 "$work/time")" '
	function parse(l, f,   s) { # f: stats, requests, cpu
		s = l; sub(/^[^:]*: /, "", s)
		f["cpu"] = s; sub(/.*, CPU /, "", f["cpu"]); sub(/ s$/, "", f["cpu"])
		f["req"] = s; sub(/, CPU .*/, "", f["req"]); sub(/.*, /, "", f["req"]); sub(/ requests$/, "", f["req"])
		f["stats"] = s; sub(/, [0-9]+ requests, CPU .*/, "", f["stats"])
		# what the two crawls are compared on: the counts, not the payload
		# size, which holds the blog id (bag-info, METS, fields.tsv: a
		# few bytes, seen as 931.5 against 931.4 KiB on bft-mnmlist)
		f["counts"] = f["stats"]; sub(/, [0-9.]+ [KMGT]?i?B of payload/, "", f["counts"])
	}
	/^warmup: / { parse($0, w) }
	/^x: / { parse($0, x) }
	END {
		split(t, tt, " "); cpu = tt[1] + tt[2]
		bad = (w["req"] != x["req"] || req % 2 || w["counts"] != x["counts"] || w["counts"] == "") ? "  MISMATCH" : ""
		xr = req / 2
		printf "warm   user %6.2f s  sys %5.2f s  max RSS %7d KB  requests %5d  CPU %.3f s  %.2f ms/request  whole %.2f ms/request  own count %d %d  wall %.1f s  %s%s\n",
			tt[1], tt[2], tt[3], xr, x["cpu"], (xr ? x["cpu"]*1000/xr : 0), (xr ? (cpu - x["cpu"])*1000/xr : 0), w["req"], x["req"], tt[4], x["stats"], bad
	}' "$work/stdout"
}
wgetrun() { # wgetrun NAME WGET-ARGS...
	name=$1; shift
	measure wget -q --ca-certificate="$work/ca.pem" "$@"
	echo "$name $(tail -1 "$work/time") $req" | awk '{printf "%-6s user %6.2f s  sys %5.2f s  max RSS %7d KB  requests %5d  CPU %.2f ms/request  wall %.1f s\n", $1, $2, $3, $4, $6, ($6 ? ($2+$3)*1000/$6 : 0), $5}'
}
i=0
while [ $i -lt "$rounds" ]; do
	warm
	wgetrun wget --mirror --page-requisites --warc-file=crawl "$url"
	wgetrun wget --mirror --page-requisites --warc-file=crawl "$url"
	warm
	wgetrun wget1 --warc-file=one "$url"
	i=$((i + 1))
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
