package daemon

import (
	"context"
	"errors"
	"fmt"
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
	d := NewDaemon(c)
	d.Logger = newLogger(c.Log, io.Stderr)
	if c.Cluster.On() {
		stop, err := joinCluster(ctx, d)
		if err != nil {
			return err
		}
		defer stop()
	}
	if err := d.Open(); err != nil {
		return err
	}
	// Parsing a large config and loading every blog's state leaves garbage
	// the idle daemon would otherwise keep resident for a long while.
	debug.FreeOSMemory()
	log := d.Logger
	log.Info("blogharvest started", "version", Version, "blogs", len(c.Blogs), "archive", c.Archive, "state", c.State)
	srv := &statusServer{d: d}
	if err := srv.start(c.Listen); err != nil {
		d.Close()
		return fmt.Errorf("listen %s: %w", c.Listen, err)
	}
	for {
		select {
		case <-ctx.Done():
			log.Info("shutting down: no new harvests; finishing AIP writes in flight")
			srv.close()
			err := d.Close()
			log.Info("stopped", "err", err)
			return err
		case <-io.Reload:
			reload(d, *cfgPath, srv)
		case <-d.Lost():
			srv.close()
			d.Close()
			return errors.New("scheduler lease lost: another scheduler may be active; restart to stand by")
		}
	}
}

// reload applies the config file again; an invalid new config is logged and
// the running one kept. A changed listen moves the status server; a changed
// archive or state is refused (logged) while the rest applies.
func reload(d *Daemon, path string, srv *statusServer) {
	c, err := LoadConfig(path)
	if err == nil {
		keepRestartOnly(d.Config, c, d.Logger)
		err = d.Reload(c)
	}
	if err != nil {
		d.Logger.Error("config not reloaded; keeping the running one", "err", err)
		return
	}
	c.Listen = srv.move(c.Listen)
}
