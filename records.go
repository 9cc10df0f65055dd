package blogharvest

import (
	"bytes"
	"io"
	"io/fs"
	"time"
)

// Method names how the value of an extracted field was obtained.
type Method string

// The methods a field's value can come from, most to least trusted.
const (
	MethodFeed       Method = "feed"       // the blog's own feed (RSS, Atom, JSON Feed, comment feed)
	MethodRule       Method = "rule"       // a rule learned from feed ↔ page pairs
	MethodStructured Method = "structured" // JSON-LD, microformats h-entry, OpenGraph / article:* meta
	MethodHeuristic  Method = "heuristic"  // platform heuristics (hentry, entry-content, post-body …)
	MethodDensity    Method = "density"    // text density (CETD)
	MethodHTTP       Method = "http"       // the HTTP exchange itself (status, headers)
	MethodConfig     Method = "config"     // the archivist's configuration
	MethodComputed   Method = "computed"   // derived from other harvested values
	// MethodURL is the date in the entry's URL path (/2013/08/09/slug/),
	// when neither the page nor a feed dates it.
	MethodURL Method = "url"
	// MethodSitemap is a sitemap's <lastmod>: a modification date; taken
	// as the creation date only when nothing else dates the entry.
	MethodSitemap Method = "sitemap"
)

// Provenance maps a field name (the MARC attribute name of DESIGN §6, such as
// "title" or "date_created") to the method that produced its value. A field
// absent from the map was not harvested.
type Provenance map[string]Method

// Set records that field was produced by m. It allocates the map if needed.
func (p *Provenance) Set(field string, m Method) {
	if *p == nil {
		*p = make(Provenance)
	}
	(*p)[field] = m
}

// Kind says whether an Entry is a dated post or a standalone page.
type Kind string

// Entry kinds.
const (
	KindPost Kind = "post"
	KindPage Kind = "page"
)

// Geo is a point on the WGS 84 ellipsoid, in decimal degrees.
type Geo struct {
	Latitude  float64
	Longitude float64
}

// Blog is one blog as a whole: its identity and the metadata of the BlogForever
// Blog record (DESIGN §6). Dates are zero when unknown; strings are empty when
// unknown.
type Blog struct {
	ID  string // the archivist's id for the blog; a safe folder name (see ValidID)
	URL string // home page (URI, 520$u)

	Title              string   // 245$a
	Subtitle           string   // 245$b
	Aliases            []string // other URLs of the blog (100$g)
	StatusCode         int      // HTTP status of the home page (952$a); zero if not fetched
	Language           string   // BCP 47 tag (041$a)
	Encoding           string   // character encoding of the home page (532)
	SitemapURL         string   // 520 (sitemap_uri)
	FeedURL            string   // the posts feed the harvest used
	Platform           string   // generator, e.g. "WordPress" (781$a)
	PlatformVersion    string   // 781$b
	Webmaster          string   // 955$a
	HostingIP          string   // 956$a; best effort, may stay empty behind a proxy
	LocationCity       string   // 270$d
	LocationCountry    string   // 270$b
	LastActivity       time.Time
	PostFrequency      string // e.g. "2.5 posts/week", computed from entry dates (954$b)
	UpdateFrequency    string // e.g. "hourly/1" from sy:updatePeriod/updateFrequency, or "ttl 60m" (954$c)
	Copyright          string // 542
	OwnershipRights    string // 542
	DistributionRights string // 542
	AccessRights       string // 542
	License            string // 542$f

	Files      []File     // captured feed, sitemap, robots.txt, home page snapshots
	Captured   time.Time  // when the harvest that produced this record started
	Provenance Provenance // per field, how its value was obtained
}

// Entry is one post or page of a blog with its comments and captured files
// (the BlogForever Entry record).
type Entry struct {
	BlogID string // the owning Blog's ID
	Kind   Kind   // post or page
	URL    string // canonical permalink (URI, 520$u)

	Title             string   // 245$a
	Subtitle          string   // 245$b
	Content           string   // cleaned article HTML (full_content, 520$a)
	ContentFormat     string   // media type of Content, normally "text/html" (520$b)
	Author            string   // 100$a
	Aliases           []string // other URLs of the entry: feed link, ?p= short link (100$g)
	AltIdentifier     string   // feed guid or platform post id (024 7_ $a)
	Created           time.Time
	Modified          time.Time
	Version           string   // the platform's revision marker, if any (950$a)
	StatusCode        int      // HTTP status of the captured page (952$a)
	ResponseCode      string   // HTTP reason, e.g. "200 OK" (952$b)
	Geo               *Geo     // 342 $g/$h; nil when unknown
	AccessRestriction string   // e.g. "password protected" (506); empty when public
	Categories        []string // the blog's categories (653)
	Tags              []string // the blog's tags (653)
	HasReply          bool     // 788$a
	NumReplies        int      // 788$b; comments known to exist, even if not all captured
	LastReplyDate     time.Time
	ChildOf           string // URI of the enclosing blog (760)
	Language          string `json:",omitempty"` // BCP 47 tag of the blog, inherited (MARC 008/35-37); not in the content digest

	// CreatedPrecision and ModifiedPrecision say how much of Created and
	// Modified the source gave (a day, a minute …); zero: a full instant,
	// left out of the JSON so that records written before them keep their
	// content digest.
	CreatedPrecision  Precision `json:",omitempty"`
	ModifiedPrecision Precision `json:",omitempty"`

	// Unrendered, when not empty, says why the page needed rendering
	// ("render: always", "comments by disqus") although it was archived
	// without: the browser did not start. It is part of the content
	// digest (left out of the JSON when empty, so earlier digests hold),
	// so that the next capture that renders the page writes a new version.
	Unrendered string `json:",omitempty"`

	Comments   []Comment
	Files      []File     // captured page, rendered page, screenshot, media, feed item, comment feed
	Problems   []string   // non-fatal failures, e.g. "media https://…/a.jpg: 404"
	Captured   time.Time  // when the page was captured
	Provenance Provenance // per field, how its value was obtained
}

// Comment is one reader comment on an Entry (the BlogForever Comment record).
// Comments nest through ParentID.
type Comment struct {
	ID            string // stable within the entry: the platform's id ("comment-42") or a digest
	URL           string // permalink of the comment (520$u)
	Subject       string // 245$a
	Author        string // 100$a
	Content       string // 520$a
	ContentFormat string // 520$b
	Status        string // e.g. "approved" (952$a)
	Added         time.Time
	Modified      time.Time
	AddressedTo   string // URI the comment answers (789$u)
	Geo           *Geo
	HasReply      bool   // 788$a
	NumReplies    int    // 788$b
	PostURL       string // the entry's permalink (773, is_child_of_post)
	ParentID      string // ID of the comment answered; empty for a top-level comment
	ParentURL     string // permalink of the comment answered (773, is_child_of_comment)

	// AddedPrecision says how much of Added the source gave; zero: a full
	// instant (left out of the JSON, as Entry.CreatedPrecision).
	AddedPrecision Precision `json:",omitempty"`

	Provenance Provenance
}

// File is one captured resource: the bytes a server sent for a URL (or that
// the harvest made, like a screenshot), with what is needed to preserve them.
type File struct {
	URL       string              // where it came from; empty for files the harvest made
	Role      Role                // what the file is to the record
	MediaType string              // e.g. "text/html; charset=utf-8"
	Body      []byte              // the content; nil when Path is set
	Path      string              // content on local disk, for large files being written; empty when Body is set
	SHA256    string              // lowercase hex of the content; filled by Sum
	Size      int64               // bytes
	Captured  time.Time           // when the response arrived
	Status    int                 // HTTP status; zero for files the harvest made
	Header    map[string][]string // response headers as received

	// Exchanges are the HTTP exchanges that produced the file, redirect
	// hops first; the last one's payload is the file's content. Empty for
	// files the harvest made.
	Exchanges []Exchange
	// WARCRecordID is the WARC-Record-ID ("urn:uuid:…", without the
	// angle brackets of the WARC header) of the record
	// holding the file in its AIP's WARC; aip sets it when it writes the
	// package.
	WARCRecordID string
	// Reused, when set, says the file was not fetched in this crawl: it is
	// a copy of a capture an earlier AIP of the same record holds, and
	// Reused is the WARC-Record-ID of that capture's response record
	// (Captured, Status and Header are the original capture's). No WARC
	// record of the new version copies it: the version names the record
	// (PREMIS) and the package whose WARC holds it (ReusedIn).
	Reused string
	// ReusedIn is the OBJID ("urn:uuid:…") of the AIP version whose WARC
	// holds the Reused record, when known (aip.ArchivedMedia sets it).
	ReusedIn string
	// Stored, for a file loaded from an archive (aip.ArchivedMedia and
	// the other readers), is where its content is kept there: read it
	// through Open or Content, never by a path, so that one reader serves
	// a folder archive and an S3 one alike. Not serialised.
	Stored *Stored `json:"-"`
}

// Stored names an archived file's content: the object Name of FS, an
// archive's store (aip.Store) read through io/fs.
type Stored struct {
	FS   fs.FS
	Name string // slash-separated, relative to the store's root
}

// Open opens the file's content: Body when set, else the archived object
// (Stored). A file whose content is only at Path (a large file a caller
// writes from disk) is not opened here but by the Writer that takes it:
// Open fails with fs.ErrNotExist.
func (f *File) Open() (io.ReadCloser, error) {
	switch {
	case f.Body != nil:
		return io.NopCloser(bytes.NewReader(f.Body)), nil
	case f.Stored != nil:
		return f.Stored.FS.Open(f.Stored.Name)
	case f.Path != "":
		return nil, &fs.PathError{Op: "open", Path: f.Path, Err: fs.ErrNotExist}
	}
	return io.NopCloser(bytes.NewReader(nil)), nil
}

// Content returns the file's bytes as Open reads them.
func (f *File) Content() ([]byte, error) {
	if f.Body != nil || f.Stored == nil && f.Path == "" {
		return f.Body, nil
	}
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// Exchange is one HTTP request and the response to it as they crossed the
// wire, kept for the WARC of the AIP (DESIGN §7). No secret is kept: the
// values of Authorization, Proxy-Authorization, Cookie and Set-Cookie are
// replaced by Redacted (cookie names and attributes stay).
type Exchange struct {
	Method        string              // e.g. "GET"
	URL           string              // the request URI, without userinfo
	RequestProto  string              // e.g. "HTTP/1.1"
	RequestHeader map[string][]string // as sent, Host included, secrets redacted

	Proto          string              // of the response, e.g. "HTTP/1.1" or "HTTP/2.0"
	Status         int                 // e.g. 200
	Reason         string              // the status line's text, e.g. "200 OK"
	ResponseHeader map[string][]string // as received, after the transport decoded chunking
	// Body is the response payload after content decoding (gzip, br,
	// deflate). It is nil in the last exchange of a File, whose payload is
	// the File's content.
	Body      []byte
	Truncated bool // Body was cut short (a redirect's body beyond its cap)

	RemoteIP string    // the server's address, best effort; empty behind a proxy
	Sent     time.Time // when the request was sent
	Received time.Time // when the response headers arrived
}

// Redacted replaces the value of a secret header in an Exchange.
const Redacted = "[redacted]"

// Role says what a captured File is to the record that holds it.
type Role string

// File roles. They map onto the METS fileSec groups of DESIGN §7.
const (
	RolePage        Role = "page"         // raw HTML of the entry or home page
	RoleRendered    Role = "rendered"     // DOM serialised after JavaScript ran
	RoleScreenshot  Role = "screenshot"   // full-page PNG
	RoleMedia       Role = "media"        // image, audio, video, attachment
	RoleFeed        Role = "feed"         // the posts feed or the feed item of the entry
	RoleCommentFeed Role = "comment-feed" // the entry's comment feed
	RoleSitemap     Role = "sitemap"
	RoleRobots      Role = "robots"
	RoleLog         Role = "log" // capture logs
	// RoleRequisite is a page requisite: what a browser loads to draw an
	// archived page (stylesheets and what they load, scripts, fonts,
	// images outside the article, favicons, iframe documents). aip keeps
	// one copy per payload digest in the blog's requisites package; the
	// page's AIP names it in its page's WARC metadata record and its METS.
	RoleRequisite Role = "requisite"
	// RoleLedger is the crawl ledger of the Blog record: every URL the
	// crawl met and its fate (harvest.LedgerTSV), kept as data/logs/ledger.tsv.
	RoleLedger Role = "ledger"
	// RoleState is what a crawl leaves in the Blog record for the next
	// update that no capture holds: the comment APIs it watches and the
	// comment shapes it learned and the scripts that drew comment widgets
	// (harvest.WatchFrom reads it), kept as data/objects/state/state.json.
	RoleState Role = "state"
)
