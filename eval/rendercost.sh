#!/bin/sh
# rendercost.sh: what the default render mode costs on one corpus blog
# replayed over HTTPS on loopback (eval -mode serve): one crawl with
# -render never, one with the default (auto), one never again, each under
# /usr/bin/time. Usage, from eval/:
#
#   ./rendercost.sh CORPUS BLOG BINARY
#
# It prints per run: render mode, user and sys seconds, max RSS (KB),
# requests the replay served, whether the crawl finished (exit status),
# and the crawl's "harvest finished" summary line (renders by reason).
set -eu
corpus=$1 blog=$2 bin=$3
. ./replay.sh
run() { # run MODE
	freshout
	before=$(curl -s "$proxy/requests")
	rc=0
	(cd "$work/out" && $inproxy /usr/bin/time -o "$work/time" -f "%U %S %M" "$bin" crawl -url "$url" -out "$work/out/archive" -delay 0 -render "$1" >"$work/log" 2>&1) || rc=$?
	after=$(curl -s "$proxy/requests")
	set -- "$1" $(tail -1 "$work/time")
	echo "$1 $2 $3 $4 $((after - before)) $rc" | awk '{printf "%-6s user %7.2f s  sys %6.2f s  CPU %7.2f s  max RSS %7d KB  requests %5d  exit %d\n", $1, $2, $3, $2+$3, $4, $5, $6}'
	grep -a 'harvest finished' "$work/log" | tail -1
}
run never
run auto
run never
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
