package fetch

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/transform"
)

// Response is a fetched resource.
type Response struct {
	URL         string      // final URL, after redirects
	Status      int         // HTTP status code
	Header      http.Header // response headers as received
	Body        []byte      // raw bytes as sent, after content decoding
	NotModified bool        // true for a 304 answer to a conditional request
	Redirects   []string    // URLs that redirected here, first first
	Captured    time.Time   // when the response was read
	RemoteIP    string      // the server's IP, best effort; empty behind a proxy
	// Exchanges are the HTTP exchanges that led to this response, redirect
	// hops first (for the WARC; see blogharvest.Exchange).
	Exchanges []blogharvest.Exchange
}

// MediaType returns the Content-Type header, or a sniffed type if absent.
func (r *Response) MediaType() string {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		return ct
	}
	return http.DetectContentType(r.Body)
}

// File returns the response as a capture for the archive, summed.
func (r *Response) File(role blogharvest.Role) blogharvest.File {
	f := blogharvest.File{
		URL: r.URL, Role: role, MediaType: r.MediaType(), Body: r.Body,
		Captured: r.Captured, Status: r.Status, Header: r.Header.Clone(), Exchanges: r.Exchanges,
	}
	if f.Body == nil {
		f.Body = []byte{}
	}
	f.Sum()
	return f
}

// xmlEncoding finds the encoding of an XML declaration.
var xmlEncoding = lazyregexp.New(`^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']`)

// Text returns the body decoded to UTF-8 and the name of the charset it was
// decoded from. The charset comes from a byte order mark, the Content-Type
// header, an XML declaration or an HTML meta tag, in that order, and
// defaults to windows-1252 for HTML as browsers do (utf-8 for XML and JSON).
// A document that is mostly UTF-8 is read as UTF-8 whatever a meta tag or the
// default says. Bytes that are not valid UTF-8 in a UTF-8 document are
// repaired one by one (read as windows-1252); the rest is kept as it is.
func (r *Response) Text() ([]byte, string, error) {
	return DecodeText(r.Body, r.Header.Get("Content-Type"))
}

// DecodeText decodes body to UTF-8 as Response.Text does, given the
// Content-Type it was served with.
func DecodeText(body []byte, contentType string) ([]byte, string, error) {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if !certain {
		if m := xmlEncoding.FindSubmatch(body); m != nil {
			if e, n := charset.Lookup(string(m[1])); e != nil {
				enc, name = e, n
			}
		} else if isXMLorJSON(body, contentType) {
			enc, name = nil, "utf-8"
		}
		if name == "windows-1252" && LooksUTF8(body) {
			enc, name = nil, "utf-8"
		}
	}
	if enc == nil || name == "utf-8" {
		text, _ := blogharvest.RepairUTF8(trimBOM(body))
		return text, "utf-8", nil
	}
	out, _, err := transform.Bytes(enc.NewDecoder(), body)
	if err != nil {
		return nil, name, fmt.Errorf("decode %s: %w", name, err)
	}
	return out, name, nil
}

// LooksUTF8 reports whether b is UTF-8 with at most a few stray bytes: it
// holds multi-byte UTF-8 sequences, more of them than bytes that are not
// valid UTF-8. Text in a single-byte charset almost never does.
func LooksUTF8(b []byte) bool {
	valid, invalid := 0, 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			invalid++
		} else {
			valid++
		}
		i += size
	}
	return valid > 0 && valid > invalid
}

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

// isXMLorJSON reports whether a body without a declared charset is XML or
// JSON, whose default encoding is UTF-8.
func isXMLorJSON(body []byte, contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	if bytes.HasSuffix([]byte(mt), []byte("xml")) || bytes.HasSuffix([]byte(mt), []byte("json")) {
		return true
	}
	b := bytes.TrimSpace(trimBOM(body))
	return bytes.HasPrefix(b, []byte("<?xml")) || bytes.HasPrefix(b, []byte("{"))
}
