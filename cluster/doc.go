// Package cluster runs blogharvest's dispatch on NATS JetStream (DESIGN
// §1, §7, §10), so that stateless `blogharvest worker` processes on many
// machines crawl the runs one scheduler enqueues. It owns the JetStream
// objects and nothing of the archive:
//
//   - the tasks stream (WorkQueue retention, file storage): one message per
//     due run, published with Nats-Msg-Id = <blog-id>/<due time>, so that a
//     run enqueued twice within the duplicate window is stored once; one
//     durable pull consumer shared by every worker, with explicit acks,
//     AckWait and MaxDeliver;
//   - the reports stream: what workers say about their tasks (started, a
//     failed attempt, done with the run's outcome), read by the active
//     scheduler through a durable consumer, so no report is lost while it
//     fails over;
//   - a key-value bucket of leases with a TTL: "scheduler" (at most one
//     active scheduler), "blog.<id>" (one run per blog across the cluster)
//     and "host.<host>" (one crawl per host across workers). A lease is
//     created only if absent, renewed by compare-and-set on its revision
//     and lapses by itself when its holder dies;
//   - a key-value bucket of runs without TTL (RunsBucket): "run.<id>", the
//     worker holding the blog's run and its due time (Conn.Hold).
//
// Authentication (auth.go): every member (scheduler or worker) has an
// nkey Identity read from a seed file; it authenticates the connection and
// signs every report. Reports admits a report only if it is signed by a
// member of Options.Members, and a done report only from the worker
// RunsBucket names for that run. StartServer runs an embedded NATS server
// with JetStream that admits the members' nkeys only and refuses a listen
// address off loopback without TLS; Connect refuses a server off loopback
// without TLS. Redact removes credentials from NATS URL lists for logs.
//
// Conn implements dispatch.Dispatcher.
package cluster
