package daemon

import (
	_ "embed"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"sync"
	"time"
)

//go:embed statuspage.html
var statusPageHTML string

// statusAuditHTML holds the status page's parts for the archivist's
// checks: "audit" (audit.go) and "aip", an AIP's name with, for an Entry
// AIP, its link to the entry as it looked (entryview.go).
//
//go:embed statusaudit.html
var statusAuditHTML string

// statusTemplates renders the status pages: "index" (every blog) and
// "blog" (one blog's runs and extraction methods). Parsed at the first
// page served, not at init: every command would pay for it.
var statusTemplates = sync.OnceValue(func() *template.Template {
	t := template.Must(template.New("status").Funcs(template.FuncMap{
		"when":    whenUTC,
		"bytes":   humanBytes,
		"sorted":  methodRows,
		"conf":    confRows,
		"fates":   fateCounts,
		"inc":     func(i int) int { return i + 1 },
		"isEntry": isEntryBag,
		"ref":     func(base, name string) aipRef { return aipRef{Base: base, Name: name} },
		"sub":     func(a, b int) int { return a - b },
		"short":   shortText,
	}).Parse(statusPageHTML))
	return template.Must(t.Parse(statusAuditHTML))
})

// statusRefresh is the pages' meta refresh interval in seconds.
const statusRefresh = 30

// refresh is the meta refresh interval a request asks for: statusRefresh,
// or none with ?refresh=0.
func refresh(r *http.Request) int {
	if r.URL.Query().Get("refresh") == "0" {
		return 0
	}
	return statusRefresh
}

// statusPages adds the read-only HTML status pages to mux: "/" lists every
// blog, "/blog/{id}" shows one. Links are relative, so the pages work
// behind a reverse proxy under a path prefix.
func (d *statusSource) statusPages(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		st, err := d.Status()
		if err != nil {
			http.Error(w, "status unavailable: "+publicText(err.Error(), d.plan.config()), http.StatusInternalServerError)
			return
		}
		d.render(w, "index", map[string]any{"Blogs": st, "Version": Build().Version, "Refresh": refresh(r), "Now": d.env.Now(),
			"Audit": d.role.auditStatus()})
	})
	mux.HandleFunc("GET /blog/{id}", func(w http.ResponseWriter, r *http.Request) {
		st, err := d.Status()
		if err != nil {
			http.Error(w, "status unavailable: "+publicText(err.Error(), d.plan.config()), http.StatusInternalServerError)
			return
		}
		id := r.PathValue("id")
		for _, s := range st {
			if s.ID == id {
				state, _, _ := d.plan.store.Get(id)
				d.render(w, "blog", map[string]any{"Blog": s, "Runs": d.plan.runsOf(id), "Written": d.plan.history.lastWritten(id),
					"Shortfall": d.view.shortfalls.of(d.view.store(), id), "Storage": d.view.storageOf(id, state),
					"Version": Build().Version, "Refresh": refresh(r), "Now": d.env.Now()})
				return
			}
		}
		http.Error(w, fmt.Sprintf("no blog %q in the configuration", id), http.StatusNotFound)
	})
}

func (d *statusSource) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	if err := statusTemplates().ExecuteTemplate(w, name, data); err != nil {
		d.env.Logger.Error("status page", "err", err)
	}
}

// whenUTC formats a time for the page, "—" when zero.
func whenUTC(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// methodRow is one field of a run's extraction methods.
type methodRow struct {
	Field   string
	Methods string // "rule 12, feed 3"
}

func methodRows(m map[string]map[string]int) []methodRow {
	var out []methodRow
	for field, ms := range m {
		names := make([]string, 0, len(ms))
		for n := range ms {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			return ms[names[i]] > ms[names[j]] || ms[names[i]] == ms[names[j]] && names[i] < names[j]
		})
		s := ""
		for i, n := range names {
			if i > 0 {
				s += ", "
			}
			s += fmt.Sprintf("%s %d", n, ms[n])
		}
		out = append(out, methodRow{field, s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// confRow is one learned rule's confidence.
type confRow struct {
	Field      string
	Confidence string
}

func confRows(m map[string]float64) []confRow {
	out := make([]confRow, 0, len(m))
	for f, c := range m {
		out = append(out, confRow{f, fmt.Sprintf("%.2f", c)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// shortLen is the runes of a long text the status pages show before
// "…": the whole text is in a details element (and a title).
const shortLen = 160

// shortText returns s cut to shortLen runes with "…", or s when shorter.
func shortText(s string) string {
	r := []rune(s)
	if len(r) <= shortLen {
		return s
	}
	return string(r[:shortLen-1]) + "…"
}
