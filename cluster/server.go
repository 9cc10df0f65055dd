package cluster

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an embedded NATS server with JetStream.
type Server struct {
	s *server.Server
}

// StartServer starts a NATS server with JetStream on listen (host:port;
// port 0 picks one) keeping its streams in storeDir, and waits until it
// accepts connections.
func StartServer(listen, storeDir string) (*Server, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded server listen %q: %w", listen, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded server listen %q: bad port", listen)
	}
	s, err := server.NewServer(&server.Options{Host: host, Port: p, JetStream: true, StoreDir: storeDir,
		ServerName: "blogharvest", NoSigs: true})
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("cluster: embedded server on %s not ready within 10s", listen)
	}
	return &Server{s: s}, nil
}

// URL returns the client URL of the server.
func (s *Server) URL() string { return s.s.ClientURL() }

// Close shuts the server down and waits for it.
func (s *Server) Close() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}
