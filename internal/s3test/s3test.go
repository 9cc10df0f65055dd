// Package s3test starts a real S3-compatible server for tests: Versity's
// versitygw (a production S3 gateway, installed pinned by .ci/run into the
// cache folder) with its POSIX backend in a temporary folder, on a random
// loopback port, with root keys made up per start. Where versitygw is
// absent, BLOGHARVEST_S3_FAKE=1 serves gofakes3 (an in-memory S3
// implementation) over loopback HTTP instead and says so on stderr;
// otherwise the test is skipped with a message naming what is missing.
package s3test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Server is a running S3 server with one bucket.
type Server struct {
	Endpoint  string // 127.0.0.1:port of the S3 API
	Bucket    string
	AccessKey string
	SecretKey string
	// Kind names what serves the API: "versitygw v1.8.0" (the version
	// .ci/run recorded beside the binary) or "gofakes3 (in memory)".
	Kind string
	// accessLog is versitygw's access log (one line per request), "" for
	// gofakes3.
	accessLog string
}

// Real reports whether the server is real S3 server software (not the
// in-memory fallback).
func (s *Server) Real() bool { return s.accessLog != "" }

// Env returns the environment a blogharvest process needs to reach the
// server (s3store.FromEnv).
func (s *Server) Env() []string {
	return []string{"BLOGHARVEST_S3_ENDPOINT=http://" + s.Endpoint,
		"AWS_ACCESS_KEY_ID=" + s.AccessKey, "AWS_SECRET_ACCESS_KEY=" + s.SecretKey}
}

// Request is one request as the server logged it.
type Request struct {
	Operation string // such as PutObject, GetObject, ListObjectsV2, HeadObject
	Key       string // the object key, "-" for none
	Query     url.Values
	Status    int // the HTTP status the server answered
}

// Requests returns the requests the server has logged so far whose object
// key, or listing prefix, starts with prefix ("" for all), counted by the
// server itself (its access log), not by the client. It fails for gofakes3, which keeps no
// log.
func (s *Server) Requests(prefix string) ([]Request, error) {
	if s.accessLog == "" {
		return nil, errors.New("s3test: gofakes3 keeps no access log")
	}
	f, err := os.Open(s.accessLog)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// owner bucket [time zone] ip requester id operation key uri status …
		_, rest, ok := strings.Cut(sc.Text(), "] ")
		fields := strings.Fields(rest)
		if !ok || len(fields) < 7 {
			continue // "log starts …"
		}
		st, _ := strconv.Atoi(fields[6])
		r := Request{Operation: strings.TrimPrefix(fields[3], "s3_"), Key: fields[4], Status: st}
		if u, err := url.ParseRequestURI(fields[5]); err == nil {
			r.Query = u.Query()
		}
		if strings.HasPrefix(r.Key, prefix) || r.Key == "-" && r.Query.Has("prefix") && strings.HasPrefix(r.Query.Get("prefix"), prefix) {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// Binary returns the versitygw binary: $BLOGHARVEST_VERSITYGW, else
// <user cache>/blogharvest-s3/versitygw (where .ci/run installs it), else
// versitygw on PATH; "" if none.
func Binary() string {
	if b := os.Getenv("BLOGHARVEST_VERSITYGW"); b != "" {
		return b
	}
	if d, err := os.UserCacheDir(); err == nil {
		if b := filepath.Join(d, "blogharvest-s3", "versitygw"); isExec(b) {
			return b
		}
	}
	if b, err := exec.LookPath("versitygw"); err == nil {
		return b
	}
	return ""
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

var (
	once   sync.Once
	shared *Server
	err    error
	stop   func()
)

// Start returns the package's shared server, starting it at the first call
// (one per test binary); each caller should use its own key prefix. It
// skips t when neither versitygw nor BLOGHARVEST_S3_FAKE=1 is there, logs
// which server it is, and fails t when the server does not start. Call
// Stop from TestMain.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" && os.Getenv("BLOGHARVEST_S3_FAKE") == "" {
		t.Skip("s3test: versitygw not found (.ci/run installs it into ~/.cache/blogharvest-s3/versitygw; or set " +
			"BLOGHARVEST_VERSITYGW; BLOGHARVEST_S3_FAKE=1 uses the in-memory gofakes3 instead): S3 backend not tested")
	}
	once.Do(func() {
		if bin == "" {
			shared, stop, err = startFake()
			fmt.Fprintln(os.Stderr, "s3test: versitygw absent, BLOGHARVEST_S3_FAKE set: the S3 tests run on gofakes3 "+
				"(in memory) over loopback HTTP, not on a real S3 server")
			return
		}
		shared, stop, err = Run(bin)
	})
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	t.Logf("s3test: S3 served by %s on %s", shared.Kind, shared.Endpoint)
	return shared
}

// Stop ends the shared server, if one was started.
func Stop() {
	if stop != nil {
		stop()
	}
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Run starts versitygw bin (POSIX backend in a new temporary folder, root
// keys made up here and passed in its environment, never its arguments) on
// a free loopback port, creates the bucket, and returns the server and the
// function that stops it and removes the folder. Extended attributes hold
// versitygw's metadata; where the file system has none, a sidecar folder.
func Run(bin string) (*Server, func(), error) {
	dir, err := os.MkdirTemp("", "blogharvest-versitygw-")
	if err != nil {
		return nil, nil, err
	}
	s := &Server{Bucket: "archive", AccessKey: "test-" + randomHex(8), SecretKey: randomHex(20),
		Kind: "versitygw", accessLog: filepath.Join(dir, "access.log")}
	if v, err := os.ReadFile(filepath.Join(filepath.Dir(bin), "versitygw.version")); err == nil {
		s.Kind += " " + strings.TrimSpace(string(v))
	}
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, nil, err
	}
	var lastErr error
	sidecar := false
	for attempt := 0; attempt < 4; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, nil, err
		}
		s.Endpoint = "127.0.0.1:" + strconv.Itoa(port)
		args := []string{"--port", s.Endpoint, "--quiet", "--access-log", s.accessLog, "posix"}
		if sidecar {
			args = append(args, "--sidecar", filepath.Join(dir, "meta"))
		}
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, append(args, root)...)
		cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+s.AccessKey, "ROOT_SECRET_KEY="+s.SecretKey)
		logf, err := os.Create(filepath.Join(dir, "versitygw"+strconv.Itoa(attempt)+".log"))
		if err != nil {
			cancel()
			return nil, nil, err
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.WaitDelay = 5 * time.Second
		if err := cmd.Start(); err != nil {
			cancel()
			return nil, nil, err
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if lastErr = waitReady(s, exited, 2*time.Minute); lastErr == nil {
			return s, func() {
				cancel()
				<-exited
				logf.Close()
				os.RemoveAll(dir)
			}, nil
		}
		cancel()
		<-exited
		logf.Close()
		log, _ := os.ReadFile(logf.Name())
		sidecar = sidecar || strings.Contains(string(log), "xattr")
		if len(log) > 2000 {
			log = log[len(log)-2000:]
		}
		lastErr = fmt.Errorf("%v; log tail:\n%s", lastErr, log)
	}
	os.RemoveAll(dir)
	return nil, nil, fmt.Errorf("versitygw did not start: %w", lastErr)
}

// waitReady waits until the server answers, then creates the bucket.
func waitReady(s *Server, exited chan struct{}, limit time.Duration) error {
	c, err := minio.New(s.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, "")})
	if err != nil {
		return err
	}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("versitygw exited")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var ok bool
		ok, err = c.BucketExists(ctx, s.Bucket)
		if err == nil && !ok {
			err = c.MakeBucket(ctx, s.Bucket, minio.MakeBucketOptions{})
		}
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("versitygw not ready after %v: %v", limit, err)
}

// startFake serves gofakes3 (an in-memory S3 implementation that checks
// If-None-Match under its lock) over real HTTP on a loopback port: the
// fallback where versitygw is not installed. It does not check signatures.
func startFake() (*Server, func(), error) {
	mem := s3mem.New()
	s := &Server{Bucket: "archive", AccessKey: "test-" + randomHex(8), SecretKey: randomHex(20), Kind: "gofakes3 (in memory)"}
	if err := mem.CreateBucket(s.Bucket); err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{Handler: gofakes3.New(mem).Server(), ReadHeaderTimeout: time.Minute}
	go srv.Serve(ln)
	s.Endpoint = ln.Addr().String()
	return s, func() { srv.Close() }, nil
}
