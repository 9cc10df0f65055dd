// Package dispatch carries due harvest runs from the scheduler to whoever
// crawls them and their outcomes back (DESIGN §1, §7): one small interface,
// Dispatcher, with two implementations. Local, here, is the single
// process's worker pool: a FIFO queue read by the daemon's own goroutines.
// Package cluster implements the same interface on NATS JetStream, so that
// stateless `blogharvest worker` processes on many machines crawl what one
// scheduler enqueues.
//
// Tasks and reports carry an opaque payload: what a run needs and what it
// leaves is the daemon's business, not the transport's.
package dispatch
