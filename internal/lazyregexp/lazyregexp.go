// Package lazyregexp holds regular expressions declared at package level
// and compiled at their first use, not at init: every command of
// blogharvest, `blogharvest version` included, runs every package's init,
// and a package-level regexp.MustCompile there costs each of them its
// compilation (CPU, allocations, and the pages of code it touches) whether
// the expression is ever used or not.
//
// A Regexp is declared like regexp.MustCompile's result and used through
// the same read-only methods; it compiles once, on the first call, safely
// from several goroutines. An invalid expression panics at that first use
// instead of at init, so CheckAll (run by a test of the command, which
// links every package) compiles every expression the program declares.
package lazyregexp

import (
	"fmt"
	"io"
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled at its first use.
type Regexp struct {
	src  string
	once sync.Once
	rx   *regexp.Regexp
}

var (
	allMu sync.Mutex
	all   []*Regexp
)

// New returns the Regexp of expr (syntax of package regexp), not yet
// compiled.
func New(expr string) *Regexp {
	r := &Regexp{src: expr}
	allMu.Lock()
	all = append(all, r)
	allMu.Unlock()
	return r
}

// CheckAll compiles every Regexp made by New so far and returns an error
// naming the first that does not compile.
func CheckAll() error {
	allMu.Lock()
	rs := append([]*Regexp(nil), all...)
	allMu.Unlock()
	for _, r := range rs {
		if _, err := regexp.Compile(r.src); err != nil {
			return fmt.Errorf("lazyregexp: %w", err)
		}
	}
	return nil
}

// Regexp returns the compiled expression, compiling it on the first call.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.src) })
	return r.rx
}

// String returns the source text, without compiling it.
func (r *Regexp) String() string { return r.src }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.Regexp().Match(b) }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

// MatchReader is regexp.Regexp.MatchReader.
func (r *Regexp) MatchReader(rr io.RuneReader) bool { return r.Regexp().MatchReader(rr) }

// Find is regexp.Regexp.Find.
func (r *Regexp) Find(b []byte) []byte { return r.Regexp().Find(b) }

// FindIndex is regexp.Regexp.FindIndex.
func (r *Regexp) FindIndex(b []byte) []int { return r.Regexp().FindIndex(b) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.Regexp().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }

// FindSubmatch is regexp.Regexp.FindSubmatch.
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.Regexp().FindSubmatch(b) }

// FindSubmatchIndex is regexp.Regexp.FindSubmatchIndex.
func (r *Regexp) FindSubmatchIndex(b []byte) []int { return r.Regexp().FindSubmatchIndex(b) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}

// FindAll is regexp.Regexp.FindAll.
func (r *Regexp) FindAll(b []byte, n int) [][]byte { return r.Regexp().FindAll(b, n) }

// FindAllIndex is regexp.Regexp.FindAllIndex.
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Regexp().FindAllIndex(b, n) }

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}

// FindAllSubmatch is regexp.Regexp.FindAllSubmatch.
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.Regexp().FindAllSubmatch(b, n)
}

// FindAllSubmatchIndex is regexp.Regexp.FindAllSubmatchIndex.
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Regexp().FindAllSubmatchIndex(b, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAll is regexp.Regexp.ReplaceAll.
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.Regexp().ReplaceAll(src, repl) }

// ReplaceAllFunc is regexp.Regexp.ReplaceAllFunc.
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Regexp().ReplaceAllFunc(src, repl)
}

// ReplaceAllLiteral is regexp.Regexp.ReplaceAllLiteral.
func (r *Regexp) ReplaceAllLiteral(src, repl []byte) []byte {
	return r.Regexp().ReplaceAllLiteral(src, repl)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

// ReplaceAllLiteralString is regexp.Regexp.ReplaceAllLiteralString.
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Regexp().ReplaceAllLiteralString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.Regexp().Split(s, n) }

// NumSubexp is regexp.Regexp.NumSubexp.
func (r *Regexp) NumSubexp() int { return r.Regexp().NumSubexp() }

// SubexpIndex is regexp.Regexp.SubexpIndex.
func (r *Regexp) SubexpIndex(name string) int { return r.Regexp().SubexpIndex(name) }

// SubexpNames is regexp.Regexp.SubexpNames.
func (r *Regexp) SubexpNames() []string { return r.Regexp().SubexpNames() }
