package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

// Task is one due run of one blog.
type Task struct {
	Blog    string          `json:"blog"`              // the blog's id
	Due     time.Time       `json:"due"`               // the time the run was due; with Blog it names the run
	Payload json.RawMessage `json:"payload,omitempty"` // what the run needs (the daemon's schedule metadata)
}

// ID names the run, "<blog-id>/<due time in Unix nanoseconds>": two
// enqueues of one due run carry the same ID, so a transport can drop the
// second.
func (t Task) ID() string { return t.Blog + "/" + strconv.FormatInt(t.Due.UnixNano(), 10) }

// Report is what a worker says about a task: that it started one, that an
// attempt failed and will be retried, or how the run ended.
type Report struct {
	Blog    string          `json:"blog"`
	Due     time.Time       `json:"due"`
	Kind    string          `json:"kind"`              // one of the Report kinds below
	Worker  string          `json:"worker,omitempty"`  // the worker's name
	Attempt int             `json:"attempt,omitempty"` // the delivery this report is about, from 1
	Error   string          `json:"error,omitempty"`   // a failed attempt's error (public text)
	Payload json.RawMessage `json:"payload,omitempty"` // the run's outcome (the daemon's run report); with Done only
}

// Report kinds.
const (
	Started = "started" // a worker took the task
	Retry   = "retry"   // an attempt failed transiently; the task will be delivered again
	Done    = "done"    // the run ended (succeeded, or failed for good): the last report of a task
)

// ID names the report of kind k about t's run, for duplicate detection.
func (r Report) ID() string {
	return Task{Blog: r.Blog, Due: r.Due}.ID() + "/" + r.Kind + "/" + strconv.Itoa(r.Attempt)
}

// Dispatcher carries tasks from the scheduler to workers. Enqueue is the
// scheduler's side, Receive the workers'; every Delivery received must end
// with exactly one of Ack, Nack or Term.
type Dispatcher interface {
	// Enqueue hands t to the workers. Enqueueing a task with the ID of
	// one already enqueued may be a no-op returning ErrDuplicate.
	Enqueue(ctx context.Context, t Task) error
	// Receive waits for the next task; it fails with ctx's error when ctx
	// ends, or ErrClosed.
	Receive(ctx context.Context) (Delivery, error)
}

// Reporter carries the workers' reports back to the scheduler: Reports
// calls fn with each report, in order, until ctx ends (then it returns
// ctx's error). A report fn fails on may be handed to it again, unless
// the error wraps ErrUnprocessable: that report is dropped. Both
// dispatchers are Reporters, so that a scheduler hands runs to either
// through Enqueue and learns how they went through Reports.
type Reporter interface {
	Reports(ctx context.Context, fn func(Report) error) error
}

// Delivery is one task as a worker received it.
type Delivery interface {
	Task() Task
	// Attempt returns which delivery of the task this is (from 1) and the
	// most there will be (0: no limit).
	Attempt() (n, max int)
	// Progress tells the dispatcher the worker is still at it (a
	// heartbeat: the task is not handed to another worker meanwhile).
	Progress() error
	// Ack ends the task: the run is over and its last bag in place. r,
	// of kind Done, goes to the scheduler.
	Ack(r Report) error
	// Nack gives the task back for another attempt after delay, with r (of
	// kind Retry) saying why.
	Nack(r Report, delay time.Duration) error
	// Term ends the task without another attempt (a permanent failure,
	// or the last attempt failed); r, of kind Done, says why.
	Term(r Report) error
}

// ErrDuplicate is returned by Enqueue when a task with the same ID was
// already enqueued: it is not enqueued again (nothing is wrong).
var ErrDuplicate = errors.New("dispatch: task already enqueued")

// ErrUnprocessable marks a report that can never be recorded (it names no
// blog the scheduler can keep, say): a Reports fn returns an error
// wrapping it, and the dispatcher drops the report, logged once, instead
// of handing it again before the reports after it.
var ErrUnprocessable = errors.New("dispatch: report can never be processed")

// ErrClosed is returned by Receive once the dispatcher is closed.
var ErrClosed = errors.New("dispatch: closed")
