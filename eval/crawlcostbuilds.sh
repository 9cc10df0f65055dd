#!/bin/sh
# crawlcostbuilds.sh: CPU per request of several builds of blogharvest
# crawling one corpus blog replayed over HTTPS on loopback (replay.sh),
# interleaved: each round runs the builds in the order given, then in the
# reverse order (A B C C B A), so that a drift of the machine's load hits
# all alike. Usage, from eval/:
#
#   ./crawlcostbuilds.sh CORPUS BLOG ROUNDS BINARY...
#
# Each run is blogharvest crawl -url … -delay 0 -render never under
# /usr/bin/time and nice -n 5, a fresh archive each with a sync before it
# (replay.sh's freshout), as crawlcost.sh; it prints one line per run:
# build (the binary's name without a leading "bh-"), user and sys
# seconds, CPU ms per request, requests the replay served, max RSS (KB),
# wall-clock seconds, and the folders and files of the archive it wrote.
set -eu
corpus=$1 blog=$2 rounds=$3
shift 3
. ./replay.sh
run() { # run NAME COMMAND...
	name=$1; shift
	freshout
	before=$(curl -s "$proxy/requests")
	(cd "$work/out" && $inproxy /usr/bin/time -o "$work/time" -f "%U %S %M %e" "$@" >/dev/null 2>&1) || true
	after=$(curl -s "$proxy/requests")
	dirs=$(find "$work/out/archive" -type d | wc -l)
	files=$(find "$work/out/archive" -type f | wc -l)
	set -- $(tail -1 "$work/time")
	echo "$name $1 $2 $3 $((after - before)) $4 $dirs $files" | awk '{printf "%-12s user %6.2f s  sys %5.2f s  CPU %.2f ms/request  requests %d  maxRSS %d KB  wall %.1f s  dirs %d files %d\n", $1, $2, $3, ($5 ? ($2+$3)*1000/$5 : 0), $5, $4, $6, $7, $8}'
}
rev=""
for b in "$@"; do rev="$b $rev"; done
i=0
while [ $i -lt "$rounds" ]; do
	for b in "$@" $rev; do
		run "$(basename "$b" | sed 's/^bh-//')" nice -n 5 "$b" crawl -url "$url" -out "$work/out/archive" -delay 0 -render never
	done
	i=$((i + 1))
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
