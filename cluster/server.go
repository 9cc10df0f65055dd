package cluster

import (
	"errors"
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

// ServerOptions configure an embedded server.
type ServerOptions struct {
	Listen   string // host:port; port 0 picks one
	StoreDir string // where JetStream keeps the streams
	// Members maps each member's name to its public nkey: the server
	// admits these nkeys and no one else. Required.
	Members map[string]string
	// TLSCert and TLSKey are PEM files of the server's certificate and
	// key; set, clients must use TLS. Required unless Listen is on
	// loopback.
	TLSCert, TLSKey string
}

// StartServer starts a NATS server with JetStream that admits only the
// members' nkeys, and waits until it accepts connections. A listen
// address that is not on loopback (0.0.0.0 included) is refused without
// TLS: the members' traffic would cross the network in the clear.
func StartServer(o ServerOptions) (*Server, error) {
	host, port, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded server listen %q: %w", o.Listen, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded server listen %q: bad port", o.Listen)
	}
	if len(o.Members) == 0 {
		return nil, errors.New("cluster: embedded server: no members (cluster.members): it admits no one else")
	}
	so := &server.Options{Host: host, Port: p, JetStream: true, StoreDir: o.StoreDir, ServerName: "blogharvest",
		NoSigs: true}
	for name, pub := range o.Members {
		if !ValidMember(pub) {
			return nil, fmt.Errorf("cluster: members.%s: %q is not a public user nkey (U…)", name, pub)
		}
		so.Nkeys = append(so.Nkeys, &server.NkeyUser{Nkey: pub})
	}
	switch {
	case o.TLSCert != "" || o.TLSKey != "":
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.TLSCert, KeyFile: o.TLSKey})
		if err != nil {
			return nil, fmt.Errorf("cluster: embedded server TLS: %w", err)
		}
		so.TLS, so.TLSConfig, so.TLSTimeout = true, tc, 5
	case !IsLoopback(host):
		return nil, fmt.Errorf("cluster: embedded server listen %s is not on loopback: give it TLS (cluster.tls_cert, cluster.tls_key)", o.Listen)
	}
	s, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("cluster: embedded server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("cluster: embedded server on %s not ready within 10s", o.Listen)
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
