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
#
# With WARM=1 it runs crawlcostwarm.sh instead (a crawl in a process
# already warm, DESIGN §9: start-up is not a target) and prints one table
# row per blog: x's requests and wget's, CPU per request of blogharvest's
# warm crawl (x's), of its whole process (start-up and the warm-up crawl,
# per the warm-up's request) and of wget's whole process, wget's start-up
# (the CPU of its one-request run), the ratio warm (x against wget without
# that start-up: neither side's start-up counted), the ratio whole (as the
# table without WARM), the max RSS of blogharvest's process (both crawls)
# and the load; "MISMATCH" after a blog whose warm-up and x crawls did not
# make the same requests or write the same packages.
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
	if [ "${WARM:-}" = 1 ]; then
		KEEP_WORK=1 ./crawlcostwarm.sh "$corpus" "$b" "$bin" "$rounds" 2>>"$kept.err"
	else
		KEEP_WORK=1 ./crawlcost.sh "$corpus" "$b" - "$bin" "$rounds" 2>>"$kept.err"
	fi | sed "s/^/$b /" | tee -a "$lines"
	sed -n 's/^kept: //p' "$kept.err" >>"$kept"; : >"$kept.err"
done
rm -f "$kept.err"
echo
if [ "${WARM:-}" = 1 ]; then
	echo "| blog | requests x / wget | CPU/request bh warm | bh whole | wget | wget start-up | ratio warm | ratio whole | max RSS bh | load |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk '
	$2 == "warm"  { b=$1; bn[b]++; bc[b]+=$18; bw[b]+=$21; br[b]=$14; if ($11>bm[b]) bm[b]=$11; if ($NF=="MISMATCH") bad[b]=" MISMATCH"; if (!(b in order)) order[b]=++n }
	$2 == "wget"  { b=$1; wn[b]++; wc[b]+=($4+$7)*1000; wq[b]+=$14 }
	$2 == "wget1" { b=$1; sn[b]++; sc[b]+=($4+$7)*1000 }
	$2 == "load:" { ld[$1]=$3 }
	END {
		for (b in order) o[order[b]]=b
		for (i=1; i<=n; i++) { b=o[i]; if (!(b in bn)) continue
			w = wq[b] ? wc[b]/wq[b] : 0; s = sn[b] ? sc[b]/sn[b] : 0
			wx = (wq[b] && wn[b]) ? (wc[b]/wn[b] - s)/(wq[b]/wn[b]) : 0
			printf "| %s | %d / %d | %.2f ms | %.2f ms | %.2f ms | %.0f ms | %s | %s | %.0f MB | %s |%s\n", b, br[b], (wn[b]?wq[b]/wn[b]:0),
				bc[b]/bn[b], bw[b]/bn[b], w, s, (wx ? sprintf("%.2f×", (bc[b]/bn[b])/wx) : "–"), (w ? sprintf("%.2f×", (bw[b]/bn[b])/w) : "–"),
				bm[b]/1024, ld[b], bad[b] }
	}' "$lines"
	exit 0
fi
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
