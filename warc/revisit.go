package warc

import (
	"errors"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest"
	gw "github.com/nlnwa/gowarc"
)

// ProfileIdenticalPayload is the WARC 1.1 revisit profile of a capture
// whose payload another record already holds.
const ProfileIdenticalPayload = gw.ProfileIdenticalPayloadDigestV1_1

// Original names the record that holds a payload a revisit record refers
// to: its WARC-Record-ID, WARC-Target-URI and WARC-Date (which replay
// tools look the original up by).
type Original struct {
	URL  string    // WARC-Refers-To-Target-URI
	Date time.Time // WARC-Refers-To-Date, to the second
	ID   string    // WARC-Refers-To, "urn:uuid:…"
}

// ErrNoOriginal is returned by Revisit for an Original without a record
// id: a revisit record names the record it refers to.
var ErrNoOriginal = errors.New("revisit without the id of its original record")

// Revisit writes the capture of one exchange whose payload the record
// orig already holds, as a revisit record of profile identical-payload-
// digest: the HTTP status line and headers of x, no payload, the
// WARC-Payload-Digest of payload (the bytes received, which are not
// stored again), and WARC-Refers-To, WARC-Refers-To-Target-URI and
// WARC-Refers-To-Date naming orig. It is for a fetch that took place (a
// re-fetch whose payload matched, a revalidation), so a request record
// follows, WARC-Concurrent-To the revisit, when x has a method. It
// returns the revisit record's id.
func (w *Writer) Revisit(x blogharvest.Exchange, payload []byte, orig Original) (string, error) {
	x.URL = blogharvest.NormalizeURL(x.URL)
	if orig.ID == "" {
		return "", fmt.Errorf("warc: revisit %s: %w", x.URL, ErrNoOriginal)
	}
	date := x.Sent
	if date.IsZero() {
		date = x.Received
	}
	hs := responseHeaders(x, date)
	ref := &gw.RevisitRef{Profile: ProfileIdenticalPayload, TargetUri: orig.URL, TargetDate: stamp(orig.Date),
		TargetRecordId: bracket(orig.ID)}
	conv := func(r gw.WarcRecord) (gw.WarcRecord, error) {
		rv, err := r.ToRevisitRecord(ref)
		if err == nil {
			rv.WarcHeader().Delete(gw.WarcTruncated) // gowarc's default; nothing was cut
		}
		return rv, err
	}
	offset := int64(w.buf.Len())
	id, n, err := w.writeAs(gw.Response, hs, conv, responseHead(x, len(payload)), payload)
	if err != nil {
		return "", fmt.Errorf("warc: revisit %s: %w", x.URL, err)
	}
	w.addIndex(x, gw.Revisit, date, payload, "", offset, n)
	if err := w.request(x, date, id); err != nil {
		return "", fmt.Errorf("warc: revisit %s: %w", x.URL, err)
	}
	return id, nil
}
