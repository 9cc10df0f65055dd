package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
)

func runRun(ctx context.Context, args []string, io IO) error {
	fs := newFlagSet("run", "-config FILE [-check]", io.Stderr)
	cfgPath := fs.String("config", "blogs.yaml", "config `file`")
	checkOnly := fs.Bool("check", false, "validate the config and exit")
	if err := parse(fs, args); err != nil {
		return err
	}
	c, err := LoadConfig(*cfgPath)
	if err != nil {
		return &UsageError{err}
	}
	if *checkOnly {
		fmt.Fprintf(io.Stdout, "config %s: valid, %d blogs\n", *cfgPath, len(c.Blogs))
		return nil
	}
	logger := newLogger(c.Log, io.Stderr)
	if !c.Cluster.On() {
		d := NewDaemon(c)
		d.env.Logger = logger
		_, err := serve(ctx, d, *cfgPath, io)
		return err
	}
	stop, err := startEmbedded(c.Cluster, logger)
	if err != nil {
		return err
	}
	defer stop()
	for rejoining := false; ; rejoining = true {
		s := NewClusterScheduler(c)
		s.env.Logger, s.rejoining = logger, rejoining
		if err := s.JoinAsScheduler(ctx); err != nil {
			if errors.Is(err, context.Canceled) {
				err = errors.New("stopped while standing by")
			}
			return err
		}
		lost, err := serve(ctx, s, *cfgPath, io)
		if !lost {
			return err
		}
		c = s.env.Config // as last reloaded
		logger.Warn("scheduler lease lost: stepped down; standing by to take it again (another scheduler may be active)")
	}
}

// service is a role the run command serves: the local Daemon, or a
// cluster's ClusterScheduler that holds the scheduler's lease.
type service interface {
	settings() *env
	openStore() error
	closeStore() error
	Reload(c *Config) error
	Handler() http.Handler
	Open() error
	Close() error
	Lost() <-chan struct{}
	leave() // lets go of what came before openStore: a cluster's connection and lease
}

// serve runs d until ctx ends, reloading its config on io.Reload. If a
// cluster's scheduler loses its lease (a renewal refused, or none for a
// whole TTL: the server unreachable, the machine overloaded) it stops
// scheduling, closes everything and returns lost, so that the caller
// stands by again rather than exit.
func serve(ctx context.Context, d service, cfgPath string, io IO) (lost bool, err error) {
	e := d.settings()
	c := e.Config
	// The archive is locked, then the status server's port bound, before
	// anything is scheduled: a busy port ends the command before any
	// harvest starts.
	if err := d.openStore(); err != nil {
		d.leave()
		return false, err
	}
	srv := &statusServer{d: d}
	if err := srv.bind(c.Listen); err != nil {
		d.closeStore()
		d.leave()
		return false, fmt.Errorf("listen %s: %w (nothing was harvested)", c.Listen, err)
	}
	log := e.Logger
	log.Info("blogharvest started", startAttrs(c, srv)...)
	if err := d.Open(); err != nil {
		srv.close()
		d.leave()
		return false, err
	}
	// Parsing a large config and loading every blog's state leaves garbage
	// the idle daemon would otherwise keep resident for a long while.
	debug.FreeOSMemory()
	if err := srv.start(c.Listen); err != nil {
		d.Close()
		return false, fmt.Errorf("listen %s: %w", c.Listen, err)
	}
	for {
		select {
		case <-ctx.Done():
			log.Info("shutting down: no new harvests; finishing AIP writes in flight")
			srv.close()
			if err := d.Close(); err != nil {
				log.Error("stopped", "err", err)
				return false, err
			}
			log.Info("stopped")
			return false, nil
		case <-io.Reload:
			reload(d, cfgPath, srv)
		case <-d.Lost():
			srv.close()
			d.Close()
			return true, nil
		}
	}
}

// reload applies the config file again; an invalid new config is logged and
// the running one kept. A changed listen moves the status server; a changed
// archive or state is refused (logged) while the rest applies.
func reload(d service, path string, srv *statusServer) {
	e := d.settings()
	c, err := LoadConfig(path)
	if err == nil {
		keepRestartOnly(e.Config, c, e.Logger)
		err = d.Reload(c)
	}
	if err != nil {
		e.Logger.Error("config not reloaded; keeping the running one", "err", err)
		return
	}
	c.Listen = srv.move(c.Listen)
}

// startAttrs are the attributes of the "blogharvest started" line: the
// version, the blogs, where the archive and state are, and the status
// page's address when it is served.
func startAttrs(c *Config, srv *statusServer) []any {
	attrs := []any{"version", Build().Version, "blogs", len(c.Blogs), "archive", c.Archive, "state", c.State}
	if a := srv.addr(); a != "" {
		attrs = append(attrs, "status_page", "http://"+a+"/", "metrics", "http://"+a+"/metrics")
	}
	return attrs
}
