package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/blogharvest/blogharvest/cluster"
)

// startEmbedded starts the embedded NATS server if the cluster key asks
// for one; stop shuts it down.
func startEmbedded(cl Cluster, log *slog.Logger) (stop func(), err error) {
	if !cl.Embedded {
		return func() {}, nil
	}
	srv, err := cluster.StartServer(cluster.ServerOptions{Listen: cl.Listen, StoreDir: cl.StoreDir, Members: cl.Members,
		TLSCert: cl.TLSCert, TLSKey: cl.TLSKey})
	if err != nil {
		return nil, err
	}
	log.Info("embedded NATS server started", "listen", cl.Listen, "store", cl.StoreDir, "members", len(cl.Members),
		"tls", cl.TLSCert != "")
	return srv.Close, nil
}

func runWorker(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("worker", "-config FILE [-name NAME] [-nkey FILE] [-listen ADDR]", io.Stderr)
	cfgPath := fs.String("config", "blogs.yaml", "config `file` (the cluster's, with its cluster key)")
	name := fs.String("name", "", "this worker's `name` (default: cluster.name, the host name)")
	nkey := fs.String("nkey", "", "this worker's nkey seed `file`, its identity in the cluster (default: cluster.nkey_file)")
	listen := fs.String("listen", "", "`address` for /healthz and /metrics (default: the config's listen)")
	if err := parse(fs, args); err != nil {
		return err
	}
	c, err := LoadConfig(*cfgPath)
	if err != nil {
		return &UsageError{err}
	}
	if !c.Cluster.On() {
		return &UsageError{fmt.Errorf("config %s: no cluster key: a worker needs a cluster (cluster: {nats_url: …})", *cfgPath)}
	}
	if *name != "" {
		c.Cluster.Name = *name
	}
	if *nkey != "" {
		c.Cluster.NkeyFile = *nkey
	}
	if *listen != "" {
		c.Listen = *listen
	}
	d := NewWorker(c)
	d.env.Logger = newLogger(c.Log, io.Stderr).With("worker", c.Cluster.Name)
	if err := d.Open(ctx); err != nil {
		return err
	}
	log := d.env.Logger
	log.Info("blogharvest worker started", "version", Build().Version, "nats", cluster.Redact(c.Cluster.NATSURL),
		"concurrency", c.Concurrency, "archive", c.Archive)
	if c.Listen != "" {
		addr, stop, err := serveHandler(c.Listen, d.workerHandler(), httpLimits{}, log)
		if err != nil {
			d.Close()
			return fmt.Errorf("listen %s: %w", c.Listen, err)
		}
		defer stop()
		log.Info("serving /healthz, /metrics", "addr", addr.String())
	}
	<-ctx.Done()
	log.Info("shutting down: no new tasks; crawls in flight are handed back")
	err = d.Close()
	log.Info("stopped", "err", err)
	return err
}

// runNkey writes a new nkey user seed to a file only its owner can read
// (never over an existing one) and prints its public key, for
// cluster.members.
func runNkey(_ context.Context, args []string, std IO) error {
	fs := newFlagSet("nkey", "-out FILE", std.Stderr)
	out := fs.String("out", "", "write the seed (secret) to `file`, which must not exist")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return &UsageError{errors.New("-out FILE is required (the seed is a secret: it is never printed)")}
	}
	id, seed, err := cluster.NewIdentity()
	if err != nil {
		return err
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(seed, '\n'))
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(*out)
		return err
	}
	fmt.Fprintln(std.Stdout, id.Public())
	return nil
}

// workerHandler serves a worker's /healthz (503 while disconnected from
// NATS) and /metrics.
func (d *Worker) workerHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if !d.Connected() {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte("disconnected from NATS\n"))
			return
		}
		w.Write([]byte("ok\n"))
	})
	mux.Handle("GET /metrics", d.env.metrics)
	return mux
}
