package daemon

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

func runCrawl(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("crawl", "-config FILE [BLOG-ID...] | -url URL -out DIR [flags]", io.Stderr)
	cfgPath := fs.String("config", "", "config `file`: harvest its blogs (all, or the ids given) now")
	rawURL := fs.String("url", "", "ad-hoc crawl of one blog: its home page or feed `URL`")
	out := fs.String("out", "", "with -url: the archive `dir`; AIPs land under DIR/<blog-id>/")
	id := fs.String("id", "", "with -url: the blog `id` (default: derived from the URL's host)")
	delay := fs.Duration("delay", time.Second, "with -url: minimum `time` between requests to one host")
	maxPages := fs.Int("max-pages", 5000, "with -url: pages fetched at most")
	render := fs.String("render", "auto", "with -url: `mode` auto, always or never")
	org := fs.String("organization", "", "with -url: Source-Organization of the bags")
	requisites := fs.String("requisites", "all", "with -url: page requisites kept: all, same-origin or none")
	var allow originList
	fs.Var(&allow, "allow", "with -url: one more `origin` of the blog (scheme://host[:port]); repeatable")
	authUser := fs.String("auth-user", "", "with -url: `user` name for HTTP basic authentication (sent to the blog's origin only)")
	authFile := fs.String("auth-password-file", "", "with -url: `file` holding the basic authentication password")
	maxDuration := fs.Duration("max-duration", 0, "with -url: wall-clock `budget` of the crawl (default 4h); over it the crawl is partial")
	full := fs.Bool("full", false, "with -url: a new crawl even when the archive holds the blog (default: an update from what its latest Blog AIP holds)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the command to `file` (go tool pprof reads it)")
	memProfile := fs.String("memprofile", "", "write a heap profile (allocations since start, and what is live) of the command to `file` at its end")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	if *memProfile != "" {
		stop, err := startMemProfile(*memProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	switch {
	case *rawURL != "" && *cfgPath != "":
		return &UsageError{errors.New("give -config or -url, not both")}
	case *rawURL != "":
		if *out == "" || fs.NArg() > 0 {
			return &UsageError{errors.New("-url needs -out DIR and takes no arguments")}
		}
		if hasUserinfo(*rawURL) {
			return &UsageError{errors.New("-url holds a user name or password (user:password@), which would be " +
				"written into the archive and the logs; give them with -auth-user and -auth-password-file")}
		}
		c, err := adHocConfig(*rawURL, *out, *id, *delay, *maxPages, *render, *org)
		if err == nil {
			err = adHocAuth(c, Auth{User: *authUser, PasswordFile: *authFile})
		}
		if err != nil {
			return &UsageError{err}
		}
		c.Blogs[0].Allow = allow
		switch *requisites {
		case "all", "same-origin", "none":
			c.Blogs[0].Requisites = *requisites
		default:
			return &UsageError{fmt.Errorf("-requisites %q is not all, same-origin or none", *requisites)}
		}
		if *maxDuration > 0 {
			c.Blogs[0].MaxDuration = Duration(*maxDuration)
		}
		_, err = crawlAdHoc(ctx, c, *full, io)
		return err
	case *cfgPath != "":
		c, err := LoadConfig(*cfgPath)
		if err != nil {
			return &UsageError{err}
		}
		return crawlConfig(ctx, c, fs, io)
	}
	return &UsageError{errors.New("give -config FILE or -url URL -out DIR")}
}

// crawlConfig harvests the config's blogs (or those named) once, through the
// daemon's own run path, recording the runs in the schedule store.
func crawlConfig(ctx context.Context, c *Config, fs *flag.FlagSet, io IO) error {
	want := map[string]bool{}
	for _, id := range fs.Args() {
		want[id] = true
	}
	var blogs []Blog
	for _, b := range c.Blogs {
		if len(want) == 0 || want[b.ID] {
			blogs = append(blogs, b)
			delete(want, b.ID)
		}
	}
	for id := range want {
		return &UsageError{fmt.Errorf("blog %q is not in the config", id)}
	}
	_, err := crawlBlogs(ctx, c, blogs, io, nil)
	return err
}

// crawlBlogs opens a daemon without scheduling and runs each blog once,
// printing what each run archived. prepare, if not nil, is called once the
// archive is locked and the schedule store open.
func crawlBlogs(ctx context.Context, c *Config, blogs []Blog, io IO, prepare func(*Daemon)) (RunStats, error) {
	d := NewDaemon(c)
	d.env.Logger = newLogger(c.Log, io.Stderr)
	if err := d.openStore(); err != nil {
		return RunStats{}, err
	}
	defer d.closeStore()
	if prepare != nil {
		prepare(d)
	}
	var failed []string
	var sum RunStats
	for _, b := range blogs {
		p := newProgress(io.Stderr)
		var st RunStats
		var err error
		began := d.env.Now()
		cpu0, cpuOK := processCPU()
		// The samples of -cpuprofile carry the blog's id as the label
		// "blog" (go tool pprof -tags, -tagfocus blog=ID), so that one
		// blog's crawl is read apart from the others' and from start-up.
		pprof.Do(ctx, pprof.Labels("blog", b.ID), func(ctx context.Context) {
			st, err = d.runBlog(ctx, b, func(e *blogharvest.Entry) { p.entry(b.ID, e) })
		})
		cpu1, _ := processCPU()
		p.done()
		sum = sum.add(st)
		fmt.Fprintf(io.Stdout, "%s: %s%s\n", b.ID, st, runCost(d, b.ID, began, cpu1-cpu0, cpuOK))
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", b.ID, err))
		} else if st.Invalid > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d entries not archived, their records are invalid (see the log)", b.ID, st.Invalid))
		}
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Fprintf(io.Stdout, "archive: %s\n", redactURLs(c.Archive))
	if len(failed) > 0 {
		return sum, errors.New("failed: " + strings.Join(failed, "; "))
	}
	return sum, ctx.Err()
}

// runCost returns what blog id's run, begun at began, cost, for its line
// of crawl's output: the HTTP requests it made (its run record's) and
// the CPU (user and system) the process spent while it ran, cpu (left
// out without cpuOK, where the system does not say). The blogs of a
// crawl run one after another, so the process's CPU meanwhile is the
// run's, together with the little the process does beside it (the
// runtime's garbage collection of what earlier runs left, the schedule
// store). Start-up is not in it: the first blog's figure holds the
// first use of what the process loads once (signatures, the TLS roots,
// the date parser), a later blog's does not (doc/benchmarks.md, "Every
// corpus blog against wget").
func runCost(d *Daemon, id string, began time.Time, cpu time.Duration, cpuOK bool) string {
	var s string
	if r := d.plan.history.last(id); r != nil && !r.Start.Before(began) {
		s = fmt.Sprintf(", %d requests", r.Requests)
	}
	if cpuOK {
		s += fmt.Sprintf(", CPU %.3f s", cpu.Seconds())
	}
	return s
}

// crawlAdHoc runs one crawl of one blog into c.Archive, with a throw-away
// schedule state: an UpdateCrawl from what the archive's latest Blog AIP of
// the blog holds (resumeFromArchive), as the daemon's next run would be,
// else, or with full, a NewCrawl.
func crawlAdHoc(ctx context.Context, c *Config, full bool, io IO) (RunStats, error) {
	tmp, err := os.MkdirTemp("", "blogharvest-state-")
	if err != nil {
		return RunStats{}, err
	}
	defer os.RemoveAll(tmp)
	c.State = filepath.Join(tmp, "schedule.db")
	prepare := func(d *Daemon) {
		d.watchKept = map[string]harvest.Watch{c.Blogs[0].ID: {}}
		if !full {
			d.resumeFromArchive(c.Blogs[0])
		}
	}
	return crawlBlogs(ctx, c, c.Blogs, io, prepare)
}

// resumeFromArchive gives blog b's schedule state what its latest Blog AIP
// holds (harvest.StateFrom: the posts feed's validators and items, the
// blog-wide comment feed's, robots.txt, the rules, and the watermark of
// the crawl that wrote it) and the comment threads watched and comment
// shapes and widget loaders learned (archiveWatch),
// so that its next run is the UpdateCrawl the daemon would run. Without a
// Blog AIP, or with one it cannot read, the run is a NewCrawl; the log
// says which.
func (d *Daemon) resumeFromArchive(b Blog) {
	log := d.env.Logger.With("blog", b.ID)
	ab, err := aip.LatestBlog(d.arch.store(), b.ID)
	switch {
	case err != nil:
		log.Warn("the archive's Blog AIP cannot be read; a new crawl", "err", err)
		return
	case ab == nil:
		return
	}
	st, ok := harvest.StateFrom(ab.Files, ab.Rules)
	w := d.archiveWatch(b.ID, ab, st.PostsChecked, log)
	st.Threads, st.CommentShapes, st.WidgetScripts, st.Moved, st.Gone = w.Threads, w.CommentShapes, w.WidgetScripts, w.Moved, w.Gone
	if d.watchKept != nil {
		d.watchKept[b.ID] = w
	}
	if !ok {
		log.Warn("the archive's Blog AIP holds no posts feed to start from; a new crawl", "aip", path.Base(path.Dir(path.Dir(ab.Bag)))+"/blog/"+path.Base(ab.Bag))
		return
	}
	err = d.plan.store.Update(b.ID, func(s *schedule.State) error {
		s.Watermark, s.CrawlState = st.Since(), st.CrawlState
		return nil
	})
	if err != nil {
		log.Warn("schedule state not set from the archive; a new crawl", "err", err)
		return
	}
	d.run.carry(b.ID, st, time.Time{})
	log.Info("updating from the archive's latest Blog AIP", "aip", "blog/"+path.Base(ab.Bag), "since", st.Since())
}

// archiveWatch returns what the archive holds of the comment threads
// watched and comment shapes learned of blog id (harvest.Watch): the
// newer of the state the archive keeps beside the bags
// (aip.LatestBlogState, written by keepWatch after a crawl -out that
// changed it) and the state file of its latest Blog AIP ab, written by
// the crawl that started at its time, else at checked (the capture of its
// posts feed).
func (d *Daemon) archiveWatch(id string, ab *aip.ArchivedBlog, checked time.Time, log *slog.Logger) harvest.Watch {
	w := harvest.WatchFrom(ab.State)
	at := w.At
	if at.IsZero() {
		at = checked
	}
	data, err := aip.LatestBlogState(context.Background(), d.arch.store(), id)
	if err != nil {
		log.Warn("the archive's state of the blog cannot be read; the Blog AIP's is used", "err", err)
		return w
	}
	if kept := harvest.WatchFrom(data); kept.At.After(at) {
		return kept
	}
	return w
}

// keepWatch writes what blog id's run left of the comment threads watched
// and comment shapes learned (st, harvest.Watch) into the archive
// (aip.PutBlogState) after a `crawl -out` run (watchKept set) that changed
// them, so that the next crawl -out, which starts from the archive, asks
// for the threads as they are now: a settled update writes no Blog AIP,
// and a Blog AIP with unchanged content gets no new version. Other runs
// keep them in the schedule store only.
func (d *Daemon) keepWatch(id string, st blogharvest.CrawlState) {
	now := d.env.Now()
	w := harvest.WatchOf(st, now)
	before, on := d.watchKept[id] // written only by crawl -out, whose runs follow one another
	if !on || w.Same(before) {
		return
	}
	store := d.arch.stateStore()
	if store == nil {
		return
	}
	if err := aip.PutBlogState(context.Background(), store, id, now, w.JSON()); err != nil {
		d.env.Logger.Warn("the comment threads watched are not kept in the archive: the next crawl -out asks for those its Blog AIP names",
			"blog", id, "err", err)
		return
	}
	d.watchKept[id] = w
	d.env.Logger.Info("comment threads watched kept in the archive", "blog", id, "posts", len(w.Threads))
}

// originList is the value of the repeatable -allow flag; each origin is
// checked as the config's allow key is.
type originList []string

// String joins the origins.
func (l *originList) String() string { return strings.Join(*l, ",") }

// Set checks and adds one origin.
func (l *originList) Set(v string) error {
	if err := checkOrigin(v); err != nil {
		return err
	}
	*l = append(*l, v)
	return nil
}

// adHocConfig builds the config of a crawl -url run.
func adHocConfig(raw, out, id string, delay time.Duration, maxPages int, render, org string) (*Config, error) {
	if id == "" {
		id = idFromURL(raw)
	}
	y := fmt.Sprintf("archive: %q\norganization: %q\nblogs:\n  - id: %q\n    url: %q\n    delay: %q\n    max_pages: %d\n    render: %q\n",
		out, org, id, raw, delay.String(), maxPages, render)
	return ParseConfig("command line", []byte(y))
}

// adHocAuth gives the one blog of an ad-hoc config the credentials of the
// -auth-user and -auth-password-file flags, reading the password now.
func adHocAuth(c *Config, a Auth) error {
	var msgs []string
	for _, p := range a.load() {
		p.Key = "-" + strings.ReplaceAll(strings.ReplaceAll(p.Key, ".", "-"), "_", "-")
		msgs = append(msgs, p.Error())
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "; "))
	}
	c.Blogs[0].Auth = a
	return nil
}

// idFromURL derives a blog id from a URL: its host (without www.) and path,
// lowercased, with every other character turned into '-'.
func idFromURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "blog"
	}
	s := strings.TrimPrefix(strings.ToLower(u.Host), "www.")
	if p := strings.Trim(u.Path, "/"); p != "" && !strings.Contains(p, "feed") && !strings.HasSuffix(p, ".xml") {
		s += "-" + p
	}
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	id := strings.Trim(b.String(), "-._")
	if len(id) > blogharvest.MaxIDLen {
		id = strings.TrimRight(id[:blogharvest.MaxIDLen], "-._")
	}
	if blogharvest.ValidID(id) != nil {
		return "blog"
	}
	return id
}
