package warc

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	gw "github.com/nlnwa/gowarc"
)

// CDXEntry is the JSON part of one CDXJ line, as pywb writes it: numbers
// as strings.
type CDXEntry struct {
	URL      string `json:"url"`
	Mime     string `json:"mime"`
	Status   string `json:"status"`
	Digest   string `json:"digest,omitempty"`
	Length   string `json:"length"`
	Offset   string `json:"offset"`
	Filename string `json:"filename"`
}

// addIndex adds the CDXJ line of a response or revisit record written at
// offset, n bytes long. digest, if not empty, is body's SHA-256 as
// "sha256:" and hex, already computed (the record's payload digest,
// record.go), not computed again.
func (w *Writer) addIndex(x blogharvest.Exchange, typ gw.RecordType, date time.Time, body []byte, digest string, offset, n int64) {
	e := CDXEntry{URL: x.URL, Status: strconv.Itoa(x.Status), Length: strconv.FormatInt(n, 10),
		Offset: strconv.FormatInt(offset, 10), Filename: w.info.Filename}
	if typ == gw.Revisit {
		e.Mime = "warc/revisit"
		if body != nil { // identical-payload-digest: the payload's digest, as the original's line has it
			sum := sha256.Sum256(body)
			e.Digest = "sha256:" + hex.EncodeToString(sum[:])
		}
	} else {
		e.Digest = digest
		if digest == "" {
			sum := sha256.Sum256(body)
			e.Digest = "sha256:" + hex.EncodeToString(sum[:])
		}
		e.Mime, _, _ = mime.ParseMediaType(http.Header(x.ResponseHeader).Get("Content-Type"))
		e.Mime = orDefault(e.Mime, "unk")
	}
	js, _ := json.Marshal(e)
	w.index = append(w.index, fmt.Sprintf("%s %s %s\n", SURT(x.URL), date.UTC().Format("20060102150405"), js))
}

// SURT returns the Sort-friendly URI Reordering Transform of raw as pywb
// and the surt library key their indexes: scheme and userinfo dropped,
// host lower case with a leading "www." (or "www2." …) removed and its
// labels reversed (IPv4 addresses too, as surt's default reverse_ipaddr
// does: 127.0.0.1 is "1,0,0,127"), a non-default port kept, then ")" and
// the path and query, query parameters sorted, all lower case. A URL that
// does not parse is returned lower case.
func SURT(raw string) string {
	raw = blogharvest.NormalizeURL(raw) // no space or brace in a key
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return strings.ToLower(raw)
	}
	host := wwwPrefix.ReplaceAllString(strings.ToLower(u.Hostname()), "")
	if ip := net.ParseIP(host); ip == nil || ip.To4() != nil {
		labels := strings.Split(host, ".")
		slices.Reverse(labels)
		host = strings.Join(labels, ",")
	}
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http" || p == "443" && u.Scheme == "https") {
		host += ":" + p
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		slices.Sort(params)
		path += "?" + strings.Join(params, "&")
	}
	return strings.ToLower(host + ")" + path)
}

// wwwPrefix is the "www." or "www<digits>." surt removes from hosts.
var wwwPrefix = lazyregexp.New(`^www\d*\.`)

// Line is one parsed CDXJ line.
type Line struct {
	SURT      string
	Timestamp string // 14 digits
	CDXEntry
}

// ParseIndex parses a CDXJ index; a malformed line is an error naming it.
func ParseIndex(data []byte) ([]Line, error) {
	var out []Line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		key, rest, ok1 := strings.Cut(sc.Text(), " ")
		ts, js, ok2 := strings.Cut(rest, " ")
		var l Line
		if !ok1 || !ok2 || len(ts) != 14 {
			return nil, fmt.Errorf("cdxj line %d: want \"<surt> <timestamp> <json>\"", n)
		}
		if err := json.Unmarshal([]byte(js), &l.CDXEntry); err != nil {
			return nil, fmt.Errorf("cdxj line %d: %w", n, err)
		}
		l.SURT, l.Timestamp = key, ts
		out = append(out, l)
	}
	return out, sc.Err()
}

// Lookup returns the lines of index whose key is SURT(rawURL), in index
// order.
func Lookup(index []Line, rawURL string) []Line {
	key := SURT(rawURL)
	var out []Line
	for _, l := range index {
		if l.SURT == key {
			out = append(out, l)
		}
	}
	return out
}
