#!/bin/sh
# crawlstrace.sh: the system calls of whole crawls of one corpus blog on
# its HTTPS replay (replay.sh), one crawl per binary given, each under
# strace -f -c, with a fresh archive. Usage, from eval/:
#
#   ./crawlstrace.sh CORPUS BLOG OUTDIR BINARY...
#
# writes OUTDIR/strace-<n>.txt (strace's summary of the n-th binary) and
# prints, per binary, the bags and publication records its archive holds.
set -eu
corpus=$1 blog=$2 outdir=$3
shift 3
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd) # the crawls run in the work folder: a relative OUTDIR would land there
. ./replay.sh
n=0
for bin in "$@"; do
	n=$((n + 1))
	freshout
	(cd "$work/out" && $inproxy strace -f -c -o "$outdir/strace-$n.txt" "$bin" crawl -url "$url" -out "$work/out/archive" -delay 0 -render never >/dev/null 2>&1) || true
	echo "$n $bin: $(grep -E ' (fsync|syncfs|renameat)$' "$outdir/strace-$n.txt" | awk '{printf "%s %s, ", $NF, $4}')$(find "$work/out/archive" -name bagit.txt | wc -l) bags, $(find "$work/out/archive/.publications" -name '*.json' | wc -l) publication records"
done
