package aip

import (
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
