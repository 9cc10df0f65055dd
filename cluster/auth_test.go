package cluster_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/nats-io/nats.go"
)

// member makes a new identity.
func member(t *testing.T) *cluster.Identity {
	t.Helper()
	id, _, err := cluster.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestServerAdmitsMembersOnly: the embedded server refuses a client
// without credentials, with an nkey that is not a member's, and a listen
// address off loopback without TLS; a member whose key is not its name's
// is refused by Connect.
func TestServerAdmitsMembersOnly(t *testing.T) {
	a, stranger := member(t), member(t)
	members := map[string]string{"a": a.Public()}
	if _, err := cluster.StartServer(cluster.ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir(), Members: members}); err == nil {
		t.Error("a server on 0.0.0.0 without TLS started")
	}
	if _, err := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()}); err == nil {
		t.Error("a server without members started")
	}
	s, err := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Members: members})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if nc, err := nats.Connect(s.URL(), nats.MaxReconnects(0)); err == nil {
		nc.Close()
		t.Error("a client without credentials was admitted")
	}
	ctx := context.Background()
	if c, err := cluster.Connect(ctx, cluster.Options{URL: s.URL(), Name: "x", Identity: stranger}); err == nil {
		c.Close()
		t.Error("a stranger's nkey was admitted")
	}
	if _, err := cluster.Connect(ctx, cluster.Options{URL: s.URL(), Name: "a"}); err == nil {
		t.Error("Connect without an identity succeeded")
	}
	if _, err := cluster.Connect(ctx, cluster.Options{URL: s.URL(), Name: "a", Identity: stranger, Members: members}); err == nil {
		t.Error("Connect with another's nkey under a's name succeeded")
	}
	if _, err := cluster.Connect(ctx, cluster.Options{URL: "nats://10.0.0.1:4222", Name: "a", Identity: a}); err == nil {
		t.Error("Connect to a server off loopback without TLS succeeded")
	}
}

// TestReportsOnlyFromHolder: the scheduler's Reports passes a done report
// only from the member that holds the run; one from another member (that
// pulled the task itself, or not), one unsigned and one signed by a key
// that is not the named member's are dropped.
func TestReportsOnlyFromHolder(t *testing.T) {
	sched, w1, w2 := member(t), member(t), member(t)
	members := map[string]string{"s": sched.Public(), "w1": w1.Public(), "w2": w2.Public()}
	s, err := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Members: members})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn := func(name string, id *cluster.Identity) *cluster.Conn {
		c, err := cluster.Connect(ctx, cluster.Options{URL: s.URL(), Name: name, Identity: id, Members: members,
			AckWait: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	cs, c1, c2 := conn("s", sched), conn("w1", w1), conn("w2", w2)
	task := dispatch.Task{Blog: "b1", Due: time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)}
	if err := cs.Enqueue(ctx, task); err != nil {
		t.Fatal(err)
	}
	forged := dispatch.Report{Blog: "b1", Due: task.Due, Kind: dispatch.Done, Attempt: 1, Payload: json.RawMessage(`{"outcome":"ok"}`)}
	// w2 pulls the task and reports it done without holding the run.
	dl, err := c2.Receive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := dl.Ack(forged); err != nil {
		t.Fatal(err)
	}
	// An unsigned report and one said to be w1's but signed by no one.
	raw, _ := json.Marshal(forged)
	nc, err := nats.Connect(s.URL(), nats.Nkey(w2.Public(), w2.Sign))
	if err == nil {
		defer nc.Close()
		nc.Publish(cluster.ReportsSubj, raw)
		env, _ := json.Marshal(map[string]any{"report": json.RawMessage(raw), "signer": "w1", "sig": []byte("not a signature")})
		nc.Publish(cluster.ReportsSubj, env)
		nc.Flush()
	} else {
		t.Logf("raw client not connected (%v): only the signed forgery is tried", err)
	}
	// w1 holds the run and reports it.
	if err := c1.Hold(ctx, "b1", task.Due); err != nil {
		t.Fatal(err)
	}
	real := forged
	real.Payload = json.RawMessage(`{"outcome":"ok","real":true}`)
	real.Attempt = 2 // another report id than the forged one
	if err := c1.Report(ctx, real); err != nil {
		t.Fatal(err)
	}
	rctx, rcancel := context.WithCancel(ctx)
	var got []dispatch.Report
	cs.Reports(rctx, func(r dispatch.Report) error {
		got = append(got, r)
		rcancel()
		return nil
	})
	if len(got) != 1 || got[0].Worker != "w1" || string(got[0].Payload) != string(real.Payload) {
		t.Fatalf("reports passed: %+v; want w1's only", got)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatal("timed out")
	}
}

// writeCert writes a self-signed certificate for 127.0.0.1 and its key as
// PEM files in dir.
func writeCert(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "blogharvest test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kd, _ := x509.MarshalECPrivateKey(k)
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kd}), 0o600)
	return cert, key
}

// TestServerWithTLS: an embedded server given a certificate may listen off
// loopback; a member connects with the authority's certificate (tls_ca),
// and a client without that authority (nats.go upgrades to TLS when the
// server asks, and then cannot verify the certificate) is refused.
func TestServerWithTLS(t *testing.T) {
	a := member(t)
	members := map[string]string{"a": a.Public()}
	cert, key := writeCert(t, t.TempDir())
	s, err := cluster.StartServer(cluster.ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir(), Members: members,
		TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(s.URL(), "tls://"), "nats://"))
	url := "nats://127.0.0.1:" + port
	ctx := context.Background()
	c, err := cluster.Connect(ctx, cluster.Options{URL: url, Name: "a", Identity: a, Members: members, TLSCA: cert})
	if err != nil {
		t.Fatalf("member over TLS: %v", err)
	}
	c.Close()
	if nc, err := nats.Connect(url, nats.MaxReconnects(0), nats.Nkey(a.Public(), a.Sign)); err == nil {
		nc.Close()
		t.Error("a client without the authority was admitted")
	}
}
