package schedule

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest"
)

// StateVersion is the version of State this package writes. Get and All
// read it and version 1 (the feeds' validators in flat fields, before
// State embedded blogharvest.CrawlState: decodeV1); a stored value with a
// higher version is refused with a *VersionError rather than misread.
const StateVersion = 2

// Outcomes of a run, as stored in State.Outcome.
const (
	OutcomeOK      = "ok"      // the run archived everything it found
	OutcomeFailed  = "failed"  // the run failed; see LastError
	OutcomePartial = "partial" // the run archived some entries, some failed
	OutcomeRunning = "running" // a run started and has not ended yet
	// OutcomeInterrupted is a run cancelled before its end (the daemon
	// was stopped): not a failure, and run again at the next start.
	OutcomeInterrupted = "interrupted"
)

// State is the schedule metadata of one blog: the only thing the state file
// holds. Times are UTC when stored; a zero time means "never".
type State struct {
	V         int       // the version of this layout; Put sets StateVersion
	Spec      string    // the schedule text the blog ran under (Spec.String)
	LastStart time.Time // when the last run started
	LastEnd   time.Time // when the last run ended; zero while the first run is going
	Outcome   string    // OutcomeOK, OutcomeFailed, OutcomePartial, OutcomeRunning or OutcomeInterrupted; "" before any run
	LastError string    // the last run's error text; "" if it succeeded
	Watermark time.Time // the newest entry date archived: UpdateCrawl's DATE
	NextDue   time.Time // when the blog is due next
	Failures  int       // consecutive failed runs; 0 after a success
	Entries   int       // entries archived so far, over all runs
	Runs      int       // runs started so far
	// FailingSince is when the first of the current consecutive failed
	// runs started (zero after a success): a blog failing for the
	// daemon's down_after is shown down and polled with NextWhileDown.
	FailingSince time.Time `json:",omitzero"`
	// LastAnswer is what the blog answered the last failed run, in short
	// ("HTTP 503 Service Unavailable", "connection refused", "timeout"),
	// with no secret of a URL; "" after a success.
	LastAnswer string `json:",omitempty"`

	// IdentityChanged is when a run found the site at the blog's address
	// no longer the blog archived (harvest.IdentityError; zero if not):
	// the blog is paused until the archivist's accept_change names that
	// day or a later one. IdentityEvidence is what the run found.
	IdentityChanged  time.Time `json:",omitzero"`
	IdentityEvidence string    `json:",omitempty"`

	// CrawlState is what the last crawl left for the next UpdateCrawl's
	// conditional requests (harvest.State less robots.txt and rules):
	// validators, digests and signatures, stored as harvest gives them.
	blogharvest.CrawlState
}

// VersionError reports a stored State whose version this build cannot read:
// written by a newer blogharvest, or damaged.
type VersionError struct {
	ID  string // the blog id
	Got int    // the version found
}

// Error says which blog and which version, and what to do.
func (e *VersionError) Error() string {
	if e.Got > StateVersion {
		return fmt.Sprintf("state of blog %q has version %d, newer than this blogharvest reads (%d): upgrade blogharvest", e.ID, e.Got, StateVersion)
	}
	return fmt.Sprintf("state of blog %q has invalid version %d", e.ID, e.Got)
}

// encodeState returns st as stored: JSON, version set, times in UTC.
func encodeState(st State) ([]byte, error) {
	st.V = StateVersion
	for _, t := range []*time.Time{&st.LastStart, &st.LastEnd, &st.Watermark, &st.NextDue, &st.PostsChecked, &st.FailingSince, &st.IdentityChanged} {
		*t = t.UTC()
	}
	return json.Marshal(st)
}

// decodeState parses a stored value of version StateVersion or 1,
// refusing others. data may be bbolt memory: it is not retained.
//
// The value is parsed once, the version read with the rest (every run
// reads its blog's state twice, and parsing it twice, its version first,
// was a tenth of the state file's cost per run: doc/scale.md); a value
// that does not parse as a State is parsed for its version alone, so that
// a newer layout is still refused with a *VersionError, not a type error.
func decodeState(id string, data []byte) (State, error) {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		var head struct{ V int }
		if json.Unmarshal(data, &head) == nil && head.V != StateVersion && head.V != 1 {
			return State{}, &VersionError{ID: id, Got: head.V}
		}
		return State{}, fmt.Errorf("decode state of blog %q: %w", id, err)
	}
	switch st.V {
	case StateVersion:
		return st, nil
	case 1:
		return st, decodeV1(id, data, &st)
	}
	return State{}, &VersionError{ID: id, Got: st.V}
}

// feedsV1 are the fields in which version 1 kept the feeds' validators
// (ETag and LastModified were the posts feed's). Its Items, PostsChecked,
// Pages and Threads had the names and shapes CrawlState has.
type feedsV1 struct {
	FeedURL, ETag, LastModified, FeedDigest                         string
	CommentFeedURL, CommentETag, CommentLastModified, CommentDigest string
}

// decodeV1 fills st.Feed and st.CommentFeed from a version 1 value.
func decodeV1(id string, data []byte, st *State) error {
	var f feedsV1
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("decode state of blog %q (version 1): %w", id, err)
	}
	st.Feed = blogharvest.Validators{URL: f.FeedURL, ETag: f.ETag, LastModified: f.LastModified, Digest: f.FeedDigest}
	st.CommentFeed = blogharvest.Validators{URL: f.CommentFeedURL, ETag: f.CommentETag,
		LastModified: f.CommentLastModified, Digest: f.CommentDigest}
	st.V = StateVersion
	return nil
}
