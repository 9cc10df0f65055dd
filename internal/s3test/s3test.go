// Package s3test starts a real S3-compatible server, SeaweedFS's weed
// (built from the Go module proxy by .ci/run into the cache folder), on
// loopback ports for tests, and skips the test with a clear message when
// the binary is absent.
package s3test

import (
	"context"
	"fmt"
	"net"
	"net/http"
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

// Server is a running weed with one bucket.
type Server struct {
	Endpoint  string // 127.0.0.1:port of the S3 API
	Bucket    string
	AccessKey string
	SecretKey string
}

// Env returns the environment a blogharvest process needs to reach the
// server (s3store.FromEnv).
func (s *Server) Env() []string {
	return []string{"BLOGHARVEST_S3_ENDPOINT=http://" + s.Endpoint,
		"AWS_ACCESS_KEY_ID=" + s.AccessKey, "AWS_SECRET_ACCESS_KEY=" + s.SecretKey}
}

// Binary returns the weed binary: $BLOGHARVEST_WEED, else
// ~/.cache/blogharvest-s3/weed, else weed on PATH; "" if none.
func Binary() string {
	if b := os.Getenv("BLOGHARVEST_WEED"); b != "" {
		return b
	}
	if d, err := os.UserCacheDir(); err == nil {
		if b := filepath.Join(d, "blogharvest-s3", "weed"); isExec(b) {
			return b
		}
	}
	if b, err := exec.LookPath("weed"); err == nil {
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
// (one per test binary: it takes several seconds to start); each caller
// should use its own prefix. It skips t when weed is absent and fails it
// when weed does not start. Call Stop from TestMain.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" && os.Getenv("BLOGHARVEST_S3_FAKE") == "" {
		t.Skip("s3test: SeaweedFS weed not found (.ci/run builds it into ~/.cache/blogharvest-s3/weed; or set BLOGHARVEST_WEED; " +
			"BLOGHARVEST_S3_FAKE=1 uses gofakes3 instead): S3 backend not tested")
	}
	once.Do(func() {
		if bin == "" {
			shared, stop, err = startFake()
			fmt.Fprintln(os.Stderr, "s3test: weed absent, BLOGHARVEST_S3_FAKE set: gofakes3 (in memory) served over loopback HTTP")
			return
		}
		shared, stop, err = start(bin)
	})
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	return shared
}

// Stop ends the shared server, if one was started.
func Stop() {
	if stop != nil {
		stop()
	}
}

// freePorts returns n distinct free loopback ports below 55000 (weed
// derives some gRPC ports by adding 10000 when not given).
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for tries := 0; len(ports) < n && tries < 1000; tries++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		if p := l.Addr().(*net.TCPAddr).Port; p < 55000 {
			ports = append(ports, p)
		}
	}
	if len(ports) < n {
		return nil, fmt.Errorf("no %d free ports", n)
	}
	return ports, nil
}

func start(bin string) (*Server, func(), error) {
	dir, err := os.MkdirTemp("", "blogharvest-weed-")
	if err != nil {
		return nil, nil, err
	}
	s := &Server{Bucket: "archive", AccessKey: "blogharvest-test", SecretKey: "blogharvest-test-secret-0123456789"}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		p, err := freePorts(13)
		if err != nil {
			return nil, nil, err
		}
		s.Endpoint = "127.0.0.1:" + strconv.Itoa(p[0])
		data := filepath.Join(dir, "data"+strconv.Itoa(attempt))
		os.MkdirAll(data, 0o755)
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, "mini", "-dir="+data, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
			"-s3.port="+strconv.Itoa(p[0]), "-s3.port.grpc="+strconv.Itoa(p[1]),
			"-master.port="+strconv.Itoa(p[2]), "-master.port.grpc="+strconv.Itoa(p[3]),
			"-volume.port="+strconv.Itoa(p[4]), "-volume.port.grpc="+strconv.Itoa(p[5]),
			"-filer.port="+strconv.Itoa(p[6]), "-filer.port.grpc="+strconv.Itoa(p[7]),
			"-admin.port="+strconv.Itoa(p[8]), "-admin.port.grpc="+strconv.Itoa(p[9]),
			"-admin.port.legacy=0", "-webdav=false", "-admin.ui=false",
			"-s3.port.iceberg=0", "-s3.port.lance=0", "-master.telemetry=false",
			"-debug.port="+strconv.Itoa(p[10]), "-s3.debug.port="+strconv.Itoa(p[11]),
			"-master.volumeSizeLimitMB=64", "-bucket="+s.Bucket)
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+s.AccessKey, "AWS_SECRET_ACCESS_KEY="+s.SecretKey, "HOME="+dir)
		logf, _ := os.Create(filepath.Join(dir, "weed"+strconv.Itoa(attempt)+".log"))
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.WaitDelay = 5 * time.Second
		if err := cmd.Start(); err != nil {
			cancel()
			return nil, nil, err
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stopFn := func() {
			cancel()
			<-exited
			logf.Close()
			os.RemoveAll(dir)
		}
		if lastErr = waitReady(s, exited, 3*time.Minute); lastErr == nil {
			return s, stopFn, nil
		}
		cancel()
		<-exited
		logf.Close()
		log, _ := os.ReadFile(logf.Name())
		if len(log) > 2000 {
			log = log[len(log)-2000:]
		}
		lastErr = fmt.Errorf("%v; log tail:\n%s", lastErr, log)
	}
	os.RemoveAll(dir)
	return nil, nil, fmt.Errorf("weed did not start: %w", lastErr)
}

// waitReady waits until the bucket (created at startup) exists and takes
// a write.
func waitReady(s *Server, exited chan struct{}, limit time.Duration) error {
	c, err := minio.New(s.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, "")})
	if err != nil {
		return err
	}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("weed exited")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = c.PutObject(ctx, s.Bucket, ".ready", strings.NewReader("ok"), 2, minio.PutObjectOptions{})
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(300 * time.Millisecond)
	}
	return fmt.Errorf("weed not ready after %v", limit)
}

// startFake serves gofakes3 (an in-memory S3 implementation that checks
// If-None-Match under its lock) over real HTTP on a loopback port: the
// fallback where weed cannot be built. It does not check signatures.
func startFake() (*Server, func(), error) {
	mem := s3mem.New()
	s := &Server{Bucket: "archive", AccessKey: "blogharvest-test", SecretKey: "blogharvest-test-secret-0123456789"}
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
