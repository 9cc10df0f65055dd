package daemon_test

import (
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A busy listen port ends run before any harvest starts: exit 1, the port
// named, no harvest logged and no run recorded in the state file.
func TestRunBusyPortFailsBeforeHarvesting(t *testing.T) {
	e := newEnv(t, "@every 1h")
	ln, err := net.Listen("tcp", e.listen)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	out, err := exec.Command(binary, "run", "-config", e.config).CombinedOutput()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 1 || !strings.Contains(string(out), "listen "+e.listen) || !strings.Contains(string(out), "nothing was harvested") {
		t.Errorf("run on a busy port: exit %d (%v), want 1 naming the port:\n%s", code, err, out)
	}
	if strings.Contains(string(out), "harvest started") || strings.Contains(string(out), "robots.txt") {
		t.Errorf("a harvest started before the port was found busy:\n%s", out)
	}
	st, _ := exec.Command(binary, "status", "-config", e.config).CombinedOutput()
	if strings.Contains(string(st), "interrupted") || len(e.entries(t)) > 0 {
		t.Errorf("a run was recorded or archived:\n%s", st)
	}
}

// The daemon's log starts with "blogharvest started" naming the status page,
// a new blog's harvest names no zero "since", and a clean stop logs no
// "err=<nil>".
func TestRunLogLines(t *testing.T) {
	e := newEnv(t, "@every 1h")
	d := start(t, "run", "-config", e.config)
	waitFor(t, "the first run to finish", 120*time.Second, func() bool {
		return strings.Contains(d.logs.String(), `"msg":"harvest finished"`)
	})
	if code := d.stop(t, syscall.SIGTERM, 30*time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	logs := d.logs.String()
	started, harvest := strings.Index(logs, `"msg":"blogharvest started"`), strings.Index(logs, `"msg":"harvest started"`)
	if started < 0 || harvest < started {
		t.Errorf("\"harvest started\" (at %d) before \"blogharvest started\" (at %d)", harvest, started)
	}
	if !strings.Contains(logs, `"status_page":"http://`+e.listen+`/"`) {
		t.Errorf("the start line does not name the status page http://%s/", e.listen)
	}
	for _, bad := range []string{`"since":"0001-01-01`, `"err":null`, `err=<nil>`, `"level":"INFO","msg":"modification dates"`} {
		if strings.Contains(logs, bad) {
			t.Errorf("the log holds %s", bad)
		}
	}
	if !strings.Contains(logs, `"msg":"stopped"`) {
		t.Error("no \"stopped\" line")
	}
}
