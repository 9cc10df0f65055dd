package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// floorsFile is the committed floors file (-floors): per mode, per blog,
// per figure (figures.go) the value the evaluation must not fall below.
// Floors only rise (-write-floors), in the commit that earns them; only
// -force-floors lowers one.
type floorsFile struct {
	Note  string                                 `json:"note"`
	Slack slackRule                              `json:"slack"`
	Modes map[string]map[string]map[string]floor `json:"modes"` // mode → blog → figure → floor
}

// slackRule is the tolerance for figures scored on few cases: a figure
// with fewer than BelowN cases passes when Cases more successes would
// meet its floor (one post more, say, on a blog of eight held-out posts).
type slackRule struct {
	BelowN int `json:"below_n"`
	Cases  int `json:"cases"`
}

// floor is one figure's floor and the number of cases it was measured on
// (for the reader; the check uses the run's own count).
type floor struct {
	Floor float64 `json:"floor"`
	N     int     `json:"n"`
}

// defaultSlack is the slack of a new floors file: a figure scored on
// fewer than ten cases may be one case short of its floor.
var defaultSlack = slackRule{BelowN: 10, Cases: 1}

// floorsNote heads a new floors file.
const floorsNote = "Per-blog floors of the evaluation (eval/README.md, \"Floors\"): go run . -floors floors.json fails " +
	"when a figure falls below its floor; -write-floors raises floors to a run's values and never lowers one " +
	"(-force-floors does). A figure with fewer than slack.below_n cases passes when slack.cases more successes " +
	"would meet its floor."

// violation is one figure that fails its floor.
type violation struct {
	Mode   string  `json:"mode"`
	Blog   string  `json:"blog"`
	Figure string  `json:"figure"`
	OK     int     `json:"ok"`
	N      int     `json:"n"`
	Value  float64 `json:"value"`
	Floor  float64 `json:"floor"`
	Slack  int     `json:"slack"`  // cases of slack the figure had
	Reason string  `json:"reason"` // what failed
}

// String names the blog, figure, value and floor.
func (v violation) String() string {
	switch {
	case v.N == 0:
		return fmt.Sprintf("%s %s %s: %s (floor %.4f)", v.Mode, v.Blog, v.Figure, v.Reason, v.Floor)
	case v.Slack > 0:
		return fmt.Sprintf("%s %s %s: %.4f (%d/%d) below floor %.4f, even with %d case(s) of slack (fewer than %s)",
			v.Mode, v.Blog, v.Figure, v.Value, v.OK, v.N, v.Floor, v.Slack, v.Reason)
	default:
		return fmt.Sprintf("%s %s %s: %.4f (%d/%d) below floor %.4f", v.Mode, v.Blog, v.Figure, v.Value, v.OK, v.N, v.Floor)
	}
}

// gateJSON is the floors check of a run, in the report.
type gateJSON struct {
	Floors     string      `json:"floors"`
	Checked    int         `json:"checked"` // figures compared with a floor
	Violations []violation `json:"violations"`
	Changes    []string    `json:"changes,omitempty"` // floors written (-write-floors)
}

// readFloors reads a floors file; a missing file is an empty one when
// missingOK (-write-floors creates it).
func readFloors(path string, missingOK bool) (*floorsFile, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && missingOK {
		return &floorsFile{Note: floorsNote, Slack: defaultSlack, Modes: map[string]map[string]map[string]floor{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("floors: %w", err)
	}
	f := &floorsFile{}
	if err := json.Unmarshal(raw, f); err != nil {
		return nil, fmt.Errorf("floors %s: %w", path, err)
	}
	if f.Modes == nil {
		f.Modes = map[string]map[string]map[string]floor{}
	}
	return f, nil
}

// checkFloors compares the run's per-blog figures of mode with their
// floors. expected says whether the run was meant to evaluate a blog (it
// was selected by -blogs, and -fixtures was given for a fixture blog): a
// blog with floors that was expected but not evaluated fails, as does a
// floor whose figure the run did not score. It returns the violations and
// how many figures were compared.
func checkFloors(f *floorsFile, mode string, blogs []blogJSON, expected func(string) bool) (out []violation, checked int) {
	byName := map[string]blogJSON{}
	for _, b := range blogs {
		byName[b.Name] = b
	}
	for _, name := range slices.Sorted(maps.Keys(f.Modes[mode])) {
		floors := f.Modes[mode][name]
		b, ran := byName[name]
		if !ran && !expected(name) {
			continue
		}
		for _, fig := range sortedFigures(floors) {
			fl := floors[fig]
			checked++
			got, ok := b.Figures[fig]
			switch {
			case !ran:
				out = append(out, violation{Mode: mode, Blog: name, Figure: fig, Floor: fl.Floor, Reason: "blog not evaluated"})
			case !ok:
				reason := "not scored in this run"
				if b.Skipped != "" {
					reason += " (skipped: " + b.Skipped + ")"
				}
				out = append(out, violation{Mode: mode, Blog: name, Figure: fig, Floor: fl.Floor, Reason: reason})
			default:
				slack := 0
				if got.N < f.Slack.BelowN {
					slack = f.Slack.Cases
				}
				if float64(got.OK+slack)/float64(got.N) < fl.Floor-1e-9 {
					v := violation{Mode: mode, Blog: name, Figure: fig, OK: got.OK, N: got.N, Value: got.Value,
						Floor: fl.Floor, Slack: slack}
					if slack > 0 {
						v.Reason = fmt.Sprintf("%d cases", f.Slack.BelowN)
					}
					out = append(out, v)
				}
			}
		}
	}
	return out, checked
}

// raiseFloors sets the floors of mode from the run's figures: a new
// figure gets its value as floor, a floor below the value rises to it,
// and a floor above it stays, unless force, which sets every floor to the
// run's value and drops the floors of figures (and expected blogs) the
// run did not score. It returns what changed, one line per floor.
func raiseFloors(f *floorsFile, mode string, blogs []blogJSON, expected func(string) bool, force bool) []string {
	var changes []string
	if f.Modes[mode] == nil {
		f.Modes[mode] = map[string]map[string]floor{}
	}
	floors := f.Modes[mode]
	ran := map[string]bool{}
	for _, b := range blogs {
		ran[b.Name] = true
		if floors[b.Name] == nil {
			floors[b.Name] = map[string]floor{}
		}
		bf := floors[b.Name]
		for _, fig := range sortedFigures(b.Figures) {
			got := b.Figures[fig]
			nf := floor{Floor: floorOf(got), N: got.N}
			old, had := bf[fig]
			switch {
			case !had:
				changes = append(changes, fmt.Sprintf("%s %s %s: new floor %.4f (%d/%d)", mode, b.Name, fig, nf.Floor, got.OK, got.N))
			case nf.Floor > old.Floor:
				changes = append(changes, fmt.Sprintf("%s %s %s: raised %.4f → %.4f (%d/%d)", mode, b.Name, fig, old.Floor, nf.Floor, got.OK, got.N))
			case nf.Floor < old.Floor && force:
				changes = append(changes, fmt.Sprintf("%s %s %s: LOWERED %.4f → %.4f (%d/%d)", mode, b.Name, fig, old.Floor, nf.Floor, got.OK, got.N))
			case nf.Floor == old.Floor && nf.N != old.N:
				// same floor, measured on another number of cases
			default:
				continue
			}
			bf[fig] = nf
		}
		if force {
			for _, fig := range sortedFigures(bf) {
				if _, ok := b.Figures[fig]; !ok {
					changes = append(changes, fmt.Sprintf("%s %s %s: floor %.4f dropped (not scored)", mode, b.Name, fig, bf[fig].Floor))
					delete(bf, fig)
				}
			}
		}
		if len(bf) == 0 {
			delete(floors, b.Name)
		}
	}
	if force {
		for _, name := range slices.Sorted(maps.Keys(floors)) {
			if !ran[name] && expected(name) {
				changes = append(changes, fmt.Sprintf("%s %s: floors dropped (blog not evaluated)", mode, name))
				delete(floors, name)
			}
		}
	}
	return changes
}

// sortedFigures lists a map's figure names in figureOrder, unknown names
// last, sorted.
func sortedFigures[V any](m map[string]V) []string {
	var out []string
	for _, name := range figureOrder {
		if _, ok := m[name]; ok {
			out = append(out, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(figureOrder, name) {
			out = append(out, name)
		}
	}
	return out
}

// marshal writes the floors file with one figure per line, keys sorted
// (modes, blogs) or in figureOrder (figures), so that a raised floor is a
// one-line diff.
func (f *floorsFile) marshal() []byte {
	var b strings.Builder
	str := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	fmt.Fprintf(&b, "{\n  \"note\": %s,\n  \"slack\": {\"below_n\": %d, \"cases\": %d},\n  \"modes\": {", str(f.Note),
		f.Slack.BelowN, f.Slack.Cases)
	for i, mode := range slices.Sorted(maps.Keys(f.Modes)) {
		fmt.Fprintf(&b, "%s\n    %s: {", comma(i), str(mode))
		blogs := f.Modes[mode]
		for j, name := range slices.Sorted(maps.Keys(blogs)) {
			fmt.Fprintf(&b, "%s\n      %s: {", comma(j), str(name))
			for k, fig := range sortedFigures(blogs[name]) {
				fl := blogs[name][fig]
				fmt.Fprintf(&b, "%s\n        %s: {\"floor\": %s, \"n\": %d}", comma(k), str(fig),
					strconv.FormatFloat(fl.Floor, 'f', -1, 64), fl.N)
			}
			b.WriteString("\n      }")
		}
		b.WriteString("\n    }")
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

// comma separates the items of a JSON object after the first.
func comma(i int) string {
	if i == 0 {
		return ""
	}
	return ","
}

// applyFloors runs the gate of -floors on a report: with -write-floors it
// first raises (with -force-floors, sets) the floors of the run's mode and
// writes the file back; then it checks every figure against its floor.
// The gate is recorded in r.Gate; the error lists the violations.
func applyFloors(cfg *config, r *report) error {
	if cfg.floors == "" {
		return nil
	}
	f, err := readFloors(cfg.floors, cfg.writeFloors)
	if err != nil {
		return err
	}
	expected := cfg.expects
	g := &gateJSON{Floors: cfg.floors}
	if cfg.writeFloors {
		g.Changes = raiseFloors(f, r.Mode, r.Blogs, expected, cfg.forceFloors)
		if err := os.WriteFile(cfg.floors, f.marshal(), 0o644); err != nil {
			return fmt.Errorf("floors: %w", err)
		}
	}
	g.Violations, g.Checked = checkFloors(f, r.Mode, r.Blogs, expected)
	r.Gate = g
	if len(g.Violations) == 0 {
		return nil
	}
	lines := make([]string, len(g.Violations))
	for i, v := range g.Violations {
		lines[i] = "  " + v.String()
	}
	return fmt.Errorf("%d of %d figures below their floors in %s:\n%s", len(g.Violations), g.Checked, cfg.floors,
		strings.Join(lines, "\n"))
}

// expects reports whether the run was meant to evaluate the blog name: a
// fixture blog needs -fixtures, a corpus blog -corpus, and with -blogs the
// blog must be named there.
func (cfg *config) expects(name string) bool {
	if fx, ok := strings.CutPrefix(name, fixturePrefix); ok {
		return cfg.fixtures && (len(cfg.blogs) == 0 || contains(cfg.blogs, fx) || contains(cfg.blogs, name))
	}
	return cfg.corpus != "" && (len(cfg.blogs) == 0 || contains(cfg.blogs, name))
}
