package daemon

import "log/slog"

// keepRestartOnly puts back into c the settings of old that a reload
// cannot change in a running daemon (the archive and the state file, each
// held open or locked), logging each one refused. The rest of c applies.
func keepRestartOnly(old, c *Config, log *slog.Logger) {
	for _, f := range []struct {
		key      string
		old, new *string
	}{{"archive", &old.Archive, &c.Archive}, {"state", &old.State, &c.State}} {
		if *f.new != *f.old {
			log.Error(f.key+" changed: restart the daemon to apply; keeping the old value", "key", f.key, "old", *f.old, "new", *f.new)
			*f.new = *f.old
		}
	}
}

// statusServer is the daemon's HTTP server, which a reload may move to
// another address.
type statusServer struct {
	d      *Daemon
	listen string // the configured address; "" when off
	stop   func()
}

// start serves on listen (nothing when empty).
func (s *statusServer) start(listen string) error {
	if listen == "" {
		return nil
	}
	addr, stop, err := s.d.serve(listen)
	if err != nil {
		return err
	}
	s.listen, s.stop = listen, stop
	s.d.Logger.Info("serving /healthz, /metrics, /status", "addr", addr.String())
	return nil
}

// close stops the server, if it runs.
func (s *statusServer) close() {
	if s.stop != nil {
		s.stop()
	}
	s.listen, s.stop = "", nil
}

// move serves on listen instead of the current address and returns the
// address served. The new server starts before the old one stops, or right
// after when the new address overlaps the old. If listen cannot be served,
// the old address is kept, with an error logged.
func (s *statusServer) move(listen string) string {
	if listen == s.listen {
		return listen
	}
	log := s.d.Logger
	if listen == "" {
		s.close()
		log.Info("status server stopped: listen removed from the config")
		return ""
	}
	old, oldStop := s.listen, s.stop
	err := s.start(listen)
	if err != nil && oldStop != nil {
		oldStop() // the new address may overlap the old one: free it and try again
		oldStop, s.listen, s.stop = nil, "", nil
		if err = s.start(listen); err != nil {
			if err2 := s.start(old); err2 != nil {
				log.Error("status server stopped: the old address cannot be served again", "listen", old, "err", err2)
			}
		}
	}
	if err != nil {
		log.Error("listen changed but cannot be served; keeping the old value", "old", old, "new", listen, "err", err)
		return s.listen
	}
	if oldStop != nil {
		oldStop()
	}
	return listen
}
