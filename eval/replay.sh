# replay.sh, sourced by crawlcost.sh and rendercost.sh (from eval/, after
# setting corpus and blog): replays the corpus blog over HTTPS on loopback
# (eval -mode serve) and sets work (a temporary folder, removed on exit),
# proxy (the replay's proxy URL), url (the blog's home page over HTTPS;
# its http links go through the same proxy as plain HTTP proxy requests)
# and inproxy (a command prefix that sends a program's traffic through
# the proxy, trusting the replay's CA).
#
# With KEEP_WORK=1 the temporary folder is left in place at exit (its path
# printed) instead of removed: removing a run's thousands of files makes
# the next minutes' file creations slower on this journal-less ext4 (see
# freshout below), so back-to-back invocations that each removed their
# folder measured the removal of the one before.
work=$(mktemp -d)
if [ "${KEEP_WORK:-}" = 1 ]; then
	trap 'kill $srv 2>/dev/null; echo "kept: $work" >&2' EXIT
else
	trap 'kill $srv 2>/dev/null; rm -rf "$work"' EXIT
fi
if [ -n "${EVAL_BIN:-}" ]; then # built once by the caller (crawlcostall.sh)
	cp "$EVAL_BIN" "$work/eval"
else
	go build -o "$work/eval" .
fi
"$work/eval" -mode serve -corpus "$corpus" -blogs "$blog" -ca "$work/ca.pem" >"$work/proxy" 2>"$work/serve.log" &
srv=$!
while [ ! -s "$work/proxy" ]; do sleep 0.2; done
proxy=$(cat "$work/proxy")
url=$(sed -n 's/.*"url": *"\([^"]*\)".*/\1/p' "$corpus/$blog/blog.json" | sed 's#^http://#https://#')
inproxy="env HTTPS_PROXY=$proxy https_proxy=$proxy HTTP_PROXY=$proxy http_proxy=$proxy SSL_CERT_FILE=$work/ca.pem"

# freshout moves the previous run's "$work/out" aside (removed on exit)
# instead of deleting it: on an ext4 without a journal, as here, the
# inode allocator skips inodes deleted in the last seconds one by one
# (recently_deleted), so a run made right after deleting another run's
# thousands of files paid several seconds of system CPU that had nothing
# to do with it (blogharvest's sys time on lahso rose from 1.1 to 5.0 s
# over five runs of one binary, and fell back after the wget runs).
spent=0
freshout() {
	if [ -e "$work/out" ]; then
		spent=$((spent + 1))
		mv "$work/out" "$work/spent.$spent"
	fi
	mkdir "$work/out"
	# Write back what the previous run left dirty, so that neither program
	# pays for another's data (blogharvest's syncfs per bag waits for all of
	# the file system's dirty pages).
	sync
}
