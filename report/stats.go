package report

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/marc"
)

// Stats is what the report of one blog's archive shows.
type Stats struct {
	Blog     string
	Title    string
	URL      string
	BlogAIP  string            // the Blog AIP read, relative to the archive
	Entries  int               // entries (latest versions)
	Versions int               // entry AIP versions in the archive
	Comments int               // comments in the latest versions
	ByMonth  map[string]*Month // "2013-04" → entries created and comments added that month
	Undated  int               // entries without a creation date
	Status   map[int]int       // captured files by HTTP status (capture logs)
	Files    int               // captured responses: capture.log lines of the entry AIPs, every version
	Bytes    int64             // their bytes as received
	Payload  aip.Tally         // the blog's bags as check and demo count them (aip.TallyDefinition)
	Fates    map[string]int    // the crawl ledger's fates, less ArchivedLater
	// ArchivedLater counts, by the ledger's fate, the URLs the ledger
	// lists as not archived (over-budget, failed, …) that the archive
	// holds as entries: archived by a later crawl whose Blog AIP was not
	// written (an interrupted crawl completed by a blogharvest before
	// issue 37). Fates counts them as "entry", so that the report's
	// entries and fates agree.
	ArchivedLater map[string]int
	notArchived   map[string]string // the ledger's URLs whose fate is a shortfall → fate
	// Shortfalls are the ledger's posts whose archived comments fall
	// short of what the blog states (its comments column), at most
	// MissingShown; ShortfallCount counts them all.
	Shortfalls     []Shortfall
	ShortfallCount int
	Rules          []Rule // the learned rules' fields and confidence
	// Methods counts how the entries (latest versions) got each field,
	// CommentMethods how their comments did (data/logs/fields.tsv).
	Methods, CommentMethods Methods
	Missing                 map[string]*Missing // field → the entries without it
	Words                   map[string]int      // word frequencies of the archived text
	Tokens                  int                 // words counted

	store aip.Store // the archive: nothing in it is read through a link
}

// Missing counts the entries without a field and keeps the first
// MissingShown of their permalinks.
type Missing struct {
	Count   int
	Entries []string
}

// MissingShown bounds the permalinks kept per missing field, so memory
// does not grow with the archive.
const MissingShown = 20

// Shortfall is one post of the ledger whose archived comments fall short
// of the number the blog states, and the ledger's note (stated, archived,
// sources tried).
type Shortfall struct{ URL, Note string }

// Month counts what happened in one month.
type Month struct{ Entries, Comments int }

// Rule is one learned extraction rule.
type Rule struct {
	Field      string
	XPath      string
	Confidence float64
}

// MissingFields are the entry fields the report looks for.
var MissingFields = []string{"title", "author", "created", "text"}

// Collect reads the archive of one blog (t must name exactly one) and
// sums it up. It holds one entry at a time; the word table grows with the
// vocabulary, not with the number of entries.
func Collect(ctx context.Context, t Target, bag func(rel string)) (*Stats, error) {
	if len(t.Blogs) != 1 {
		return nil, fmt.Errorf("report: name one blog's folder (<archive>/<blog-id>), not %d blogs", len(t.Blogs))
	}
	s := &Stats{Blog: t.Blogs[0], ByMonth: map[string]*Month{}, Status: map[int]int{}, Fates: map[string]int{},
		Missing: map[string]*Missing{}, Words: map[string]int{}, store: t.Store}
	if err := s.readBlog(); err != nil {
		return nil, err
	}
	payload, err := aip.TallyArchive(t.Store, t.Blogs[0])
	if err != nil {
		return nil, err
	}
	s.Payload = payload
	err = Walk(ctx, t, Options{AllVersions: true, Bag: bag}, func(p *Post) error {
		s.Versions++
		latest, err := aip.LatestVersionOf(t.Store, path.Dir(p.AIP))
		if err != nil {
			return err
		}
		if p.Version == latest {
			s.archivedLater(p.Permalink)
			s.entry(p)
			if err := s.fieldsLog(p.AIP); err != nil {
				return err
			}
		}
		return s.captureLog(p.AIP)
	})
	return s, err
}

// entry counts the latest version of one entry.
func (s *Stats) entry(p *Post) {
	s.Entries++
	s.Comments += len(p.Comments)
	if m := month(p.Created); m != "" {
		s.month(m).Entries++
	} else {
		s.Undated++
	}
	for _, c := range p.Comments {
		if m := month(c.Added); m != "" {
			s.month(m).Comments++
		}
		s.words(c.Text)
	}
	for field, v := range map[string]string{"title": p.Title, "author": p.Author, "created": p.Created, "text": p.Text} {
		if strings.TrimSpace(v) != "" {
			continue
		}
		m := s.Missing[field]
		if m == nil {
			m = &Missing{}
			s.Missing[field] = m
		}
		if m.Count++; len(m.Entries) < MissingShown {
			m.Entries = append(m.Entries, p.Permalink)
		}
	}
	s.words(p.Text)
}

func (s *Stats) month(m string) *Month {
	if s.ByMonth[m] == nil {
		s.ByMonth[m] = &Month{}
	}
	return s.ByMonth[m]
}

// month returns "yyyy-mm" of an ISO 8601 date, or "".
func month(date string) string {
	if len(date) < 7 || date[4] != '-' {
		return ""
	}
	return date[:7]
}

// words counts the words of text, lower-cased: runs of letters (with inner
// apostrophes) and digits.
func (s *Stats) words(text string) {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}) {
		if w = strings.Trim(w, "'’"); w != "" {
			s.Words[w]++
			s.Tokens++
		}
	}
}

// readBlog reads the latest Blog AIP: its record, ledger, capture log and
// learned rules. A blog without one is no error (nothing to add).
func (s *Stats) readBlog() error {
	dir := path.Join(s.Blog, "blog")
	v, err := aip.LatestVersionOf(s.store, dir)
	if err != nil || v == 0 {
		return err
	}
	bag := path.Join(dir, "v"+strconv.Itoa(v))
	s.BlogAIP = bag
	if data, err := fs.ReadFile(s.store, path.Join(bag, "data", "METS.xml")); err == nil {
		recs, err := MARCRecords(data)
		if err != nil {
			return fmt.Errorf("%s: %w", aip.Location(s.store, bag), err)
		}
		for _, r := range recs {
			if a := marc.Attributes(r); a != nil {
				s.Title, s.URL = first(a["title"]), first(a["uri"])
			}
		}
	}
	if err := s.ledger(path.Join(bag, "data", "logs", "ledger.tsv")); err != nil {
		return err
	}
	s.rules(path.Join(bag, "data", "objects", "log"))
	return s.captureLog(bag)
}

// ledger counts the fates of the crawl ledger (aip/doc.go).
func (s *Stats) ledger(name string) error {
	return eachLine(s.store, name, func(cols []string) {
		if len(cols) < 2 || cols[0] == "url" {
			return
		}
		s.Fates[cols[1]]++
		if !ledgerArchived[cols[1]] {
			if s.notArchived == nil {
				s.notArchived = map[string]string{}
			}
			s.notArchived[cols[0]] = cols[1]
		}
		if len(cols) >= 5 && cols[4] != "" { // the comments column: a shortfall
			s.ShortfallCount++
			if len(s.Shortfalls) < MissingShown {
				s.Shortfalls = append(s.Shortfalls, Shortfall{cols[0], cols[4]})
			}
		}
	})
}

// ledgerArchived are the ledger's fates of URLs the archive accounts for
// (as the daemon's status pages read them): every other fate is
// something the crawl knew but did not archive.
var ledgerArchived = map[string]bool{"entry": true, "listing": true, "redirect": true, "stub": true,
	"duplicate": true, "out-of-scope": true, "skipped": true}

// archivedLater moves an archived entry's permalink that the ledger lists
// as not archived from its fate to "entry" (Stats.ArchivedLater).
func (s *Stats) archivedLater(permalink string) {
	fate, ok := s.notArchived[permalink]
	if !ok {
		return
	}
	delete(s.notArchived, permalink)
	if s.ArchivedLater == nil {
		s.ArchivedLater = map[string]int{}
	}
	s.ArchivedLater[fate]++
	if s.Fates[fate]--; s.Fates[fate] == 0 {
		delete(s.Fates, fate)
	}
	s.Fates["entry"]++
}

// captureLog counts the captured files of a bag by HTTP status, and their
// bytes.
func (s *Stats) captureLog(bag string) error {
	return eachLine(s.store, path.Join(bag, "data", "logs", "capture.log"), func(cols []string) {
		if len(cols) < 4 || strings.HasPrefix(cols[0], "#") {
			return
		}
		code, _ := strconv.Atoi(cols[1])
		size, _ := strconv.ParseInt(cols[3], 10, 64)
		s.Status[code]++
		s.Files++
		s.Bytes += size
	})
}

// eachLine calls fn with the tab-separated columns of every line of the
// file name of the archive s (opened without following links); a missing
// file has none.
func eachLine(s aip.Store, name string, fn func([]string)) error {
	f, err := s.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fn(strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", aip.Location(s, name), err)
	}
	return nil
}

// rules reads the learned rules (a JSON file in the Blog AIP's log
// objects): each field's XPath and confidence, one level of nesting.
func (s *Stats) rules(dir string) {
	ents, _ := s.store.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") || !e.Type().IsRegular() {
			continue
		}
		data, err := fs.ReadFile(s.store, path.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) != nil {
			continue
		}
		for name, raw := range top {
			if r, ok := rule(name, raw); ok {
				s.Rules = append(s.Rules, r)
				continue
			}
			var sub map[string]json.RawMessage
			if json.Unmarshal(raw, &sub) == nil {
				for n, raw := range sub {
					if r, ok := rule(name+"."+n, raw); ok {
						s.Rules = append(s.Rules, r)
					}
				}
			}
		}
	}
	sort.Slice(s.Rules, func(i, j int) bool { return s.Rules[i].Field < s.Rules[j].Field })
}

func rule(name string, raw json.RawMessage) (Rule, bool) {
	var r struct {
		XPath      string   `json:"xpath"`
		Confidence *float64 `json:"confidence"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Confidence == nil {
		return Rule{}, false
	}
	return Rule{Field: name, XPath: r.XPath, Confidence: *r.Confidence}, true
}
