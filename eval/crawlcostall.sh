#!/bin/sh
# crawlcostall.sh: the per-bag cost on every blog of a corpus. For each
# blog (a folder with blog.json; or only the BLOGs named after ROUNDS) it
# runs crawlcost.sh's "new wget wget new" half: blogharvest crawl -url …
# -delay 0 -render never (packages written, a fresh archive each run) and
# wget --mirror --page-requisites --warc-file against the same HTTPS
# replay, each under /usr/bin/time, ROUNDS times (default 1). Usage, from
# eval/:
#
#   ./crawlcostall.sh CORPUS BINARY [ROUNDS [BLOG...]]
#
# It prints crawlcost.sh's per-run lines prefixed by the blog, then one
# table row per blog: requests (blogharvest, wget), CPU (user + sys) per
# request of each (the mean of its runs), their ratio, blogharvest's max
# RSS (the largest of its runs), its whole-crawl wall time (the mean) and
# the load average after the blog's runs. The work folders are kept until
# every blog has run and removed at the end (see replay.sh's KEEP_WORK), so
# no run pays for the deletion of the one before.
set -eu
corpus=$1 bin=$2 rounds=${3:-1}
shift 2; [ $# -gt 0 ] && shift
blogs="$*"
if [ -z "$blogs" ]; then
	for d in "$corpus"/*/; do
		[ -f "$d/blog.json" ] && blogs="$blogs $(basename "$d")"
	done
fi
kept=$(mktemp)
lines=$(mktemp)
EVAL_BIN=$(mktemp)
export EVAL_BIN
trap 'xargs rm -rf <"$kept"; rm -f "$kept" "$lines" "$EVAL_BIN"' EXIT
go build -o "$EVAL_BIN" .
for b in $blogs; do
	KEEP_WORK=1 ./crawlcost.sh "$corpus" "$b" - "$bin" "$rounds" 2>>"$kept.err" |
		sed "s/^/$b /" | tee -a "$lines"
	sed -n 's/^kept: //p' "$kept.err" >>"$kept"; : >"$kept.err"
done
rm -f "$kept.err"
echo
echo "| blog | requests bh / wget | CPU/request bh | wget | ratio | max RSS bh | crawl time bh | load |"
echo "|---|---|---|---|---|---|---|---|"
awk '
$2 == "new"  { b=$1; bn[b]++; bc[b]+=$16; br[b]=$14; if ($11>bm[b]) bm[b]=$11; bw[b]+=$19; if (!(b in order)) order[b]=++n }
$2 == "wget" { b=$1; wn[b]++; wc[b]+=$16; wr[b]=$14 }
$2 == "load:" { ld[$1]=$3 }
END {
	for (b in order) o[order[b]]=b
	for (i=1; i<=n; i++) { b=o[i]; if (!(b in bn)) continue
		r = (wn[b] && wc[b]) ? sprintf("%.2f×", (bc[b]/bn[b])/(wc[b]/wn[b])) : "–"
		printf "| %s | %d / %d | %.2f ms | %.2f ms | %s | %.0f MB | %.1f s | %s |\n", b, br[b], wr[b], bc[b]/bn[b], (wn[b]?wc[b]/wn[b]:0), r, bm[b]/1024, bw[b]/bn[b], ld[b] }
}' "$lines"
