package daemon

import (
	"io"
	"log/slog"
	"reflect"
	"testing"
)

// TestRolesEmbedNothing: each role holds its parts as named fields (no
// embedded type, whose fields and methods would all be the role's), and
// so does each part.
func TestRolesEmbedNothing(t *testing.T) {
	for _, v := range []any{Daemon{}, ClusterScheduler{}, Worker{}, env{}, archive{}, archiveView{}, runner{}, planner{}, statusSource{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if f := rt.Field(i); f.Anonymous {
				t.Errorf("%s embeds %s: hold it as a named field", rt.Name(), f.Type)
			}
		}
	}
}

// TestOpenDaemonHoldsNoNil: once open, every pointer, map, channel, func
// and interface the local daemon and its parts hold is set, but for those
// nil by configuration (no on_publish: hand; not crawl -out: watchKept).
func TestOpenDaemonHoldsNoNil(t *testing.T) {
	d := NewDaemon(dailyConfig(t, t.TempDir(), "a"))
	d.env.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	d.run.harvester = blockingHarvester{make(chan string, 1)}
	if err := d.Open(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	byConfig := map[string]bool{"Daemon.hand": true, "Daemon.watchKept": true}
	d.plan.mu.Lock()
	defer d.plan.mu.Unlock()
	for name, v := range map[string]any{"Daemon": d, "env": d.env, "archive": d.arch, "archiveView": d.arch.view,
		"runner": d.run, "planner": d.plan} {
		rv := reflect.ValueOf(v).Elem()
		for i := range rv.NumField() {
			f, field := rv.Field(i), name+"."+rv.Type().Field(i).Name
			switch f.Kind() {
			case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface:
			default:
				continue
			}
			// planner.idle is made when an audit waits for a run; runner's
			// maps when the first run starts.
			if f.IsNil() && !byConfig[field] && field != "planner.idle" && field != "runner.carried" && field != "runner.live" &&
				field != "planner.held" {
				t.Errorf("%s is nil in an open local daemon", field)
			}
		}
	}
}
