package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the JetStream objects blogharvest uses.
const (
	TasksStream   = "BLOGHARVEST_TASKS"
	TasksSubject  = "blogharvest.tasks"
	WorkersName   = "workers" // the tasks stream's durable consumer, shared by all workers
	ReportsStream = "BLOGHARVEST_REPORTS"
	ReportsSubj   = "blogharvest.reports"
	SchedulerName = "scheduler" // the reports stream's durable consumer
	LeaseBucket   = "blogharvest_leases"
)

// Options configure a connection to the cluster. Zero fields take the
// defaults named.
type Options struct {
	URL        string        // the NATS server(s), comma-separated; may carry credentials (never logged)
	Name       string        // this process's name, shown to the server and in reports
	AckWait    time.Duration // how long a task may go without an ack or a heartbeat before it is redelivered; 30s
	MaxDeliver int           // deliveries of one task at most; 5
	LeaseTTL   time.Duration // how long a lease lives without renewal; 15s
	Duplicates time.Duration // the tasks stream's duplicate window; 24h
	Logger     *slog.Logger  // nil: slog.Default()

	// Identity is this process's nkey (LoadIdentity): it authenticates the
	// connection and signs the reports. Required.
	Identity *Identity
	// Members maps the name of each member of the cluster (scheduler and
	// workers) to its public nkey. A scheduler needs it (a report whose
	// signature is not its signer's is dropped); when set, this process's
	// own Name must map to its Identity.
	Members map[string]string
	// TLSCA is a PEM file of the authorities that sign the server's
	// certificate; set, the connection uses TLS. A server that is not on
	// loopback must be reached with TLS (this, or tls:// with the system's
	// authorities).
	TLSCA string
}

func (o *Options) defaults() {
	if o.AckWait <= 0 {
		o.AckWait = 30 * time.Second
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = 5
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = 15 * time.Second
	}
	if o.Duplicates <= 0 {
		o.Duplicates = 24 * time.Hour
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Conn is a connection to the cluster's JetStream objects.
type Conn struct {
	o       Options
	nc      *nats.Conn
	js      jetstream.JetStream
	tasks   jetstream.Stream
	workers jetstream.Consumer
	leases  jetstream.KeyValue
	runs    jetstream.KeyValue // RunsBucket
}

// Connect connects to the NATS server, reconnecting for ever when it goes
// away, and creates or updates the streams, the consumers and the lease
// bucket.
func Connect(ctx context.Context, o Options) (*Conn, error) {
	o.defaults()
	log := o.Logger
	auth, err := o.natsAuth()
	if err != nil {
		return nil, err
	}
	nc, err := nats.Connect(o.URL, append(auth, nats.Name(o.Name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond),
		nats.RetryOnFailedConnect(false),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("NATS disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { log.Info("NATS reconnected", "server", Redact(c.ConnectedUrl())) }))...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to %s: %w", Redact(o.URL), err)
	}
	c := &Conn{o: o, nc: nc}
	if err := c.setup(ctx); err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster: %s: %w", Redact(o.URL), err)
	}
	return c, nil
}

// setup creates or updates the JetStream objects, retrying while the
// server's JetStream is not ready yet.
func (c *Conn) setup(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 40; attempt++ {
		if err = c.setupOnce(ctx); err == nil || ctx.Err() != nil {
			return err
		}
		time.Sleep(250 * time.Millisecond)
	}
	return err
}

func (c *Conn) setupOnce(ctx context.Context) error {
	js, err := jetstream.New(c.nc)
	if err != nil {
		return err
	}
	c.js = js
	c.tasks, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: TasksStream, Subjects: []string{TasksSubject},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: c.o.Duplicates})
	if err != nil {
		return fmt.Errorf("tasks stream: %w", err)
	}
	c.workers, err = js.CreateOrUpdateConsumer(ctx, TasksStream, jetstream.ConsumerConfig{Durable: WorkersName,
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: c.o.AckWait, MaxDeliver: c.o.MaxDeliver,
		MaxAckPending: -1, DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		return fmt.Errorf("workers consumer: %w", err)
	}
	_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: ReportsStream, Subjects: []string{ReportsSubj},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: c.o.Duplicates})
	if err != nil {
		return fmt.Errorf("reports stream: %w", err)
	}
	c.leases, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: LeaseBucket, TTL: c.o.LeaseTTL,
		History: 1, Storage: jetstream.FileStorage})
	if err != nil {
		return fmt.Errorf("lease bucket: %w", err)
	}
	c.runs, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: RunsBucket, History: 1,
		Storage: jetstream.FileStorage})
	if err != nil {
		return fmt.Errorf("runs bucket: %w", err)
	}
	return nil
}

// Options returns the options in force, defaults filled in.
func (c *Conn) Options() Options { return c.o }

// Close drains nothing and closes the connection.
func (c *Conn) Close() { c.nc.Close() }

// Connected reports whether the connection to the server is up.
func (c *Conn) Connected() bool { return c.nc.IsConnected() }

// Redact returns the NATS URL(s) u without user info, for logs: every URL
// of a comma-separated list (spaces around the commas or not) loses its
// user:password or token; a part that does not parse as a URL loses
// everything up to its last "@".
func Redact(u string) string {
	parts := strings.Split(u, ",")
	for i, part := range parts {
		parts[i] = redactOne(strings.TrimSpace(part))
	}
	return strings.Join(parts, ",")
}

// redactOne drops the user info of one URL.
func redactOne(u string) string {
	p, err := url.Parse(u)
	if err == nil && p.User == nil && !strings.Contains(u, "@") {
		return u
	}
	if err != nil || p.Host == "" {
		if i := strings.LastIndex(u, "@"); i >= 0 {
			scheme, _, ok := strings.Cut(u, "://")
			if ok && !strings.ContainsAny(scheme, "@/:") {
				return scheme + "://…" + u[i:]
			}
			return "…" + u[i:]
		}
		return u
	}
	p.User = nil
	return p.String()
}

// QueueStats describe the tasks queue.
type QueueStats struct {
	Depth       uint64 `json:"queue_depth"`       // tasks stored: waiting or being worked on
	Waiting     uint64 `json:"waiting"`           // not yet delivered
	InFlight    int    `json:"in_flight"`         // delivered, not acked
	Redelivered int    `json:"redelivered_now"`   // in flight and delivered more than once
	Workers     int    `json:"workers_listening"` // pull requests waiting: idle worker slots
}

// Queue returns the tasks queue's figures.
func (c *Conn) Queue(ctx context.Context) (QueueStats, error) {
	si, err := c.tasks.Info(ctx)
	if err != nil {
		return QueueStats{}, err
	}
	ci, err := c.workers.Info(ctx)
	if err != nil {
		return QueueStats{}, err
	}
	return QueueStats{Depth: si.State.Msgs, Waiting: ci.NumPending, InFlight: ci.NumAckPending,
		Redelivered: ci.NumRedelivered, Workers: ci.NumWaiting}, nil
}

// errNoConn is returned when the connection is closed.
var errNoConn = errors.New("cluster: connection closed")
