package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/aip/s3store"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"github.com/blogharvest/blogharvest/schedule"
	"go.yaml.in/yaml/v3"
)

// Config is the daemon's configuration, read from YAML (see blogs.example.yaml).
type Config struct {
	Archive string `yaml:"archive"` // AIP root; default ./archive
	State   string `yaml:"state"`   // bbolt schedule state file; default ./state/schedule.db
	// ArchiveCredentials is a file with the S3 endpoint and credentials of
	// an s3:// archive (s3store.FromEnv); empty: the environment.
	ArchiveCredentials string `yaml:"archive_credentials"`
	Listen             string `yaml:"listen"`       // address for /healthz, /metrics, /status; empty: off
	UserAgent          string `yaml:"user_agent"`   // sent with every request; should carry a contact
	Organization       string `yaml:"organization"` // Source-Organization of every bag
	// OrgCode is the organisation's MARC code (MARC Code List for
	// Organizations, such as DLC): the MARC records' 003 and 040 $a $c.
	// Empty: no 003 and no 040.
	OrgCode string `yaml:"organization_code"`
	// FileMode and DirMode, octal ("0640", "0750"), are the exact modes
	// of the files and folders written into an archive folder (bags, the
	// folders above them, the publication log); empty: 0644 and 0755
	// under the process's umask (aip.Modes).
	FileMode string `yaml:"file_mode"`
	DirMode  string `yaml:"dir_mode"`
	// OnPublish is a command run once for each bag the publication log
	// announces, with the bag's location (a folder, or its s3:// URL) as
	// its last argument (handoff.go); empty: none.
	OnPublish   Command `yaml:"on_publish"`
	CAFile      string  `yaml:"ca_file"`     // extra CA certificates (PEM), added to the system pool
	Concurrency int     `yaml:"concurrency"` // harvests running at once; default 2
	Log         Log     `yaml:"log"`
	Cluster     Cluster `yaml:"cluster"`  // run on many machines (NATS JetStream); left out: one process, nothing of NATS
	Defaults    Blog    `yaml:"defaults"` // values for blogs that do not set them
	Blogs       []Blog  `yaml:"blogs"`

	// The archivist's checks (config_audit.go): fixity audits on a
	// schedule (audit.go; left out: none), notifications of failed runs
	// and audit problems (notify.go; left out: none), and the folder of
	// ReplayWeb.page's ui.js and sw.js (the npm package replaywebpage),
	// in which the status page's entry links open the entry's WACZ
	// (entryview.go; empty: the links download the WACZ).
	Audit         Audit  `yaml:"audit"`
	Notify        Notify `yaml:"notify"`
	ReplayWebPage string `yaml:"replay_web_page"`

	set keySets // the keys the file set, even to zero; empty for a Config built in code
}

// Log configures the structured log.
type Log struct {
	Format string `yaml:"format"` // "text" (default) or "json"
	Level  string `yaml:"level"`  // "debug", "info" (default), "warn", "error"
}

// Blog is one registered blog. Keys a blog leaves out take the config's
// defaults, then the built-in ones; a key set to zero keeps its zero.
type Blog struct {
	ID          string   `yaml:"id"`                   // folder name in the archive; [a-z0-9][a-z0-9._-]*
	URL         string   `yaml:"url"`                  // home page
	Feed        string   `yaml:"feed"`                 // posts feed; empty: discovered from the home page
	Schedule    string   `yaml:"schedule"`             // cron spec or @every/@daily descriptor
	TimeZone    string   `yaml:"time_zone"`            // IANA zone the schedule is read in; default UTC
	Jitter      Duration `yaml:"jitter"`               // spreads blogs sharing a schedule; zero: none
	Render      string   `yaml:"render"`               // auto, always or never
	Requisites  string   `yaml:"requisites"`           // all, same-origin or none: page requisites captured
	MaxPages    int      `yaml:"max_pages"`            // pages fetched per crawl, at most
	Delay       Duration `yaml:"delay"`                // between requests to one host, at least
	Concurrency int      `yaml:"concurrency_per_host"` // requests in flight per host, at most
	Include     []string `yaml:"include"`              // URL regexps; when set, only matching URLs are crawled
	Exclude     []string `yaml:"exclude"`              // URL regexps never crawled
	// Allow lists more origins of the blog (scheme://host[:port]) besides
	// those of url and feed: pages may be fetched from them, and they may
	// be on private or loopback addresses.
	Allow []string `yaml:"allow"`
	Auth  Auth     `yaml:"auth"` // HTTP basic authentication for the blog's own origins
	// Deadlines (see harvest.Options.MaxDuration and MaxCrawlDelay).
	MaxDuration    Duration `yaml:"max_duration"`     // wall-clock budget of one crawl; over it the run is partial
	MaxRenders     int      `yaml:"max_renders"`      // pages rendered per crawl (render: auto), at most; 0: harvest.DefaultMaxRenders
	RenderTimeout  Duration `yaml:"render_timeout"`   // rendering one page, at most (load, settle, capture)
	MaxCrawlDelay  Duration `yaml:"max_crawl_delay"`  // cap on a robots.txt Crawl-delay
	ObeyCrawlDelay string   `yaml:"obey_crawl_delay"` // capped: crawl at the cap; strict: skip the blog
	// RecheckPosts is how often an update re-reads the posts of the feed's
	// first page that give no change signal; 0: never. Default 24h.
	RecheckPosts Duration `yaml:"recheck_posts"`
	// DownAfter is how long a blog's runs must have failed in a row
	// before it is shown down (status page, /status) and polled with a
	// backoff capped at a day (schedule.NextWhileDown) instead of on its
	// schedule; the first run that succeeds clears it. Default 72h.
	DownAfter Duration `yaml:"down_after"`
	// Bounds on what a blog decides the size of (see harvest.Options
	// MaxURLs, MaxSitemapBytes, MaxComments, MaxCommentsPerAnswer,
	// MaxCommentBytes): memory is set by these, never by what a blog
	// serves; what they leave out is in the ledger.
	MaxURLs              int      `yaml:"max_urls"`                 // URLs taken in from sitemaps and links per crawl, at most
	MaxSitemapBytes      ByteSize `yaml:"max_sitemap_bytes"`        // sitemap files read per crawl, at most
	MaxComments          int      `yaml:"max_comments_per_post"`    // comments read per post and source, at most
	MaxCommentsPerAnswer int      `yaml:"max_comments_per_answer"`  // comments read from one comments REST answer, at most
	MaxCommentAnswer     ByteSize `yaml:"max_comment_answer_bytes"` // one comments REST answer, at most (a longer one is not read)
	MaxCommentBytes      ByteSize `yaml:"max_comment_bytes"`        // comment answers (REST pages, comment feed pages) read per post, at most
	// AcceptChange is the archivist's word that the site at the blog's
	// address, found changed (harvest.IdentityError) on that day or
	// before, is the blog: the paused blog is crawled again and the site
	// archived as the blog's. Zero: a blog whose identity changed stays
	// paused.
	AcceptChange Date `yaml:"accept_change"`
}

// Date is a day read from YAML as YYYY-MM-DD (UTC).
type Date struct{ time.Time }

// UnmarshalYAML parses "2026-12-06".
func (d *Date) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.Parse(time.DateOnly, strings.TrimSpace(n.Value))
	if err != nil {
		return fmt.Errorf("line %d: %q is not a date like 2026-12-06", n.Line, n.Value)
	}
	d.Time = v
	return nil
}

// Accepts reports whether d names the day of at (UTC) or a later one.
func (d Date) Accepts(at time.Time) bool {
	if d.IsZero() || at.IsZero() {
		return false
	}
	day := at.UTC().Truncate(24 * time.Hour)
	return !d.Time.Before(day)
}

// ByteSize is a number of bytes read from YAML as a whole number, or one
// followed by KB, MB or GB (powers of 1024: "64MB" is 64 MiB; KiB, MiB
// and GiB are read the same).
type ByteSize int64

// UnmarshalYAML parses "64MB", "512KB", "1GB" or a number of bytes.
func (b *ByteSize) UnmarshalYAML(n *yaml.Node) error {
	v, err := parseByteSize(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a size like 64MB, 512KB or 1GB", n.Line, n.Value)
	}
	*b = v
	return nil
}

// parseByteSize reads a ByteSize.
func parseByteSize(s string) (ByteSize, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"B", 1}} {
		if up := strings.ToUpper(s); strings.HasSuffix(up, u.suffix) {
			s, mult = strings.TrimSpace(s[:len(s)-len(u.suffix)]), u.mult
			break
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > (1<<62)/mult {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	return ByteSize(v * mult), nil
}

// Values of Blog.ObeyCrawlDelay.
const (
	CrawlDelayCapped = "capped" // a larger Crawl-delay is crawled at max_crawl_delay, with a warning
	CrawlDelayStrict = "strict" // a larger Crawl-delay skips the blog with an error
)

// Command is a program and its arguments, given in YAML as a list
// ([/usr/local/bin/ingest, --queue, blogs]) or as one string, the
// program alone (no shell: nothing is split or expanded).
type Command []string

// UnmarshalYAML reads a string or a list of strings.
func (c *Command) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value == "" {
			*c = nil
			return nil
		}
		*c = Command{n.Value}
		return nil
	case yaml.SequenceNode:
		var args []string
		if err := n.Decode(&args); err != nil {
			return err
		}
		*c = args
		return nil
	}
	return fmt.Errorf("line %d: a command is a program path or a list [program, arg, …]", n.Line)
}

// Modes returns the archive's file and folder modes (validated by
// LoadConfig; an invalid one counts as unset).
func (c *Config) Modes() aip.Modes {
	var m aip.Modes
	if c.FileMode != "" {
		m.File, _ = aip.ParseMode(c.FileMode, false)
	}
	if c.DirMode != "" {
		m.Dir, _ = aip.ParseMode(c.DirMode, true)
	}
	return m
}

// Duration is a time.Duration read from YAML as "1s", "6h".
type Duration time.Duration

// UnmarshalYAML parses a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: %q is not a duration like 500ms, 2s or 6h", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// ConfigProblem is one thing wrong with a config, naming where.
type ConfigProblem struct {
	Line   int    // line in the YAML file; zero if unknown
	Blog   string // the blog's id (or "blogs[N]"); empty for top-level keys
	Key    string // the key, e.g. "schedule" or "defaults.delay"
	Reason string
}

func (p ConfigProblem) Error() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Blog != "" {
		fmt.Fprintf(&b, "blog %s: ", p.Blog)
	}
	fmt.Fprintf(&b, "%s: %s", p.Key, p.Reason)
	return b.String()
}

// ConfigError holds every problem of a config file.
type ConfigError struct {
	File     string
	Problems []ConfigProblem
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "config %s: %d problem(s)", e.File, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// DefaultDownAfter is down_after when neither a blog nor the defaults set
// it: three days of failed runs make a blog down (doc/lifecycle.md).
const DefaultDownAfter = 72 * time.Hour

// Defaults for keys neither a blog nor the config's defaults set.
var builtinDefaults = Blog{
	Schedule:    "@every 6h",
	Render:      "auto",
	Requisites:  harvest.RequisitesAll,
	MaxPages:    5000,
	Delay:       Duration(time.Second),
	Concurrency: 1,
	TimeZone:    "UTC",

	MaxDuration:    Duration(4 * time.Hour),
	MaxRenders:     harvest.DefaultMaxRenders,
	RenderTimeout:  Duration(harvest.DefaultRenderTimeout),
	MaxCrawlDelay:  Duration(time.Minute),
	ObeyCrawlDelay: CrawlDelayCapped,
	RecheckPosts:   Duration(harvest.DefaultRecheckPosts),
	DownAfter:      Duration(DefaultDownAfter),

	MaxURLs:              harvest.DefaultMaxURLs,
	MaxSitemapBytes:      harvest.DefaultMaxSitemapBytes,
	MaxComments:          harvest.DefaultMaxComments,
	MaxCommentsPerAnswer: harvest.DefaultMaxCommentsPerAnswer,
	MaxCommentBytes:      harvest.DefaultMaxCommentBytes,
	MaxCommentAnswer:     harvest.DefaultMaxCommentAnswerBytes,
}

// LoadConfig reads and validates the config file at path. All problems are
// reported at once, as a *ConfigError.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig parses and validates a config; name is used in messages.
func ParseConfig(name string, data []byte) (*Config, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		return nil, &ConfigError{File: name, Problems: []ConfigProblem{{Key: "(file)", Reason: err.Error()}}}
	}
	c := &Config{}
	var probs []ConfigProblem
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		probs = append(probs, ConfigProblem{Line: root.Line, Key: "(file)", Reason: "not a YAML mapping"})
		return nil, &ConfigError{File: name, Problems: probs}
	}
	doc := root.Content[0]
	probs = append(probs, unknownKeys(doc, reflect.TypeOf(Config{}), "", "")...)
	probs = append(probs, decodeTop(doc, c)...)
	c.set = presentKeys(doc)
	c.applyDefaults()
	probs = append(probs, c.validate(doc)...)
	if len(probs) > 0 {
		sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
		return nil, &ConfigError{File: name, Problems: probs}
	}
	// Which keys each blog set matters only while defaults are merged and
	// values validated; a daemon keeps its config for as long as it runs,
	// and these maps were a tenth of a 100 000-blog scheduler's heap
	// (doc/scale.md).
	c.set.blogs = nil
	return c, nil
}

// unknownKeys reports keys of the mapping node n that t's yaml tags do not
// name, recursing into struct-typed and slice-of-struct fields.
func unknownKeys(n *yaml.Node, t reflect.Type, prefix, blog string) []ConfigProblem {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	fields := make(map[string]reflect.Type)
	var names []string
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if tag == "" || tag == "-" || !t.Field(i).IsExported() {
			continue // not a key of the file
		}
		fields[tag] = t.Field(i).Type
		names = append(names, tag)
	}
	var probs []ConfigProblem
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ft, ok := fields[k.Value]
		if !ok {
			probs = append(probs, ConfigProblem{Line: k.Line, Blog: blog, Key: prefix + keyName(k),
				Reason: "unknown key (known: " + strings.Join(names, ", ") + ")"})
			continue
		}
		probs = append(probs, nestedUnknown(v, ft, prefix+k.Value, blog)...)
	}
	return probs
}

// keyName is how a message names mapping key k: as written when it is a
// plain name, quoted when it is empty or holds other characters, and
// described when it is not a scalar.
func keyName(k *yaml.Node) string {
	if k.Kind != yaml.ScalarNode {
		return "(a key that is not a name)"
	}
	if k.Value == "" || strings.TrimLeft(k.Value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
		return strconv.Quote(k.Value)
	}
	return k.Value
}

func nestedUnknown(v *yaml.Node, ft reflect.Type, key, blog string) []ConfigProblem {
	switch {
	case ft.Kind() == reflect.Struct && v.Kind == yaml.MappingNode:
		return unknownKeys(v, ft, key+".", blog)
	case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct && v.Kind == yaml.SequenceNode:
		var probs []ConfigProblem
		for j, item := range v.Content {
			probs = append(probs, unknownKeys(item, ft.Elem(), "", blogLabel(item, j))...)
		}
		return probs
	}
	return nil
}

// blogLabel names a blog in messages: its id if it has one, else blogs[N].
func blogLabel(n *yaml.Node, i int) string {
	for k := 0; k+1 < len(n.Content); k += 2 {
		if n.Content[k].Value == "id" && n.Content[k+1].Value != "" {
			return n.Content[k+1].Value
		}
	}
	return fmt.Sprintf("blogs[%d]", i)
}

// decodeTop decodes doc into c key by key so a bad value in one blog does not
// hide the others, and each type error is attributed to its blog.
func decodeTop(doc *yaml.Node, c *Config) []ConfigProblem {
	var probs []ConfigProblem
	rv := reflect.ValueOf(c).Elem()
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		f := fieldByTag(rv, k.Value)
		if !f.IsValid() {
			continue // reported by unknownKeys
		}
		if k.Value == "blogs" && v.Kind == yaml.SequenceNode {
			for j, item := range v.Content {
				var b Blog
				probs = append(probs, decodeInto(item, &b, blogLabel(item, j), "")...)
				c.Blogs = append(c.Blogs, b)
			}
			continue
		}
		if k.Value == "defaults" {
			for _, p := range decodeInto(v, f.Addr().Interface(), "", "") {
				p.Key = "defaults." + p.Key // the key under defaults, at its own line
				probs = append(probs, p)
			}
			continue
		}
		probs = append(probs, decodeInto(v, f.Addr().Interface(), "", k.Value)...)
	}
	return probs
}

func fieldByTag(rv reflect.Value, tag string) reflect.Value {
	t := rv.Type()
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if t.Field(i).IsExported() && name != "" && name != "-" && name == tag {
			return rv.Field(i)
		}
	}
	return reflect.Value{}
}

// orgCodeRE is the shape of a MARC organization code (MARC Code List for
// Organizations: DLC, UkOxU, CaOONL, WaU-L).
var orgCodeRE = lazyregexp.New(`^[A-Za-z][A-Za-z0-9:-]{0,15}$`)

var lineRe = lazyregexp.New(`^line (\d+): `)

// decodeInto decodes n into v, turning yaml's errors into problems.
func decodeInto(n *yaml.Node, v any, blog, key string) []ConfigProblem {
	err := n.Decode(v)
	if err == nil {
		return nil
	}
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var probs []ConfigProblem
	for _, m := range msgs {
		line := n.Line
		if sm := lineRe.FindStringSubmatch(m); sm != nil {
			fmt.Sscan(sm[1], &line)
			m = m[len(sm[0]):]
		}
		k := key
		if k == "" {
			k = keyAtLine(n, line)
		}
		probs = append(probs, ConfigProblem{Line: line, Blog: blog, Key: k, Reason: m})
	}
	return probs
}

// keyAtLine returns the key of mapping n whose value starts on line.
func keyAtLine(n *yaml.Node, line int) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i+1].Line == line || n.Content[i].Line == line {
			return keyName(n.Content[i])
		}
	}
	return "(value)"
}

func (c *Config) applyDefaults() {
	if c.Archive == "" {
		c.Archive = "./archive"
	}
	if c.State == "" {
		c.State = "./state/schedule.db"
	}
	if c.UserAgent == "" {
		c.UserAgent = "blogharvest/" + Build().Version + " (+https://github.com/blogharvest/blogharvest)"
	}
	if c.Concurrency == 0 && !c.set.top["concurrency"] {
		c.Concurrency = 2
	}
	c.Cluster.applyDefaults(c)
	c.Defaults = merge(c.Defaults, builtinDefaults, c.set.defaults)
	for i := range c.Blogs {
		c.Blogs[i] = merge(c.Blogs[i], c.Defaults, c.set.blog(i))
	}
}

// merge fills the zero fields of b from d, except those whose keys are in
// set: a key set to zero keeps its zero.
func merge(b, d Blog, set map[string]bool) Blog {
	bv, dv := reflect.ValueOf(&b).Elem(), reflect.ValueOf(d)
	t := bv.Type()
	for i := 0; i < bv.NumField(); i++ {
		key := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if bv.Field(i).IsZero() && !set[key] {
			bv.Field(i).Set(dv.Field(i))
		}
	}
	return b
}

// validate reports invalid values; doc supplies line numbers.
func (c *Config) validate(doc *yaml.Node) []ConfigProblem {
	var probs []ConfigProblem
	top := func(key, reason string) {
		probs = append(probs, ConfigProblem{Line: lineOf(doc, key), Key: key, Reason: reason})
	}
	if c.Concurrency < 1 {
		top("concurrency", "must be at least 1 (harvests running at once)")
	}
	if isS3(c.Archive) {
		if _, _, err := s3store.ParseURL(c.Archive); err != nil {
			top("archive", err.Error())
		}
	}
	if c.OrgCode != "" && !orgCodeRE.MatchString(c.OrgCode) {
		top("organization_code", fmt.Sprintf("%q is not a MARC organization code (letters, then letters, digits, '-' or ':', at most 16; "+
			"such as DLC or UkOxU: see the MARC Code List for Organizations)", c.OrgCode))
	}
	for _, m := range []struct {
		key, val string
		dir      bool
	}{{"file_mode", c.FileMode, false}, {"dir_mode", c.DirMode, true}} {
		if m.val == "" {
			continue
		}
		if _, err := aip.ParseMode(m.val, m.dir); err != nil {
			top(m.key, err.Error())
		} else if isS3(c.Archive) {
			top(m.key, "an S3 archive's objects have no modes (the bucket's policy decides who reads them): leave it out")
		}
	}
	if len(c.OnPublish) > 0 {
		if c.OnPublish[0] == "" {
			top("on_publish", "the program is empty")
		} else if _, err := exec.LookPath(c.OnPublish[0]); err != nil {
			top("on_publish", fmt.Sprintf("%q cannot be run: %v (give its path, or a program on PATH)", c.OnPublish[0], err))
		}
	}
	if c.Log.Format != "" && c.Log.Format != "text" && c.Log.Format != "json" {
		top("log.format", fmt.Sprintf("%q is neither text nor json", c.Log.Format))
	}
	if c.Log.Level != "" && parseLevel(c.Log.Level) == nil {
		top("log.level", fmt.Sprintf("%q is not debug, info, warn or error", c.Log.Level))
	}
	if len(c.Blogs) == 0 {
		top("blogs", "no blog registered")
	}
	probs = append(probs, c.Cluster.validate(c, doc)...)
	probs = append(probs, c.validateAudit(doc)...)
	// A bad value under defaults is reported once, at its own line; the
	// blogs that inherit it are not blamed for it again.
	dn := mapNode(doc, "defaults")
	badDefault := map[string]bool{}
	c.Defaults.checkValues("defaults", func(key, reason string) {
		badDefault[key] = true
		probs = append(probs, ConfigProblem{Line: lineOf(dn, key), Key: "defaults." + key, Reason: reason})
	})
	blogs := seqNode(doc, "blogs")
	seen := make(map[string]int)
	for i := range c.Blogs {
		var n *yaml.Node
		if blogs != nil && i < len(blogs.Content) {
			n = blogs.Content[i]
		}
		own := c.set.blog(i)
		inherited := func(key string) bool { return badDefault[key] && !own[key] }
		probs = append(probs, c.Blogs[i].validate(n, i, seen, inherited)...)
	}
	if dn != nil {
		probs = append(probs, allowProblems(dn, "", "defaults.")...)
	}
	return probs
}

// allowProblems checks the allow list of mapping n (a blog or defaults),
// naming each bad origin's own line; nothing when n does not set allow.
func allowProblems(n *yaml.Node, blog, prefix string) []ConfigProblem {
	seq := seqNode(n, "allow") // a value that is not a list is reported by decodeInto
	if seq == nil {
		return nil
	}
	var probs []ConfigProblem
	for _, item := range seq.Content {
		if item.Kind != yaml.ScalarNode {
			continue // reported by decodeInto
		}
		if err := checkOrigin(item.Value); err != nil {
			probs = append(probs, ConfigProblem{Line: item.Line, Blog: blog, Key: prefix + "allow", Reason: err.Error()})
		}
	}
	return probs
}

// checkOrigin accepts an absolute http(s) origin: scheme://host[:port],
// optionally with a trailing "/", and nothing else.
func checkOrigin(raw string) error {
	const form = "scheme://host[:port], e.g. https://cdn.example.org or http://127.0.0.1:8081"
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not an origin (%s): %v", raw, form, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q is not an http(s) origin (%s)", raw, form)
	case u.Hostname() == "":
		return fmt.Errorf("%q has no host (%s)", raw, form)
	case u.User != nil:
		return fmt.Errorf("an origin must not carry user info (%s)", form)
	case u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "":
		return fmt.Errorf("%q has a path, query or fragment: give the origin only (%s)", raw, form)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q: port %q is not 1-65535", raw, p)
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return fmt.Errorf("%q: empty port", raw)
	}
	return nil
}

// validate reports the problems of blog i, whose node is n; seen maps the
// ids met so far to their index. A key for which inherited is true holds a
// bad value from defaults, reported there: it is not reported again here.
func (b *Blog) validate(n *yaml.Node, i int, seen map[string]int, inherited func(key string) bool) []ConfigProblem {
	label := b.ID
	if label == "" {
		label = fmt.Sprintf("blogs[%d]", i)
	}
	var probs []ConfigProblem
	add := func(key, reason string) {
		if inherited(key) {
			return
		}
		probs = append(probs, ConfigProblem{Line: lineOf(n, key), Blog: label, Key: key, Reason: reason})
	}
	if err := blogharvest.ValidID(b.ID); err != nil {
		add("id", err.Error()+" (the id names the blog's folder in the archive)")
	} else if prev, dup := seen[b.ID]; dup {
		add("id", fmt.Sprintf("duplicate id: blogs[%d] has it too", prev))
	} else {
		seen[b.ID] = i
	}
	if err := checkHTTPURL(b.URL); err != nil {
		add("url", err.Error())
	}
	if b.Feed != "" {
		if err := checkHTTPURL(b.Feed); err != nil {
			add("feed", err.Error())
		}
	}
	for _, p := range b.Auth.load() {
		p.Line, p.Blog = lineOf(mapValue(n, "auth"), strings.TrimPrefix(p.Key, "auth.")), label
		probs = append(probs, p)
	}
	if n != nil {
		probs = append(probs, allowProblems(n, label, "")...)
	}
	b.checkValues(b.ID, add)
	return probs
}

// checkValues reports, through add, every value of b (a blog, or the
// defaults when id is "defaults") outside its range.
func (b *Blog) checkValues(id string, add func(key, reason string)) {
	loc, err := time.LoadLocation(b.TimeZone)
	if err != nil {
		add("time_zone", fmt.Sprintf("%q is not an IANA time zone", b.TimeZone))
		loc = time.UTC
	}
	if _, err := schedule.ParseSpec(b.Schedule, loc, time.Duration(b.Jitter), id); err != nil {
		add("schedule", err.Error())
	}
	switch b.Render {
	case "auto", "always", "never":
	default:
		add("render", fmt.Sprintf("%q is not auto, always or never", b.Render))
	}
	switch b.Requisites {
	case harvest.RequisitesAll, harvest.RequisitesSameOrigin, harvest.RequisitesNone:
	default:
		add("requisites", fmt.Sprintf("%q is not all, same-origin or none", b.Requisites))
	}
	if b.MaxPages < 1 {
		add("max_pages", "must be at least 1 (pages fetched per crawl; there is no unlimited)")
	}
	if b.Concurrency < 1 {
		add("concurrency_per_host", "must be at least 1 (requests in flight per host)")
	}
	if b.MaxDuration <= 0 {
		add("max_duration", "must be positive (the wall-clock budget of one crawl)")
	}
	if b.MaxRenders < 0 {
		add("max_renders", "must be 0 or more (pages rendered per crawl; 0 is the default; render: never renders none)")
	}
	if b.RenderTimeout <= 0 {
		add("render_timeout", "must be positive (rendering one page in Chromium, at most), e.g. 30s")
	}
	if b.DownAfter <= 0 {
		add("down_after", "must be positive (how long a blog's runs fail in a row before it is shown down), e.g. 72h")
	}
	if b.MaxCrawlDelay <= 0 {
		add("max_crawl_delay", "must be positive (the longest robots.txt Crawl-delay honoured)")
	}
	for _, k := range []struct {
		key  string
		v    int64
		what string
	}{
		{"max_urls", int64(b.MaxURLs), "URLs taken in from sitemaps and links per crawl"},
		{"max_sitemap_bytes", int64(b.MaxSitemapBytes), "sitemap files read per crawl, e.g. 64MB"},
		{"max_comments_per_post", int64(b.MaxComments), "comments read per post and source"},
		{"max_comments_per_answer", int64(b.MaxCommentsPerAnswer), "comments read from one comments REST answer"},
		{"max_comment_answer_bytes", int64(b.MaxCommentAnswer), "one comments REST answer, e.g. 8MB"},
		{"max_comment_bytes", int64(b.MaxCommentBytes), "comment answers read per post, e.g. 32MB"},
	} {
		if k.v < 1 {
			add(k.key, "must be at least 1 ("+k.what+"; there is no unlimited)")
		}
	}
	if b.ObeyCrawlDelay != CrawlDelayCapped && b.ObeyCrawlDelay != CrawlDelayStrict {
		add("obey_crawl_delay", fmt.Sprintf("%q is neither capped nor strict", b.ObeyCrawlDelay))
	}
	for _, k := range []struct {
		key  string
		pats []string
	}{{"include", b.Include}, {"exclude", b.Exclude}} {
		for _, p := range k.pats {
			if _, err := regexp.Compile(p); err != nil {
				add(k.key, fmt.Sprintf("%q is not a valid regular expression: %v", p, err))
			}
		}
	}
}

func checkHTTPURL(raw string) error {
	if raw == "" {
		return errors.New("missing")
	}
	if hasUserinfo(raw) {
		return errors.New("holds a user name or password (user:password@), which would be written into the archive " +
			"and the logs; put them under auth: {user: …, password_file: …} instead")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q is not an http(s) URL", raw)
	}
	if u.Host == "" {
		return fmt.Errorf("%q has no host", raw)
	}
	return nil
}

// lineOf returns the line of key in mapping n, or n's line, or 0.
func lineOf(n *yaml.Node, key string) int {
	if n == nil {
		return 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i].Line
		}
	}
	return n.Line
}

// mapValue returns the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// mapNode returns the mapping value of key in doc, or nil.
func mapNode(doc *yaml.Node, key string) *yaml.Node {
	if v := mapValue(doc, key); v != nil && v.Kind == yaml.MappingNode {
		return v
	}
	return nil
}

func seqNode(doc *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == key && doc.Content[i+1].Kind == yaml.SequenceNode {
			return doc.Content[i+1]
		}
	}
	return nil
}

// Regexps compiles the blog's include and exclude patterns; they were
// validated by LoadConfig.
func (b *Blog) Regexps() (include, exclude []*regexp.Regexp) {
	for _, p := range b.Include {
		include = append(include, regexp.MustCompile(p))
	}
	for _, p := range b.Exclude {
		exclude = append(exclude, regexp.MustCompile(p))
	}
	return include, exclude
}

// Location returns the blog's time zone; validated by LoadConfig.
func (b *Blog) Location() *time.Location {
	loc, err := time.LoadLocation(b.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}
