package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// Every process of a cluster has an identity of its own: a name and an
// nkey (an Ed25519 key pair, the NATS user nkeys of nats-server's
// authorization). It connects with it (the server admits the public keys
// of the cluster's members only) and signs every report it publishes with
// it, so the scheduler knows which member sent a report, whatever the
// server's permissions.

// Identity is a process's nkey: its seed is read from a file and never
// logged or shown.
type Identity struct {
	kp nkeys.KeyPair
}

// LoadIdentity reads an nkey user seed ("SU…", as `nk -gen user` or
// `blogharvest nkey` writes it) from file. Its errors never quote the
// file's content.
func LoadIdentity(file string) (*Identity, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cluster: nkey file: %w", err)
	}
	kp, err := nkeys.ParseDecoratedNKey(data)
	if err != nil {
		return nil, fmt.Errorf("cluster: nkey file %s: not an nkey seed", file)
	}
	if _, err := kp.Seed(); err != nil {
		return nil, fmt.Errorf("cluster: nkey file %s: holds a public key, not a seed", file)
	}
	if pub, err := kp.PublicKey(); err != nil || !nkeys.IsValidPublicUserKey(pub) {
		return nil, fmt.Errorf("cluster: nkey file %s: not a user seed (SU…)", file)
	}
	return &Identity{kp: kp}, nil
}

// NewIdentity makes a new user nkey and returns it with its seed (to be
// written to a file only its process can read).
func NewIdentity() (*Identity, []byte, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, nil, err
	}
	seed, err := kp.Seed()
	return &Identity{kp: kp}, seed, err
}

// Public returns the identity's public key ("U…"), what members lists.
func (id *Identity) Public() string {
	pub, _ := id.kp.PublicKey()
	return pub
}

// Sign signs data with the identity's key (a server's nonce, a report).
func (id *Identity) Sign(data []byte) ([]byte, error) { return id.kp.Sign(data) }

// ValidMember reports whether pub is a public user nkey.
func ValidMember(pub string) bool { return nkeys.IsValidPublicUserKey(pub) }

// IsLoopback reports whether host (a name or an address, without port)
// is this machine only: localhost or a loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// needsTLS reports whether the URL list u names a server that is not on
// loopback.
func needsTLS(u string) bool {
	for _, part := range strings.Split(u, ",") {
		if p, err := url.Parse(strings.TrimSpace(part)); err != nil || !IsLoopback(p.Hostname()) {
			return true
		}
	}
	return false
}

// natsAuth returns the connection options of identity, members and TLS.
func (o *Options) natsAuth() ([]nats.Option, error) {
	if o.Identity == nil {
		return nil, errors.New("cluster: no nkey: every member of a cluster authenticates (cluster.nkey_file)")
	}
	if o.Members != nil {
		if want, ok := o.Members[o.Name]; !ok || want != o.Identity.Public() {
			return nil, fmt.Errorf("cluster: this process's nkey %s is not members.%s's: each member has its own", o.Identity.Public(), o.Name)
		}
	}
	opts := []nats.Option{nats.Nkey(o.Identity.Public(), o.Identity.Sign)}
	switch {
	case o.TLSCA != "":
		opts = append(opts, nats.RootCAs(o.TLSCA))
	case needsTLS(o.URL) && !strings.HasPrefix(strings.TrimSpace(o.URL), "tls://"):
		return nil, fmt.Errorf("cluster: %s is not on loopback: connect with TLS (tls:// or cluster.tls_ca)", Redact(o.URL))
	}
	return opts, nil
}

// signed is a report as published: the report's JSON, who signed it and
// the signature.
type signed struct {
	Report json.RawMessage `json:"report"`
	Signer string          `json:"signer"` // a member's name
	Sig    []byte          `json:"sig"`    // Ed25519 of Report by the signer's nkey
}

// sign wraps the report JSON data signed by this process.
func (c *Conn) sign(data []byte) ([]byte, error) {
	sig, err := c.o.Identity.kp.Sign(data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(signed{Report: data, Signer: c.o.Name, Sig: sig})
}

// ErrForged marks a report that is not signed by the member it names, or
// names no member.
var ErrForged = errors.New("not signed by a member of the cluster")

// open checks a published report's signature against the members' keys
// and returns the report's JSON and its signer.
func (c *Conn) open(msg []byte) ([]byte, string, error) {
	var s signed
	if err := json.Unmarshal(msg, &s); err != nil || len(s.Report) == 0 {
		return nil, "", fmt.Errorf("report not signed: %w", ErrForged)
	}
	pub, ok := c.o.Members[s.Signer]
	if !ok {
		return nil, s.Signer, fmt.Errorf("report signed by %q, not a member: %w", s.Signer, ErrForged)
	}
	v, err := nkeys.FromPublicKey(pub)
	if err != nil || v.Verify(s.Report, s.Sig) != nil {
		return nil, s.Signer, fmt.Errorf("report said to be %s's: %w", s.Signer, ErrForged)
	}
	return s.Report, s.Signer, nil
}

// RunsBucket is the key-value bucket recording, per blog, which worker
// holds the blog's lease for which run ("run.<blog-id>": the worker's
// name and the run's due time). It has no TTL: the record outlives the
// lease, so a report read late (after a failover) can still be checked.
const RunsBucket = "blogharvest_runs"

// holding is a RunsBucket value.
type holding struct {
	Worker string    `json:"worker"`
	Due    time.Time `json:"due"`
}

// Hold records this process as the worker of blog's run due at due. Call it
// once the blog's lease is held: the scheduler accepts the run's done
// report only from the worker Hold names last.
func (c *Conn) Hold(ctx context.Context, blog string, due time.Time) error {
	data, _ := json.Marshal(holding{Worker: c.o.Name, Due: due.UTC()})
	if _, err := c.runs.Put(ctx, "run."+blog, data); err != nil {
		return fmt.Errorf("cluster: record the run of %s: %w", blog, err)
	}
	return nil
}

// holder returns the worker recorded as holding blog's run due at due, or
// "" if none is.
func (c *Conn) holder(ctx context.Context, blog string, due time.Time) (string, error) {
	e, err := c.runs.Get(ctx, "run."+blog)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var h holding
	if json.Unmarshal(e.Value(), &h) != nil || !h.Due.Equal(due) {
		return "", nil
	}
	return h.Worker, nil
}
