package warc

import (
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest"
	gw "github.com/nlnwa/gowarc"
)

// ProfileIdenticalPayload is the WARC 1.1 revisit profile of a capture
// whose payload another record already holds.
const ProfileIdenticalPayload = gw.ProfileIdenticalPayloadDigestV1_1

// Original names the record that holds a payload a revisit record refers
// to: its WARC-Target-URI and WARC-Date (which replay tools look the
// original up by) and, when known, its WARC-Record-ID.
type Original struct {
	URL  string    // WARC-Refers-To-Target-URI
	Date time.Time // WARC-Refers-To-Date, to the second
	ID   string    // WARC-Refers-To, "urn:uuid:…"; empty when unknown
}

// Revisit writes the capture of one exchange whose payload the record
// orig already holds, as a revisit record of profile identical-payload-
// digest: the HTTP status line and headers of x, no payload, and the
// WARC-Payload-Digest of payload (the bytes received, which are not
// stored again). It is WARC-Concurrent-To the record concurrentTo when
// that is not empty (a page requisite's revisit names its page's response
// record). A request record follows when x has a method. It returns the
// revisit record's id.
func (w *Writer) Revisit(x blogharvest.Exchange, payload []byte, orig Original, concurrentTo string) (string, error) {
	x.URL = blogharvest.NormalizeURL(x.URL)
	date := x.Sent
	if date.IsZero() {
		date = x.Received
	}
	hs := responseHeaders(x, date, concurrentTo)
	ref := &gw.RevisitRef{Profile: ProfileIdenticalPayload, TargetUri: orig.URL, TargetDate: stamp(orig.Date)}
	if orig.ID != "" {
		ref.TargetRecordId = bracket(orig.ID)
	}
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
	w.addIndex(x, gw.Revisit, date, payload, offset, n)
	if x.Method != "" {
		rq := []header{{gw.WarcTargetURI, x.URL}, {gw.WarcDate, stamp(date)}, {gw.ContentType, typeRequest}, {gw.WarcConcurrentTo, bracket(id)}}
		if _, _, err := w.write(gw.Request, rq, requestBlock(x)); err != nil {
			return "", fmt.Errorf("warc: revisit %s: %w", x.URL, err)
		}
	}
	return id, nil
}
