package aip

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
)

// The content digest (bag-info.txt Content-Digest) decides whether a
// capture is a new version of its record. It is computed from the fields
// that define a version, named one by one below, and from the digests of
// the record's media: a field added to Entry, Blog or Comment is outside the
// digest until it is added here, so it cannot give every archived record a
// new version on its next update by merely existing.
//
// Scheme 2 (contentDigestV2 prefix) is the one written. Scheme 1, written
// before it, was the SHA-256 of a JSON of the whole record minus the
// per-capture fields; a stored scheme-1 digest is compared with the
// scheme-1 digest of the new capture (legacyDigest), computed from a frozen
// copy of the record types of that time, so an archive written under scheme
// 1 updates without new versions for unchanged records.

// contentDigestV2 prefixes a scheme-2 Content-Digest value.
const contentDigestV2 = "v2:sha256:"

// entryOutsideDigest and blogOutsideDigest name the record fields left out
// of the content digest: what changes with every capture (files, capture
// time, provenance, problems) and what is versioned elsewhere (an entry's
// Language is its blog's). Every other field is in it (TestDigestFields).
var (
	entryOutsideDigest   = []string{"Language", "Files", "Problems", "Captured", "Provenance"}
	blogOutsideDigest    = []string{"Files", "Captured", "Provenance"}
	commentOutsideDigest = []string{"Provenance"}
)

// contentDigest returns the scheme-2 digest deciding whether a new version
// is needed: the record's defining fields (comments included) and the
// digests of its media files; a post's HTML is read with the pictures a page
// shuffles on each request in their sorted order (unshuffled).
func (p *pkg) contentDigest() string {
	d := fieldDigester{h: sha256.New()}
	switch {
	case p.kind == kindRequisites:
		d.str("permalink", p.permalink)
	case p.blog != nil:
		d.blog(p.blog)
	default:
		d.entry(p.entry)
	}
	p.digestMedia(d.h)
	return contentDigestV2 + hex.EncodeToString(d.h.Sum(nil))
}

// sameContent reports whether stored, the Content-Digest of the newest
// version, says the capture in p is unchanged: equal to p.digest, or a
// scheme-1 digest equal to p's scheme-1 digest.
func (p *pkg) sameContent(stored string) bool {
	if stored == p.digest {
		return true
	}
	return !strings.HasPrefix(stored, contentDigestV2) && strings.HasPrefix(stored, "sha256:") && stored == p.legacyDigest()
}

// digestMedia adds the URL and digest of every media file (every file of a
// requisites package) to h, sorted: captured in the order of the content.
func (p *pkg) digestMedia(h io.Writer) {
	var media []string
	for _, it := range p.items {
		if it.group == "media" || p.kind == kindRequisites {
			media = append(media, fmt.Sprintf("%s %s\n", it.file.URL, it.sha256))
		}
	}
	slices.Sort(media)
	for _, m := range media {
		io.WriteString(h, m)
	}
}

// fieldDigester feeds named fields to a hash, each as its name, a kind
// byte and its length-prefixed value, so that no two different records
// feed the same bytes.
type fieldDigester struct{ h hash.Hash }

func (d fieldDigester) put(name string, kind byte, v string) {
	var n [binary.MaxVarintLen64]byte
	io.WriteString(d.h, name)
	d.h.Write([]byte{0, kind})
	d.h.Write(n[:binary.PutUvarint(n[:], uint64(len(v)))])
	io.WriteString(d.h, v)
}

func (d fieldDigester) str(name, v string)     { d.put(name, 's', v) }
func (d fieldDigester) num(name string, v int) { d.put(name, 'i', strconv.Itoa(v)) }
func (d fieldDigester) flag(name string, v bool) {
	d.put(name, 'b', strconv.FormatBool(v))
}

// instant feeds a time as its UTC instant; the zero time as "".
func (d fieldDigester) instant(name string, t time.Time) {
	v := ""
	if !t.IsZero() {
		v = t.UTC().Format(time.RFC3339Nano)
	}
	d.put(name, 't', v)
}

func (d fieldDigester) list(name string, vs []string) {
	d.put(name, 'l', strconv.Itoa(len(vs)))
	for _, v := range vs {
		d.str(name, v)
	}
}

func (d fieldDigester) geo(name string, g *blogharvest.Geo) {
	if g == nil {
		d.put(name, 'g', "")
		return
	}
	d.put(name, 'g', strconv.FormatFloat(g.Latitude, 'g', -1, 64)+" "+strconv.FormatFloat(g.Longitude, 'g', -1, 64))
}

// entry feeds the defining fields of e (all but entryOutsideDigest).
func (d fieldDigester) entry(e *blogharvest.Entry) {
	d.str("BlogID", e.BlogID)
	d.str("Kind", string(e.Kind))
	d.str("URL", e.URL)
	d.str("Title", e.Title)
	d.str("Subtitle", e.Subtitle)
	d.str("Content", unshuffled(e.Content)) // galleries in random order (shuffle.go)
	d.str("ContentFormat", e.ContentFormat)
	d.str("Author", e.Author)
	d.list("Aliases", e.Aliases)
	d.str("AltIdentifier", e.AltIdentifier)
	d.instant("Created", e.Created)
	d.instant("Modified", e.Modified)
	d.str("Version", e.Version)
	d.num("StatusCode", e.StatusCode)
	d.str("ResponseCode", e.ResponseCode)
	d.geo("Geo", e.Geo)
	d.str("AccessRestriction", e.AccessRestriction)
	d.list("Categories", e.Categories)
	d.list("Tags", e.Tags)
	d.flag("HasReply", e.HasReply)
	d.num("NumReplies", e.NumReplies)
	d.instant("LastReplyDate", e.LastReplyDate)
	d.str("ChildOf", e.ChildOf)
	d.str("CreatedPrecision", string(e.CreatedPrecision))
	d.str("ModifiedPrecision", string(e.ModifiedPrecision))
	d.str("Unrendered", e.Unrendered)
	d.put("Comments", 'l', strconv.Itoa(len(e.Comments)))
	for i := range e.Comments {
		d.comment(&e.Comments[i])
	}
}

// comment feeds the defining fields of c (all but commentOutsideDigest).
func (d fieldDigester) comment(c *blogharvest.Comment) {
	d.str("ID", c.ID)
	d.str("URL", c.URL)
	d.str("Subject", c.Subject)
	d.str("Author", c.Author)
	d.str("Content", c.Content)
	d.str("ContentFormat", c.ContentFormat)
	d.str("Status", c.Status)
	d.instant("Added", c.Added)
	d.instant("Modified", c.Modified)
	d.str("AddressedTo", c.AddressedTo)
	d.geo("Geo", c.Geo)
	d.flag("HasReply", c.HasReply)
	d.num("NumReplies", c.NumReplies)
	d.str("PostURL", c.PostURL)
	d.str("ParentID", c.ParentID)
	d.str("ParentURL", c.ParentURL)
	d.str("AddedPrecision", string(c.AddedPrecision))
}

// blog feeds the defining fields of b (all but blogOutsideDigest).
func (d fieldDigester) blog(b *blogharvest.Blog) {
	d.str("ID", b.ID)
	d.str("URL", b.URL)
	d.str("Title", b.Title)
	d.str("Subtitle", b.Subtitle)
	d.list("Aliases", b.Aliases)
	d.num("StatusCode", b.StatusCode)
	d.str("Language", b.Language)
	d.str("Encoding", b.Encoding)
	d.str("SitemapURL", b.SitemapURL)
	d.str("FeedURL", b.FeedURL)
	d.str("Platform", b.Platform)
	d.str("PlatformVersion", b.PlatformVersion)
	d.str("Webmaster", b.Webmaster)
	d.str("HostingIP", b.HostingIP)
	d.str("LocationCity", b.LocationCity)
	d.str("LocationCountry", b.LocationCountry)
	d.instant("LastActivity", b.LastActivity)
	d.str("PostFrequency", b.PostFrequency)
	d.str("UpdateFrequency", b.UpdateFrequency)
	d.str("Copyright", b.Copyright)
	d.str("OwnershipRights", b.OwnershipRights)
	d.str("DistributionRights", b.DistributionRights)
	d.str("AccessRights", b.AccessRights)
	d.str("License", b.License)
}

// legacyDigest returns the scheme-1 digest of p: the SHA-256 of the JSON of
// the record as the types stood when scheme 1 was written (legacyEntry,
// legacyBlog: frozen, so fields added since change nothing), then the
// media. Used only to compare with a stored scheme-1 digest.
func (p *pkg) legacyDigest() string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	switch {
	case p.kind == kindRequisites:
		enc.Encode(p.permalink)
	case p.blog != nil:
		enc.Encode(legacyBlogOf(p.blog))
	default:
		enc.Encode(legacyEntryOf(p.entry))
	}
	p.digestMedia(h)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// legacyEntry is blogharvest.Entry as scheme 1 encoded it: same field
// order, names and tags; Files, Problems and Provenance always nil,
// Captured always zero.
type legacyEntry struct {
	BlogID            string
	Kind              blogharvest.Kind
	URL               string
	Title             string
	Subtitle          string
	Content           string
	ContentFormat     string
	Author            string
	Aliases           []string
	AltIdentifier     string
	Created           time.Time
	Modified          time.Time
	Version           string
	StatusCode        int
	ResponseCode      string
	Geo               *legacyGeo
	AccessRestriction string
	Categories        []string
	Tags              []string
	HasReply          bool
	NumReplies        int
	LastReplyDate     time.Time
	ChildOf           string
	Language          string `json:",omitempty"`
	CreatedPrecision  string `json:",omitempty"`
	ModifiedPrecision string `json:",omitempty"`
	Unrendered        string `json:",omitempty"`
	Comments          []legacyComment
	Files             []struct{}
	Problems          []string
	Captured          time.Time
	Provenance        map[string]string
}

// legacyComment is blogharvest.Comment as scheme 1 encoded it, Provenance
// always nil.
type legacyComment struct {
	ID             string
	URL            string
	Subject        string
	Author         string
	Content        string
	ContentFormat  string
	Status         string
	Added          time.Time
	Modified       time.Time
	AddressedTo    string
	Geo            *legacyGeo
	HasReply       bool
	NumReplies     int
	PostURL        string
	ParentID       string
	ParentURL      string
	AddedPrecision string `json:",omitempty"`
	Provenance     map[string]string
}

// legacyGeo is blogharvest.Geo as scheme 1 encoded it.
type legacyGeo struct{ Latitude, Longitude float64 }

// legacyBlog is blogharvest.Blog as scheme 1 encoded it; Files and
// Provenance always nil, Captured always zero.
type legacyBlog struct {
	ID                 string
	URL                string
	Title              string
	Subtitle           string
	Aliases            []string
	StatusCode         int
	Language           string
	Encoding           string
	SitemapURL         string
	FeedURL            string
	Platform           string
	PlatformVersion    string
	Webmaster          string
	HostingIP          string
	LocationCity       string
	LocationCountry    string
	LastActivity       time.Time
	PostFrequency      string
	UpdateFrequency    string
	Copyright          string
	OwnershipRights    string
	DistributionRights string
	AccessRights       string
	License            string
	Files              []struct{}
	Captured           time.Time
	Provenance         map[string]string
}

func legacyGeoOf(g *blogharvest.Geo) *legacyGeo {
	if g == nil {
		return nil
	}
	return &legacyGeo{g.Latitude, g.Longitude}
}

func legacyEntryOf(e *blogharvest.Entry) legacyEntry {
	l := legacyEntry{BlogID: e.BlogID, Kind: e.Kind, URL: e.URL, Title: e.Title, Subtitle: e.Subtitle,
		Content: unshuffled(e.Content), ContentFormat: e.ContentFormat, Author: e.Author, Aliases: e.Aliases,
		AltIdentifier: e.AltIdentifier, Created: e.Created, Modified: e.Modified, Version: e.Version,
		StatusCode: e.StatusCode, ResponseCode: e.ResponseCode, Geo: legacyGeoOf(e.Geo),
		AccessRestriction: e.AccessRestriction, Categories: e.Categories, Tags: e.Tags, HasReply: e.HasReply,
		NumReplies: e.NumReplies, LastReplyDate: e.LastReplyDate, ChildOf: e.ChildOf,
		CreatedPrecision: string(e.CreatedPrecision), ModifiedPrecision: string(e.ModifiedPrecision),
		Unrendered: e.Unrendered}
	if len(e.Comments) > 0 { // scheme 1 copied them with append: none encoded as null
		l.Comments = make([]legacyComment, len(e.Comments))
	}
	for i, c := range e.Comments {
		l.Comments[i] = legacyComment{ID: c.ID, URL: c.URL, Subject: c.Subject, Author: c.Author, Content: c.Content,
			ContentFormat: c.ContentFormat, Status: c.Status, Added: c.Added, Modified: c.Modified,
			AddressedTo: c.AddressedTo, Geo: legacyGeoOf(c.Geo), HasReply: c.HasReply, NumReplies: c.NumReplies,
			PostURL: c.PostURL, ParentID: c.ParentID, ParentURL: c.ParentURL, AddedPrecision: string(c.AddedPrecision)}
	}
	return l
}

func legacyBlogOf(b *blogharvest.Blog) legacyBlog {
	return legacyBlog{ID: b.ID, URL: b.URL, Title: b.Title, Subtitle: b.Subtitle, Aliases: b.Aliases,
		StatusCode: b.StatusCode, Language: b.Language, Encoding: b.Encoding, SitemapURL: b.SitemapURL,
		FeedURL: b.FeedURL, Platform: b.Platform, PlatformVersion: b.PlatformVersion, Webmaster: b.Webmaster,
		HostingIP: b.HostingIP, LocationCity: b.LocationCity, LocationCountry: b.LocationCountry,
		LastActivity: b.LastActivity, PostFrequency: b.PostFrequency, UpdateFrequency: b.UpdateFrequency,
		Copyright: b.Copyright, OwnershipRights: b.OwnershipRights, DistributionRights: b.DistributionRights,
		AccessRights: b.AccessRights, License: b.License}
}
