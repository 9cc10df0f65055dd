package warc_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/warc"
	kgzip "github.com/klauspost/compress/gzip"
)

// hugeLineMember returns a gzip member holding one WARC record whose
// header (hugeHTTP false) or whose HTTP header (true) has a line of n
// bytes: a few hundred kB of gzip for a line far longer than MaxHeader.
func hugeLineMember(t testing.TB, n int64, hugeHTTP bool) []byte {
	t.Helper()
	var z bytes.Buffer
	zw, _ := kgzip.NewWriterLevel(&z, kgzip.BestSpeed)
	line := io.LimitReader(repeat('a'), n)
	if !hugeHTTP {
		io.WriteString(zw, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\nWARC-Target-URI: http://example.com/")
		io.Copy(zw, line)
		io.WriteString(zw, "\r\nContent-Length: 0\r\n\r\n\r\n\r\n")
	} else {
		const head = "HTTP/1.1 200 OK\r\nX-Huge: "
		fmt.Fprintf(zw, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000002>\r\n"+
			"WARC-Target-URI: http://example.com/\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n",
			int64(len(head))+n+4+100)
		io.WriteString(zw, head)
		io.Copy(zw, line)
		io.WriteString(zw, "\r\n\r\n")
		io.Copy(zw, io.LimitReader(repeat('b'), 100))
		io.WriteString(zw, "\r\n\r\n")
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestHugeHeaderLine puts a record whose WARC header line, or HTTP header
// line, is 8 MaxHeader long (128 MiB, in a gzip member of a few hundred kB)
// after a good record, and reads the file with Read, Scan and Verify:
// each fails with ErrHeaderTooLarge naming the record's offset, having
// allocated less than the line's length in all (gowarc's own reader read
// the whole line, allocating about twice its length), and goes on with
// the records after it. (Read of the HTTP line allocates about 4
// MaxHeader: 66 MiB under -race, so a 4-MaxHeader line proved nothing
// there.)
func TestHugeHeaderLine(t *testing.T) {
	good, _ := sample(t)
	const n = 8 * warc.MaxHeader
	for _, hugeHTTP := range []bool{false, true} {
		member := hugeLineMember(t, n, hugeHTTP)
		file := append(append(append([]byte(nil), good.Bytes()...), member...), good.Bytes()...)
		off := fmt.Sprintf("offset %d", len(good.Bytes()))
		goodRecs, _ := warc.Read(good.Bytes())
		count := func(n *int) func(warc.Record) error { return func(warc.Record) error { *n++; return nil } }
		var scanned, verified int
		readers := map[string]func() error{
			"Read": func() error {
				recs, err := warc.Read(file)
				if len(recs) != 2*len(goodRecs) {
					t.Errorf("Read: %d records, want the %d on either side of the bad one", len(recs), 2*len(goodRecs))
				}
				return err
			},
			"Scan": func() error {
				return warc.Scan(bytes.NewReader(file), 1<<30, func(warc.Record) bool { return true }, count(&scanned))
			},
			"Verify": func() error { return warc.Verify(bytes.NewReader(file), count(&verified)) },
		}
		for name, read := range readers {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := read()
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%s (HTTP line %v, gzip %d bytes): %d MiB allocated: %v", name, hugeHTTP, len(member), alloc>>20, err)
			if !errors.Is(err, warc.ErrHeaderTooLarge) || !strings.Contains(err.Error(), off) {
				t.Errorf("%s: got %v, want ErrHeaderTooLarge at %s", name, err, off)
			}
			if alloc >= n { // gowarc's reader allocated the whole line, and more
				t.Errorf("%s allocated %d MiB reading a header bounded at %d MiB", name, alloc>>20, warc.MaxHeader>>20)
			}
		}
		if want := 2 * len(goodRecs); scanned != want || verified != want {
			t.Errorf("Scan passed %d records, Verify %d; want the %d on either side of the bad one", scanned, verified, want)
		}
		scanned, verified = 0, 0
	}
}

// TestVerifyIsRead: Verify, streaming, passes the records Read returns
// (those with a payload, and the others) with the same ids, offsets and
// payload digests.
func TestVerifyIsRead(t *testing.T) {
	w, _ := sample(t)
	recs, err := warc.Read(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var got []warc.Record
	if err := warc.Verify(bytes.NewReader(w.Bytes()), func(r warc.Record) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("Verify passed %d records, Read returned %d", len(got), len(recs))
	}
	for i, r := range recs {
		g := got[i]
		if g.ID != r.ID || g.Offset != r.Offset || g.Type != r.Type || g.TargetURI != r.TargetURI ||
			g.PayloadSHA256 != r.PayloadSHA256 || g.PayloadDigest != r.PayloadDigest || g.RefersToURI != r.RefersToURI {
			t.Errorf("record %d: Verify %+v\nRead %+v", i, g, r)
		}
	}
}

// TestPlainWARCOffsets: a WARC file not gzipped reads with each record's
// offset its first byte's.
func TestPlainWARCOffsets(t *testing.T) {
	w, _ := sample(t)
	var plain bytes.Buffer
	zr, _ := gzip.NewReader(bytes.NewReader(w.Bytes()))
	io.Copy(&plain, zr)
	recs, err := warc.Read(plain.Bytes())
	if err != nil || len(recs) == 0 {
		t.Fatal(len(recs), err)
	}
	for _, r := range recs {
		if !bytes.HasPrefix(plain.Bytes()[r.Offset:], []byte("WARC/1.1\r\n")) {
			t.Errorf("record %s at offset %d: %q", r.ID, r.Offset, plain.Bytes()[r.Offset:r.Offset+10])
		}
	}
}
