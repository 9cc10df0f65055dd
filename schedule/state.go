package schedule

import (
	"encoding/json"
	"fmt"
	"time"
)

// StateVersion is the version of State this package writes and reads. A
// stored value with a higher version is refused with a *VersionError rather
// than misread.
const StateVersion = 1

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
	V            int       // the version of this layout; Put sets StateVersion
	Spec         string    // the schedule text the blog ran under (Spec.String)
	LastStart    time.Time // when the last run started
	LastEnd      time.Time // when the last run ended; zero while the first run is going
	Outcome      string    // OutcomeOK, OutcomeFailed, OutcomePartial, OutcomeRunning or OutcomeInterrupted; "" before any run
	LastError    string    // the last run's error text; "" if it succeeded
	Watermark    time.Time // the newest entry date archived: UpdateCrawl's DATE
	NextDue      time.Time // when the blog is due next
	Failures     int       // consecutive failed runs; 0 after a success
	ETag         string    // the feed's last ETag, for a conditional GET
	LastModified string    // the feed's last Last-Modified, for a conditional GET
	Entries      int       // entries archived so far, over all runs
	Runs         int       // runs started so far

	// What the last crawl left for the next UpdateCrawl's conditional
	// requests (harvest.State, less robots.txt and rules): validators and
	// digests only.
	FeedURL             string            `json:",omitempty"` // the posts feed as requested
	FeedDigest          string            `json:",omitempty"` // SHA-256 of its first page
	CommentFeedURL      string            `json:",omitempty"` // the blog-wide comment feed; "" if none
	CommentETag         string            `json:",omitempty"`
	CommentLastModified string            `json:",omitempty"`
	CommentDigest       string            `json:",omitempty"`
	Items               map[string]string `json:",omitempty"` // signature by URL of the feed's first page items
	PostsChecked        time.Time         // when posts without a change signal were last re-read
	// Pages holds the validators of the last capture of those items' pages.
	Pages map[string]Validators `json:",omitempty"`
	// Threads holds, by the same key as Items, the comment APIs a post's
	// rendered page drew its comments from (harvest.State.Threads).
	Threads map[string][]Validators `json:",omitempty"`
}

// Validators are what a conditional request for a page sends back.
type Validators struct {
	URL          string `json:",omitempty"` // set for a comment thread's API (State.Threads)
	ETag         string `json:",omitempty"`
	LastModified string `json:",omitempty"`
	Digest       string `json:",omitempty"` // SHA-256 of a thread API's body (State.Threads)
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
	for _, t := range []*time.Time{&st.LastStart, &st.LastEnd, &st.Watermark, &st.NextDue, &st.PostsChecked} {
		*t = t.UTC()
	}
	return json.Marshal(st)
}

// decodeState parses a stored value, refusing versions other than
// StateVersion. data may be bbolt memory: it is not retained.
func decodeState(id string, data []byte) (State, error) {
	var head struct{ V int }
	if err := json.Unmarshal(data, &head); err != nil {
		return State{}, fmt.Errorf("decode state of blog %q: %w", id, err)
	}
	if head.V != StateVersion {
		return State{}, &VersionError{ID: id, Got: head.V}
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return State{}, fmt.Errorf("decode state of blog %q: %w", id, err)
	}
	return st, nil
}
