package daemon

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/cluster"
	"go.yaml.in/yaml/v3"
)

// Cluster configures running on many machines over NATS JetStream (the
// cluster key). Without the key blogharvest is one process and nothing of
// NATS is started or needed.
type Cluster struct {
	// NATSURL is the NATS server, nats://host:4222 (comma-separated for
	// several); it may carry user:password, never logged. Default with
	// embedded: the embedded server's listen address.
	NATSURL string `yaml:"nats_url"`
	// Embedded makes run start a NATS server with JetStream inside the
	// process, listening on Listen and storing in StoreDir.
	Embedded bool   `yaml:"embedded"`
	Listen   string `yaml:"listen"`    // the embedded server's address; default 127.0.0.1:4222 (off loopback: TLS required)
	StoreDir string `yaml:"store_dir"` // the embedded server's JetStream storage; default <state's folder>/nats
	// Name names this process to the cluster: a worker's own folder under
	// <archive>/.tmp and its lock, and /status's "worker". Default: the
	// host name. Workers sharing an archive need distinct names.
	Name       string   `yaml:"name"`
	AckWait    Duration `yaml:"ack_wait"`    // a task unacked and without heartbeat this long is redelivered; default 30s
	MaxDeliver int      `yaml:"max_deliver"` // deliveries of one task at most, then it fails for good; default 5
	LeaseTTL   Duration `yaml:"lease_ttl"`   // scheduler, blog and host leases lapse this long after their holder's last renewal; default 15s
	RetryDelay Duration `yaml:"retry_delay"` // a failed attempt is retried after this, doubled per attempt; default 10s

	// NkeyFile is this process's identity: a file holding an nkey user
	// seed (blogharvest nkey writes one), never logged. Required: the
	// server admits members only, and reports are signed with it.
	NkeyFile string `yaml:"nkey_file"`
	// Members maps the name of every member (schedulers and workers) to
	// its public nkey (U…): the embedded server admits these, the scheduler
	// accepts reports signed by these.
	Members map[string]string `yaml:"members"`
	// TLSCA is the PEM file of the authorities that sign the NATS server's
	// certificate; a nats_url off loopback needs it (or tls:// and the
	// system's authorities).
	TLSCA string `yaml:"tls_ca"`
	// TLSCert and TLSKey are the embedded server's certificate and key
	// (PEM); a listen address off loopback needs them.
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`

	on bool // the config has the key
}

// On reports whether the config has the cluster key.
func (cl Cluster) On() bool { return cl.on }

func (cl *Cluster) applyDefaults(c *Config) {
	cl.on = c.set.top["cluster"]
	if !cl.on {
		return
	}
	if cl.Listen == "" {
		cl.Listen = "127.0.0.1:4222"
	}
	if cl.StoreDir == "" {
		cl.StoreDir = filepath.Join(filepath.Dir(c.State), "nats")
	}
	if cl.NATSURL == "" && cl.Embedded {
		host, port, _ := net.SplitHostPort(cl.Listen)
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "127.0.0.1"
		}
		cl.NATSURL = "nats://" + net.JoinHostPort(host, port)
	}
	if cl.Name == "" {
		cl.Name, _ = os.Hostname()
	}
	if cl.AckWait == 0 {
		cl.AckWait = Duration(30 * time.Second)
	}
	if cl.MaxDeliver == 0 {
		cl.MaxDeliver = 5
	}
	if cl.LeaseTTL == 0 {
		cl.LeaseTTL = Duration(15 * time.Second)
	}
	if cl.RetryDelay == 0 {
		cl.RetryDelay = Duration(10 * time.Second)
	}
}

// validate reports the cluster key's problems.
func (cl Cluster) validate(c *Config, doc *yaml.Node) []ConfigProblem {
	if !cl.on {
		return nil
	}
	n := mapValue(doc, "cluster")
	var probs []ConfigProblem
	bad := func(key, reason string) {
		probs = append(probs, ConfigProblem{Line: lineOf(n, key), Key: "cluster." + key, Reason: reason})
	}
	if cl.NATSURL == "" {
		bad("nats_url", "required unless embedded: true (e.g. nats://10.0.0.1:4222)")
	}
	for _, u := range strings.Split(cl.NATSURL, ",") {
		if p, err := url.Parse(strings.TrimSpace(u)); cl.NATSURL != "" && (err != nil || p.Host == "") {
			bad("nats_url", fmt.Sprintf("%q is not a NATS URL like nats://host:4222", cluster.Redact(u)))
		}
	}
	if _, _, err := net.SplitHostPort(cl.Listen); err != nil {
		bad("listen", fmt.Sprintf("%q is not host:port", cl.Listen))
	}
	if cl.Name == "" || strings.ContainsAny(cl.Name, "/\\") || strings.HasPrefix(cl.Name, ".") {
		bad("name", fmt.Sprintf("%q: give a name without / or a leading dot", cl.Name))
	}
	if cl.NkeyFile == "" {
		bad("nkey_file", "required: this process's NATS identity, a file holding an nkey user seed (blogharvest nkey -out FILE writes one)")
	} else if _, err := cluster.LoadIdentity(cl.NkeyFile); err != nil {
		bad("nkey_file", err.Error())
	}
	if len(cl.Members) == 0 {
		bad("members", "required: the name and public nkey (U…) of every scheduler and worker, e.g. {harvest-1: UAB…}")
	}
	for name, pub := range cl.Members {
		if !cluster.ValidMember(pub) {
			bad("members", fmt.Sprintf("%s: %q is not a public user nkey (U…)", name, pub))
		}
	}
	if host, _, err := net.SplitHostPort(cl.Listen); err == nil && cl.Embedded && !cluster.IsLoopback(host) &&
		(cl.TLSCert == "" || cl.TLSKey == "") {
		bad("listen", fmt.Sprintf("%s is not on loopback: the embedded server needs tls_cert and tls_key there", cl.Listen))
	}
	if (cl.TLSCert == "") != (cl.TLSKey == "") {
		bad("tls_cert", "tls_cert and tls_key go together")
	}
	for _, u := range strings.Split(cl.NATSURL, ",") {
		p, err := url.Parse(strings.TrimSpace(u))
		if err == nil && p.Host != "" && !cluster.IsLoopback(p.Hostname()) && p.Scheme != "tls" && cl.TLSCA == "" {
			bad("nats_url", fmt.Sprintf("%q is not on loopback: use TLS (tls_ca, or a tls:// URL)", cluster.Redact(u)))
		}
	}
	if cl.MaxDeliver < 1 {
		bad("max_deliver", "must be at least 1")
	}
	if time.Duration(cl.AckWait) < time.Second || time.Duration(cl.LeaseTTL) < time.Second {
		bad("ack_wait", "ack_wait and lease_ttl must be at least 1s")
	}
	return probs
}
