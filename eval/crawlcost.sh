#!/bin/sh
# crawlcost.sh: CPU per request and peak memory of whole programs crawling
# one corpus blog replayed over HTTPS on loopback (eval -mode serve), runs
# interleaved A B B A per pair of programs so that a drift of the machine's
# load hits both alike. Usage, from eval/:
#
#   ./crawlcost.sh CORPUS BLOG OLD_BINARY NEW_BINARY [ROUNDS]
#
# (OLD_BINARY "-" runs only the NEW against wget half; crawlcostall.sh
# runs that on every blog of a corpus.)
#
# (KEEP_WORK=1 leaves the work folder at exit for back-to-back
# invocations; see replay.sh.)
#
# For each round it runs OLD, NEW, NEW, OLD blogharvest crawls
# (crawl -url … -delay 0 -render never, a fresh archive each) and
# wget --mirror --page-requisites --warc-file, NEW, wget, wget, NEW, each
# under /usr/bin/time; it prints one line per run: program, user and sys
# seconds, max RSS (KB), requests the replay served, CPU ms per request,
# wall-clock seconds.
set -eu
corpus=$1 blog=$2 old=$3 new=$4 rounds=${5:-1}
. ./replay.sh
run() { # run NAME COMMAND...
	name=$1; shift
	freshout
	before=$(curl -s "$proxy/requests")
	(cd "$work/out" && $inproxy /usr/bin/time -o "$work/time" -f "%U %S %M %e" "$@" >/dev/null 2>&1) || true
	after=$(curl -s "$proxy/requests")
	set -- $(cat "$work/time" | tail -1)
	echo "$name $1 $2 $3 $((after - before)) $4" | awk '{printf "%-6s user %6.2f s  sys %5.2f s  max RSS %7d KB  requests %5d  CPU %.2f ms/request  wall %.1f s\n", $1, $2, $3, $4, $5, ($5 ? ($2+$3)*1000/$5 : 0), $6}'
}
crawl() { run "$1" "$2" crawl -url "$url" -out "$work/out/archive" -delay 0 -render never; }
wgetrun() { run wget wget -q --ca-certificate="$work/ca.pem" --mirror --page-requisites --warc-file=crawl "$url"; }
i=0
while [ $i -lt "$rounds" ]; do
	if [ "$old" != - ]; then
		crawl old "$old"; crawl new "$new"; crawl new "$new"; crawl old "$old"
	fi
	crawl new "$new"; wgetrun; wgetrun; crawl new "$new"
	i=$((i + 1))
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
