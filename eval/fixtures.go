package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// fixturePrefix marks the project's fixture blogs in reports.
const fixturePrefix = "fixture/"

// fixtureSamples serves a fixture blog on loopback and returns its posts
// with their pages, oldest first, and Truth as the truth. Comments are
// truth only where they are in the static HTML (Comments "html" or
// "html+feed"), and only those shown on the post's own page; a post whose
// article JavaScript builds has no article truth in static HTML.
func fixtureSamples(name string) ([]sample, error) {
	site, err := fixture.New(name)
	if err != nil {
		return nil, fmt.Errorf("fixture %s: %w", name, err)
	}
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	tr := site.Truth(srv.URL)
	var out []sample
	for _, p := range tr.Posts {
		if p.Kind != "post" {
			continue
		}
		s, err := fixtureSample(srv.Client(), tr.Blog, p)
		if err != nil {
			return nil, fmt.Errorf("fixture %s: %w", name, err)
		}
		out = append(out, s)
	}
	sortSamples(out)
	return out, nil
}

// fixtureSample fetches one fixture post's page.
func fixtureSample(c *http.Client, b fixture.BlogTruth, p fixture.PostTruth) (sample, error) {
	body, ctype, err := get(c, p.URL)
	if err != nil {
		return sample{}, err
	}
	html, _, err := fetch.DecodeText(body, ctype)
	if err != nil {
		return sample{}, fmt.Errorf("decode %s: %w", p.URL, err)
	}
	s := sample{Page: learn.Page{URL: p.URL, HTML: html, Lang: b.Language}, Target: fixtureTarget(p)}
	s.Target.FullText = !p.Scripted
	if b.Comments == "html" || b.Comments == "html+feed" {
		s.CommentTruth = true
		s.Target.Comments = commentsOnPage(p)
	}
	return s, nil
}

// fixtureTarget converts a fixture post's truth; FullText is true.
func fixtureTarget(p fixture.PostTruth) learn.Target {
	t := learn.Target{Title: p.Title, Author: p.Author, Content: p.BodyText, FullText: true}
	t.Date, _ = time.Parse(time.RFC3339, p.Date)
	for _, c := range p.Comments {
		ct := learn.CommentTarget{ID: c.ID, Author: c.Author, Content: c.Text, ParentID: c.ParentID}
		ct.Date, _ = time.Parse(time.RFC3339, c.Date)
		t.Comments = append(t.Comments, ct)
	}
	return t
}

// commentsOnPage keeps the comments of p whose permalink is on the post's
// own page (not on a later comment page).
func commentsOnPage(p fixture.PostTruth) []learn.CommentTarget {
	all := fixtureTarget(p).Comments
	var out []learn.CommentTarget
	for i, c := range p.Comments {
		if samePage(c.URL, p.URL) {
			out = append(out, all[i])
		}
	}
	return out
}

// samePage reports whether two URLs name the same page, ignoring query
// and fragment.
func samePage(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Host == ub.Host && ua.Path == ub.Path
}

// get fetches a URL and returns its body and Content-Type.
func get(c *http.Client, u string) ([]byte, string, error) {
	resp, err := c.Get(u)
	if err != nil {
		return nil, "", fmt.Errorf("get %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("get %s: status %d", u, resp.StatusCode)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", fmt.Errorf("get %s: %w", u, err)
	}
	return body, resp.Header.Get("Content-Type"), nil
}

// fixtureNames returns the fixture blogs to evaluate: all, or those named
// in only (as "name" or "fixture/name").
func fixtureNames(only []string) []string {
	var out []string
	for _, n := range fixture.Names() {
		if len(only) == 0 || contains(only, n) || contains(only, fixturePrefix+n) {
			out = append(out, n)
		}
	}
	return out
}
