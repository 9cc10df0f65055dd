package main

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// contentType returns the media type the replay server sends for a corpus
// file (corpus README): XML for .xml/.rss/.atom/.rdf and for sniffed
// feeds, HTML otherwise, declared UTF-8 when the bytes are valid UTF-8
// (as the blogs' servers declared it; without it, HTML decoding would fall
// back to windows-1252 for pages with no <meta charset>).
func contentType(name string, body []byte) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xml", ".rss", ".atom", ".rdf":
		return "application/xml"
	}
	if feed.Sniff(body) {
		return "application/xml"
	}
	if utf8.Valid(body) {
		return "text/html; charset=utf-8"
	}
	return "text/html"
}
