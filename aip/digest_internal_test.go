package aip

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// setNonZero gives the field v a value other than its zero value.
func setNonZero(t *testing.T, name string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 7)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem())
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)))
			return
		}
		t.Fatalf("%s: no way to change a %s", name, v.Type())
	default:
		t.Fatalf("%s: no way to change a %s", name, v.Type())
	}
}

// checkDigestFields changes each field of the record that rec returns, one
// at a time, and checks that the content digest changes exactly for the
// fields not named in outside.
func checkDigestFields(t *testing.T, typ string, outside []string, rec func() (reflect.Value, func() string)) {
	t.Helper()
	v, digest := rec()
	base := digest()
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		v, digest := rec()
		setNonZero(t, typ+"."+name, v.Field(i))
		changed := digest() != base
		if in := !slices.Contains(outside, name); changed != in {
			t.Errorf("%s.%s: digest changed %v, want %v (a field is in the digest unless it is named outside it)", typ, name, changed, in)
		}
	}
}

// TestDigestFields proves the content digest is made of named fields: each
// field of Entry, Comment and Blog changes it unless it is named outside the
// digest, and the fields outside it (capture times, files, provenance —
// what a field that is no part of a version looks like) change nothing.
func TestDigestFields(t *testing.T) {
	entry := func() *blogharvest.Entry {
		return &blogharvest.Entry{BlogID: "b", URL: "https://b.example/p/", Title: "T", Content: "<p>x</p>",
			Comments: []blogharvest.Comment{{ID: "c1", Content: "hi"}}}
	}
	checkDigestFields(t, "Entry", entryOutsideDigest, func() (reflect.Value, func() string) {
		e := entry()
		return reflect.ValueOf(e).Elem(), func() string { return (&pkg{kind: kindEntry, entry: e}).contentDigest() }
	})
	checkDigestFields(t, "Comment", commentOutsideDigest, func() (reflect.Value, func() string) {
		e := entry()
		return reflect.ValueOf(&e.Comments[0]).Elem(), func() string { return (&pkg{kind: kindEntry, entry: e}).contentDigest() }
	})
	checkDigestFields(t, "Blog", blogOutsideDigest, func() (reflect.Value, func() string) {
		b := &blogharvest.Blog{ID: "b", URL: "https://b.example/", Title: "B"}
		return reflect.ValueOf(b).Elem(), func() string { return (&pkg{kind: kindBlog, blog: b}).contentDigest() }
	})
}

// TestDigestSchemes checks the capture's own fields leave the digest alone,
// that the frozen scheme-1 digest is stable, and which stored digests
// sameContent accepts.
func TestDigestSchemes(t *testing.T) {
	e := &blogharvest.Entry{BlogID: "b", URL: "https://b.example/p/", Title: "T", Content: "<p>x</p>"}
	p := &pkg{kind: kindEntry, entry: e}
	v2 := p.contentDigest()
	p.digest = v2
	if !strings.HasPrefix(v2, contentDigestV2) {
		t.Fatalf("digest %q lacks the scheme prefix %q", v2, contentDigestV2)
	}
	// The legacy digest is of a frozen type: equal for the same record.
	if a, b := p.legacyDigest(), p.legacyDigest(); a != b || !strings.HasPrefix(a, "sha256:") {
		t.Fatalf("legacy digests %q %q", a, b)
	}
	e.Captured = time.Now()
	e.Problems = []string{"media x: 404"}
	e.Files = []blogharvest.File{{URL: "https://b.example/p/", Role: blogharvest.RolePage}}
	if got := p.contentDigest(); got != v2 {
		t.Errorf("digest changed with the capture's own fields: %s → %s", v2, got)
	}
	if !p.sameContent(v2) || p.sameContent("sha256:0000") || p.sameContent(contentDigestV2+"0000") {
		t.Error("sameContent: wrong answer for the own, a wrong scheme-1 and a wrong scheme-2 digest")
	}
	if !p.sameContent(p.legacyDigest()) {
		t.Error("sameContent refuses the record's own scheme-1 digest")
	}
}

// fieldsSinceV1 names the record fields added after the scheme-1 digest:
// the scheme-1 encoding (legacyEntryOf, legacyBlogOf) must leave them out.
var fieldsSinceV1 = map[string]bool{}

// jsonKeys returns the keys of the JSON object in data, in order, and the
// object, nested values decoded.
func jsonKeys(t *testing.T, data []byte) ([]string, map[string]any) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token() // {
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v json.RawMessage
		dec.Decode(&v)
	}
	return keys, m
}

// checkLegacy compares the scheme-1 encoding of a record (legacy) with the
// JSON of the record type itself (whole), as scheme 1 computed it: the
// same keys in the same order and the same values, but for the fields the
// type gained since.
func checkLegacy(t *testing.T, what string, legacy, whole any) {
	t.Helper()
	l, _ := json.Marshal(legacy)
	w, _ := json.Marshal(whole)
	lk, lm := jsonKeys(t, l)
	wk, wm := jsonKeys(t, w)
	wk = slices.DeleteFunc(wk, func(k string) bool { return fieldsSinceV1[k] })
	for k := range fieldsSinceV1 {
		delete(wm, k)
	}
	if !slices.Equal(lk, wk) {
		t.Errorf("%s: scheme-1 keys\n%q\nwant (the type's, less fieldsSinceV1)\n%q", what, lk, wk)
	}
	if !reflect.DeepEqual(lm, wm) {
		t.Errorf("%s: scheme-1 values differ from the record's:\n%s\n%s", what, l, w)
	}
}

// TestLegacyDigestEncoding checks that the frozen scheme-1 encoding is the
// JSON scheme 1 made of a record with every field set (reflection), so that
// an archive written under scheme 1 keeps its versions whatever its records
// held (TestDigestV1ArchiveUpdates covers the fixture's fields only). A
// field added to Entry, Comment or Blog later makes this test fail until it
// is named in fieldsSinceV1.
func TestLegacyDigestEncoding(t *testing.T) {
	e := &blogharvest.Entry{}
	ev := reflect.ValueOf(e).Elem()
	for i := 0; i < ev.NumField(); i++ {
		setNonZero(t, "Entry."+ev.Type().Field(i).Name, ev.Field(i))
	}
	e.Comments = []blogharvest.Comment{{}}
	cv := reflect.ValueOf(&e.Comments[0]).Elem()
	for i := 0; i < cv.NumField(); i++ {
		setNonZero(t, "Comment."+cv.Type().Field(i).Name, cv.Field(i))
	}
	e.Content = "<p>a</p>" // unshuffled: unchanged
	// scheme 1: the whole Entry less the per-capture fields
	whole := *e
	whole.Files, whole.Captured, whole.Provenance, whole.Problems, whole.Language = nil, time.Time{}, nil, nil, ""
	whole.Comments = append([]blogharvest.Comment(nil), e.Comments...)
	whole.Comments[0].Provenance = nil
	checkLegacy(t, "Entry", legacyEntryOf(e), whole)

	b := &blogharvest.Blog{}
	bv := reflect.ValueOf(b).Elem()
	for i := 0; i < bv.NumField(); i++ {
		setNonZero(t, "Blog."+bv.Type().Field(i).Name, bv.Field(i))
	}
	wb := *b
	wb.Files, wb.Captured, wb.Provenance = nil, time.Time{}, nil
	checkLegacy(t, "Blog", legacyBlogOf(b), wb)
}
