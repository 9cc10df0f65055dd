package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// runBlogs makes a run's blogs from "blog figure ok n" quadruples.
func runBlogs(figs ...any) []blogJSON {
	var out []blogJSON
	idx := map[string]int{}
	for i := 0; i+3 < len(figs); i += 4 {
		name, fig, ok, n := figs[i].(string), figs[i+1].(string), figs[i+2].(int), figs[i+3].(int)
		j, seen := idx[name]
		if !seen {
			j = len(out)
			idx[name] = j
			out = append(out, blogJSON{Name: name, Figures: map[string]figure{}})
		}
		out[j].Figures[fig] = newFigure(ok, n)
	}
	return out
}

// floorsOf makes a floors file of one mode from "blog figure floor"
// triples, with the default slack.
func floorsOf(mode string, fl ...any) *floorsFile {
	f := &floorsFile{Slack: defaultSlack, Modes: map[string]map[string]map[string]floor{mode: {}}}
	for i := 0; i+2 < len(fl); i += 3 {
		name, fig, v := fl[i].(string), fl[i+1].(string), fl[i+2].(float64)
		if f.Modes[mode][name] == nil {
			f.Modes[mode][name] = map[string]floor{}
		}
		f.Modes[mode][name][fig] = floor{Floor: v}
	}
	return f
}

// all expects every blog.
func all(string) bool { return true }

// TestGateFailsBelowFloor: a figure scored on enough cases one post below
// its floor fails, and the message names blog, figure, value and floor.
func TestGateFailsBelowFloor(t *testing.T) {
	f := floorsOf(modeCrawl, "lahso", figArticle, 1.0, "lahso", figTitle, 0.9, "3mdeb", figDate, 0.95)
	run := runBlogs("lahso", figArticle, 19, 20, "lahso", figTitle, 18, 20, "3mdeb", figDate, 19, 20)
	v, checked := checkFloors(f, modeCrawl, run, all)
	if checked != 3 {
		t.Errorf("checked %d figures, want 3", checked)
	}
	if len(v) != 1 {
		t.Fatalf("violations %v, want one (lahso article)", v)
	}
	msg := v[0].String()
	for _, want := range []string{"crawl", "lahso", "article", "0.9500", "19/20", "1.0000"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

// TestGateSlack: a figure with fewer than slack.below_n cases may be one
// case short, not two; at below_n cases there is no slack.
func TestGateSlack(t *testing.T) {
	f := floorsOf(modeCrawl, "a", figDate, 1.0, "b", figDate, 1.0, "c", figDate, 1.0, "d", figDate, 0.8888)
	run := runBlogs("a", figDate, 8, 9, "b", figDate, 7, 9, "c", figDate, 9, 10, "d", figDate, 7, 9)
	v, _ := checkFloors(f, modeCrawl, run, all)
	var failed []string
	for _, x := range v {
		failed = append(failed, x.Blog)
	}
	if want := []string{"b", "c"}; !reflect.DeepEqual(failed, want) {
		t.Errorf("failed blogs %v, want %v (a and d are within one case of slack: %v)", failed, want, v)
	}
	if len(v) == 2 && (v[0].Slack != 1 || !strings.Contains(v[0].String(), "slack") || v[1].Slack != 0) {
		t.Errorf("slack not reported: %q, %q", v[0], v[1])
	}
	f.Slack = slackRule{}
	if v, _ := checkFloors(f, modeCrawl, run, all); len(v) != 4 {
		t.Errorf("without slack %d violations, want 4: %v", len(v), v)
	}
}

// TestGateMissing: an expected blog that did not run, a figure the run
// did not score and a skipped blog fail; a blog the run was not meant to
// evaluate (-blogs, -fixtures) is not checked.
func TestGateMissing(t *testing.T) {
	f := floorsOf(modeExtract, "gone", figTitle, 1.0, "fixture/static", figTitle, 1.0, "lahso", figArticle, 1.0,
		"lahso", figCommentsRecall, 1.0, "skippy", figTitle, 1.0)
	run := runBlogs("lahso", figArticle, 20, 20)
	run = append(run, blogJSON{Name: "skippy", Skipped: "crawl failed: boom"})
	expected := func(name string) bool { return !strings.HasPrefix(name, fixturePrefix) }
	v, checked := checkFloors(f, modeExtract, run, expected)
	if checked != 4 {
		t.Errorf("checked %d, want 4 (fixture/static not expected)", checked)
	}
	got := map[string]string{}
	for _, x := range v {
		got[x.Blog+" "+x.Figure] = x.String()
	}
	for _, want := range []string{"gone title", "lahso comments_recall", "skippy title"} {
		if _, ok := got[want]; !ok {
			t.Errorf("no violation for %s in %v", want, got)
		}
	}
	if !strings.Contains(got["skippy title"], "boom") || !strings.Contains(got["gone title"], "not evaluated") {
		t.Errorf("reasons not given: %v", got)
	}
	if len(v) != 3 {
		t.Errorf("%d violations, want 3: %v", len(v), v)
	}
}

// TestRaiseFloors: floors rise to a run's values, never fall, and new
// figures get floors; force lowers and drops what the run did not score.
func TestRaiseFloors(t *testing.T) {
	f := floorsOf(modeCrawl, "a", figArticle, 0.5, "a", figTitle, 1.0, "a", figAuthor, 1.0, "old", figDate, 1.0)
	f.Modes[modeExtract] = map[string]map[string]floor{"a": {figTitle: {Floor: 0.1}}}
	run := runBlogs("a", figArticle, 2, 3, "a", figTitle, 9, 10, "a", figDate, 5, 5)
	changes := raiseFloors(f, modeCrawl, run, all, false)
	a := f.Modes[modeCrawl]["a"]
	if a[figArticle].Floor != 0.6666 || a[figArticle].N != 3 {
		t.Errorf("article floor %+v, want 0.6666 (2/3 cut, not rounded) on 3", a[figArticle])
	}
	if a[figTitle].Floor != 1.0 {
		t.Errorf("title floor lowered to %v without force", a[figTitle].Floor)
	}
	if a[figDate].Floor != 1.0 || a[figAuthor].Floor != 1.0 || f.Modes[modeCrawl]["old"] == nil {
		t.Errorf("new figure not added or unscored floors dropped without force: %+v", f.Modes[modeCrawl])
	}
	if f.Modes[modeExtract]["a"][figTitle].Floor != 0.1 {
		t.Errorf("the other mode's floors changed: %+v", f.Modes[modeExtract])
	}
	if len(changes) != 2 {
		t.Errorf("changes %q, want 2 (article raised, date new)", changes)
	}
	// The same counts always meet the floor they set.
	if v, _ := checkFloors(f, modeCrawl, run, func(n string) bool { return n == "a" }); len(v) != 2 {
		t.Errorf("violations %v, want title (kept at 1.0) and author (not scored)", v)
	}
	changes = raiseFloors(f, modeCrawl, run, all, true)
	a = f.Modes[modeCrawl]["a"]
	if a[figTitle].Floor != 0.9 {
		t.Errorf("force: title floor %v, want 0.9", a[figTitle].Floor)
	}
	if _, ok := a[figAuthor]; ok {
		t.Error("force: the floor of a figure not scored stays")
	}
	if _, ok := f.Modes[modeCrawl]["old"]; ok {
		t.Error("force: the floors of a blog not evaluated stay")
	}
	if v, _ := checkFloors(f, modeCrawl, run, all); len(v) != 0 {
		t.Errorf("after force, violations %v", v)
	}
	if len(changes) != 3 {
		t.Errorf("force changes %q, want 3", changes)
	}
}

// TestFloorsFileRoundTrip: the file written is JSON that reads back the
// same, one figure per line.
func TestFloorsFileRoundTrip(t *testing.T) {
	f := floorsOf(modeCrawl, "a", figArticle, 0.6666, "a", figTitle, 1.0, "b \"q\"", figDate, 0.25)
	f.Note = floorsNote
	f.Modes[modeCrawl]["a"][figArticle] = floor{Floor: 0.6666, N: 3}
	f.Modes[modeExtract] = map[string]map[string]floor{"a": {"unknown_figure": {Floor: 0.5, N: 2}}}
	raw := f.marshal()
	path := filepath.Join(t.TempDir(), "floors.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := readFloors(path, false)
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, raw)
	}
	if !reflect.DeepEqual(back, f) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, f)
	}
	if !strings.Contains(string(raw), "\n        \"article\": {\"floor\": 0.6666, \"n\": 3}") {
		t.Errorf("not one figure per line:\n%s", raw)
	}
	if _, err := readFloors(filepath.Join(t.TempDir(), "none.json"), false); err == nil {
		t.Error("a missing floors file read without error")
	}
}

// TestGateMain runs the command on a fixture blog: -write-floors creates
// the floors, a run against them passes; a floor no figure can meet makes
// Main fail naming it, in the error, the JSON and the Markdown; only
// -force-floors lowers it again.
func TestGateMain(t *testing.T) {
	dir := t.TempDir()
	fl := filepath.Join(dir, "floors.json")
	args := []string{"-fixtures", "-blogs", "static", "-mode", "extract", "-floors", fl}
	run := func(extra ...string) (map[string]any, string, error) {
		js, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
		err := Main(context.Background(), append(append(append([]string{}, args...), extra...), "-json", js, "-md", md), io.Discard)
		var r map[string]any
		if jerr := json.Unmarshal(readFile(t, js), &r); jerr != nil {
			t.Fatalf("report: %v", jerr)
		}
		return r, string(readFile(t, md)), err
	}
	if _, _, err := run("-write-floors"); err != nil {
		t.Fatalf("-write-floors: %v", err)
	}
	f, err := readFloors(fl, false)
	if err != nil {
		t.Fatal(err)
	}
	title, ok := f.Modes[modeExtract]["fixture/static"][figTitle]
	if !ok || title.N == 0 {
		t.Fatalf("no title floor written: %s", readFile(t, fl))
	}
	if _, _, err := run(); err != nil {
		t.Fatalf("the run that wrote the floors fails them: %v", err)
	}
	f.Modes[modeExtract]["fixture/static"][figTitle] = floor{Floor: 2, N: title.N}
	if err := os.WriteFile(fl, f.marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, md, err := run()
	if err == nil {
		t.Fatal("a figure below its floor passed the gate")
	}
	for _, want := range []string{"fixture/static", "title", "below floor 2.0000"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if vs, _ := obj(t, r, "gate")["violations"].([]any); len(vs) != 1 {
		t.Errorf("report gate violations %v, want 1", obj(t, r, "gate")["violations"])
	}
	if !strings.Contains(md, "**below floor 2.0000**") {
		t.Errorf("Markdown does not mark the figure:\n%s", md)
	}
	if _, _, err := run("-write-floors"); err == nil {
		t.Error("-write-floors lowered a floor without -force-floors")
	}
	if _, _, err := run("-write-floors", "-force-floors"); err != nil {
		t.Errorf("-force-floors: %v", err)
	}
	if _, _, err := run(); err != nil {
		t.Errorf("after -force-floors: %v", err)
	}
}
