package main

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"time"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/blogharvest/blogharvest/harvest/learn"
	distiller "github.com/markusmobius/go-domdistiller"
	trafilatura "github.com/markusmobius/go-trafilatura"
)

// System names as they appear in the report.
const (
	systemOurs        = "blogharvest"
	systemTrafilatura = "go-trafilatura"
	systemReadability = "readeck-readability"
	systemDistiller   = "go-domdistiller"
	// curveOursApply is the plot's curve of blogharvest without its
	// learning time.
	curveOursApply = "blogharvest (rules applied only)"
)

// baseline is a peer extractor run on the same pages as blogharvest.
type baseline struct {
	name    string
	extract func(p learn.Page) (result, error)
}

// baselines returns the peers in report order.
func baselines() []baseline {
	return []baseline{
		{systemTrafilatura, trafilaturaExtract},
		{systemReadability, readabilityExtract},
		{systemDistiller, distillerExtract},
	}
}

// trafilaturaExtract runs go-trafilatura with its default options (no
// fallback extractors), given the page URL.
func trafilaturaExtract(p learn.Page) (result, error) {
	u, _ := url.Parse(p.URL)
	res, err := trafilatura.Extract(bytes.NewReader(p.HTML), trafilatura.Options{OriginalURL: u})
	if err != nil {
		return result{}, fmt.Errorf("trafilatura %s: %w", p.URL, err)
	}
	m := res.Metadata
	return result{Title: m.Title, Author: m.Author, Date: m.Date, Text: res.ContentText}, nil
}

// readabilityExtract runs readeck's go-readability.
func readabilityExtract(p learn.Page) (result, error) {
	u, _ := url.Parse(p.URL)
	a, err := readability.FromReader(bytes.NewReader(p.HTML), u)
	if err != nil {
		return result{}, fmt.Errorf("readability %s: %w", p.URL, err)
	}
	r := result{Title: a.Title(), Author: a.Byline()}
	if a.Node != nil {
		var b strings.Builder
		if err := a.RenderText(&b); err == nil {
			r.Text = b.String()
		}
	}
	if d, err := a.PublishedTime(); err == nil {
		r.Date = d
	}
	return r, nil
}

// distillerExtract runs go-domdistiller without pagination detection
// (the report needs no next-page links).
func distillerExtract(p learn.Page) (result, error) {
	u, _ := url.Parse(p.URL)
	res, err := distiller.ApplyForReader(bytes.NewReader(p.HTML), &distiller.Options{OriginalURL: u, SkipPagination: true})
	if err != nil {
		return result{}, fmt.Errorf("domdistiller %s: %w", p.URL, err)
	}
	m := res.MarkupInfo
	r := result{Title: res.Title, Author: m.Author, Text: res.Text}
	if r.Author == "" && len(m.Article.Authors) > 0 {
		r.Author = m.Article.Authors[0]
	}
	r.Date = parseAnyDate(m.Article.PublishedTime, p.Lang)
	return r, nil
}

// parseAnyDate parses an RFC 3339 date, else whatever learn.ParseDate
// understands; zero when neither does.
func parseAnyDate(s, lang string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t
	}
	t, _ := learn.ParseDate(s, lang)
	return t
}
