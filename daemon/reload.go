package daemon

import (
	"log/slog"
	"net"
	"slices"
)

// keepRestartOnly puts back into c the settings of old that a reload
// cannot change in a running daemon (the archive and the state file, each
// held open or locked; the archive's modes, given to its writer; the
// on_publish command, whose delivery runs), logging each one refused.
// The rest of c applies.
func keepRestartOnly(old, c *Config, log *slog.Logger) {
	for _, f := range []struct {
		key      string
		old, new *string
	}{{"archive", &old.Archive, &c.Archive}, {"state", &old.State, &c.State},
		{"file_mode", &old.FileMode, &c.FileMode}, {"dir_mode", &old.DirMode, &c.DirMode}} {
		if *f.new != *f.old {
			log.Error(f.key+" changed: restart the daemon to apply; keeping the old value", "key", f.key, "old", *f.old, "new", *f.new)
			*f.new = *f.old
		}
	}
	if !slices.Equal(old.OnPublish, c.OnPublish) {
		log.Error("on_publish changed: restart the daemon to apply; keeping the old command", "key", "on_publish")
		c.OnPublish = old.OnPublish
	}
}

// statusServer is the daemon's HTTP server, which a reload may move to
// another address.
type statusServer struct {
	d      service
	limits httpLimits // zero: defaultHTTPLimits
	listen string     // the configured address; "" when off
	stop   func()
	bound  net.Listener // bound by bind, not yet served; nil otherwise
}

// bind binds listen (nothing when empty) without serving yet, so that a
// busy port is found before any harvest starts; start serves on it.
func (s *statusServer) bind(listen string) error {
	if listen == "" {
		return nil
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	s.listen, s.bound = listen, ln
	return nil
}

// addr is the address bound or served; "" when off.
func (s *statusServer) addr() string {
	if s.bound != nil {
		return s.bound.Addr().String()
	}
	return s.listen
}

// start serves on listen (nothing when empty), on the listener bind bound
// when it is for the same address.
func (s *statusServer) start(listen string) error {
	if listen == "" {
		return nil
	}
	if s.bound != nil && listen == s.listen {
		ln := s.bound
		s.bound = nil
		s.stop = serveOn(ln, s.d.Handler(), s.limits, s.d.settings().Logger)
		return nil
	}
	addr, stop, err := serveHandler(listen, s.d.Handler(), s.limits, s.d.settings().Logger)
	if err != nil {
		return err
	}
	s.listen, s.stop = listen, stop
	s.d.settings().Logger.Info("serving the status page, /healthz, /metrics, /status", "page", "http://"+addr.String()+"/")
	return nil
}

// close stops the server, if it runs.
func (s *statusServer) close() {
	if s.stop != nil {
		s.stop()
	}
	if s.bound != nil {
		s.bound.Close()
	}
	s.listen, s.stop, s.bound = "", nil, nil
}

// move serves on listen instead of the current address and returns the
// address served. The new server starts before the old one stops, or right
// after when the new address overlaps the old. If listen cannot be served,
// the old address is kept, with an error logged.
func (s *statusServer) move(listen string) string {
	if listen == s.listen {
		return listen
	}
	log := s.d.settings().Logger
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
