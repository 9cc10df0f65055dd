// Package daemon is blogharvest's command line and long-running service.
//
// Main parses the subcommand and runs it. The run subcommand loads and
// validates the config, locks the archive (one writer per archive: run,
// crawl and demo all fail fast, exit code 1, while another process holds
// it), sweeps unfinished AIPs, opens the schedule store, schedules every
// blog, runs harvests in a bounded pool of harvest slots (slots.go: a run
// lends its slot, waiting with internal/clock's Sleep, to another blog while it waits a second or more for a
// host's politeness) and streams their records into the AIP writer. SIGHUP reloads the config; the first
// SIGTERM or SIGINT stops scheduling, lets AIP writes in flight finish,
// cancels crawls and closes the store within a grace period; a second signal
// ends the process at once. Only this package knows the concrete types of the
// others: it is where everything is wired together.
//
// A process plays one of three roles, each a type that owns its loops and
// is started by its command, and holds only the parts it uses (named
// fields, nothing embedded): Daemon (daemon.go, dispatch.go: run without
// a cluster; the pool of harvest slots reads dispatch.Local),
// ClusterScheduler (cluster_sched.go: run with a cluster key; the
// scheduler's lease, runs handed out with Enqueue and their outcomes read
// with Reports, through the dispatcher as the pool's are) and Worker
// (worker.go: the worker command; leases, heartbeats, a run's end). The
// parts, each made by its role and handed what it needs:
//
//   - env (env.go): the config, clock, log, metrics and grace every part
//     reads; life (env.go): a role's context and goroutines.
//   - archive (archivepart.go): the archive a role writes into — its lock,
//     the AIP writer (opened by archive.open) — and archiveView, the
//     archive as read (the Store, s3archive.go's archiveReader; the
//     storage and shortfall counts of the status pages). Daemon and Worker
//     hold an archive; ClusterScheduler, which writes nothing, a view.
//   - runner (runner.go): one harvest of a blog and its outcome — counted,
//     logged, its record (runhistory.go: record), its summary
//     (runoutcome.go: reportOf), a stranger's evidence (identity.go), the
//     robots.txt and rules carried to the next crawl within a byte budget
//     (polite.go: carry, carryCache), the runs
//     going on (progress.go). Daemon and Worker.
//   - planner (planner.go): the scheduling part — the schedule store, the
//     run history (runhistory.go: keepRun, loadHistory, runsOf), the
//     backoff (setNext, reschedule), the blogs and specs, firing, reload,
//     each blog's last warning, the notifications. Daemon and
//     ClusterScheduler.
//   - statusSource (http.go, statuspage.go): what the status server shows
//     of a role that schedules — the planner, the view, the entry views —
//     and the role's own additions through the shown interface (the
//     progress of runs going on, a cluster's flights, the audits).
//
// Where to change what: the status pages are statuspage.go and
// statuspage.html (a blog's health, failing or down since its first failed
// run with its last answer, and the down_after that makes it down, in
// health.go; its backoff once down is setNext's; run history in runhistory.go, kept in the schedule
// store's "runs" bucket with the run's end (one write with its outcome and
// next due time, schedule.Store.EndRun: Daemon.finish, and the cluster
// scheduler's recordDone; keepRun for a record on its own) and in memory,
// only each blog's newest run and newest that wrote, read back at open by
// loadHistory and per blog page by runsOf;
// in a cluster a worker's run record reaches the scheduler's history in
// its done report, runOutcome.Run; a run's live progress, RunProgress, in
// progress.go; a blog's storage in archivecount.go; the ledger's
// shortfalls, and when a crawl's Blog AIP is written again because the
// newest ledger says less than the archive holds, in ledgershort.go); the demo's stable address and state are in
// cmd_demo.go; terminal progress lines in progress.go; crawl's line per
// blog (the requests and CPU of its run: runCost, processCPU in
// cputime_unix.go) and its -cpuprofile's blog=ID labels in crawlBlogs
// (cmd_crawl.go). The hand-off to
// a repository: the publication log is aip's (aip/publog.go), read by the
// published command (cmd_published.go) and by the on_publish command's
// delivery (handoff.go, its cursor beside the state file); the archive's
// file and folder modes are Config.Modes, given to the AIP writer in
// archive.open; files written outside the archive get 0644 under the
// umask (umask.go). locate and import-opml are cmd_locate.go and
// cmd_opml.go. No line a command prints may hold a URL's credentials:
// Main passes stderr through redactURLs (redact.go) as a whole, and a
// stdout line naming an argument calls it (stdout may carry an export's
// bytes, which are left alone). The status server's connection caps and
// timeouts are httpconn.go. Everything that
// reads the archive (media and requisites reuse, resuming, the archived
// posts a moved blog's update matches its posts with — polite.go's
// archivedPosts, report.Walk —, export, report, status counts and
// shortfalls) gets its aip.Store from archiveView.store
// (archivepart.go; s3archive.go's readArchive; resolveArchive for a command line's
// ARCHIVE[/BLOG-ID], a folder or s3://…); counts are in archivecount.go.
// The Prometheus metrics (names, HELP texts, buckets) and /metrics are
// metrics.go, through github.com/VictoriaMetrics/metrics; what a crawl adds
// to them is there too (recordFetches, recordRenders) and in archive.go
// (archiver.count). A crawl's entries are written through an aip.Batch
// (archive.go: startBatch, finish, batchBags, batchWait); what says a post
// is archived (the tally, the run record, metrics, the on_publish kick,
// progress) is counted in archiver.entryPublished, the flush's report,
// never when a bag is staged.
// A blog whose identity changed (harvest.IdentityError): identity.go (the
// evidence kept in the archive's .state folder, the pause in the schedule
// state) and runBlog in daemon.go (paused until accept_change, Date in
// config.go). A capture worse than the archived version: fieldsworse.go,
// called by archiver.emit.
//
// The archivist's checks, configured by config_audit.go (audit, notify,
// replay_web_page): fixity audits on a schedule are audit.go (the local
// daemon only: the rotation of shares, holding a blog while its folder is
// read, the record through aip.WriteAudit, the metrics' auditDone);
// notifications of failed runs (planner.notifyRun, from Daemon.finish and
// the cluster scheduler's recordDone) and audit problems are notify.go
// (the JSON body Notification, the background delivery and its retries,
// redactURL: the webhook's secret never in a message); an entry as it
// looked (entry?bag=…, its WACZ, ReplayWeb.page's files) is entryview.go.
// Their parts of the status page are statusaudit.html ("audit", and "aip":
// an AIP's name with its entry link), apart from statuspage.html.
package daemon
