package schedule_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// soundStateFile writes a state file holding n blogs and returns its path.
func soundStateFile(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state", "schedule.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		st := schedule.State{Outcome: schedule.OutcomeOK, LastEnd: time.Now(), LastError: strings.Repeat("e", i*7), Runs: i}
		if i == 1 {
			st.LastError = strings.Repeat("long error ", 2000) // an overflow page
		}
		if err := s.Put(fmt.Sprintf("blog-%03d", i), st); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// rootPage returns the page size and the root bucket's page id of the
// newest meta page of a bbolt file (bbolt's layout, little-endian).
func rootPage(data []byte) (pageSize, root uint64) {
	le := binary.LittleEndian
	meta := func(off int) (txid, ps, root uint64) {
		m := data[off+16:]
		return le.Uint64(m[48:]), uint64(le.Uint32(m[8:])), le.Uint64(m[16:])
	}
	tx0, ps, r0 := meta(0)
	tx1, _, r1 := meta(int(ps))
	if tx1 > tx0 {
		return ps, r1
	}
	return ps, r0
}

// damages are the ways a state file gets damaged: each returns the bytes
// of the damaged file from those of a sound one.
var damages = map[string]func(data []byte) []byte{
	"truncated": func(data []byte) []byte {
		ps, root := rootPage(data)
		return data[:root*ps] // the pages from the root bucket's on are gone
	},
	"empty": func([]byte) []byte { return nil },
	"garbage": func(data []byte) []byte {
		r := rand.New(rand.NewPCG(1, 2))
		g := make([]byte, len(data))
		for i := range g {
			g[i] = byte(r.Uint32())
		}
		return g
	},
	"bit-flipped": func(data []byte) []byte {
		ps, root := rootPage(data)
		d := bytes.Clone(data)
		d[root*ps+11] ^= 0x40 // the root page's element count: 16384 more elements than the page holds
		return d
	},
}

// damageFile replaces the file at path by its damaged form.
func damageFile(t *testing.T, path, how string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := damages[how](data)
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	return bad
}

// TestOpenDamagedStateFile: a damaged state file never panics or faults:
// OpenReadOnly reports it (a *DamagedError) and leaves it alone; Open sets it
// aside, unchanged, as schedule.db.corrupt-<time>, and starts a fresh, sound
// state file, reported by Recovered.
func TestOpenDamagedStateFile(t *testing.T) {
	for how := range damages {
		t.Run(how, func(t *testing.T) {
			path := soundStateFile(t, 40)
			bad := damageFile(t, path, how)

			_, err := schedule.OpenReadOnly(path)
			var de *schedule.DamagedError
			if !errors.As(err, &de) || !errors.Is(err, schedule.ErrDamaged) || de.Path != path {
				t.Fatalf("OpenReadOnly: %v, want a DamagedError naming %s", err, path)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, bad) {
				t.Fatal("OpenReadOnly changed the damaged file")
			}

			s, err := schedule.Open(path)
			if err != nil {
				t.Fatalf("Open: %v, want the file recovered", err)
			}
			defer s.Close()
			r := s.Recovered()
			if r == nil || r.Path != path || !strings.HasPrefix(r.Aside, path+".corrupt-") || r.Damage == nil {
				t.Fatalf("Recovered() = %+v, want the damaged file set aside", r)
			}
			t.Logf("recovered: %v", r.Damage)
			if got, err := os.ReadFile(r.Aside); err != nil || !bytes.Equal(got, bad) {
				t.Errorf("set-aside file: %v, or not the damaged bytes", err)
			}
			if err := s.Put("blog-000", schedule.State{Runs: 1}); err != nil {
				t.Fatal(err)
			}
			if st, ok, err := s.Get("blog-001"); err != nil || ok {
				t.Errorf("fresh store has blog-001: %+v %v", st, err)
			}
			if err := s.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestOpenSoundStateFileIsNotRecovered: a sound file, small or spread over
// many pages, passes the structural check.
func TestOpenSoundStateFileIsNotRecovered(t *testing.T) {
	for _, n := range []int{0, 3, 300} {
		path := soundStateFile(t, n)
		s, err := schedule.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if r := s.Recovered(); r != nil {
			t.Errorf("%d blogs: sound file recovered: %v", n, r.Damage)
		}
		s.Close()
		ro, err := schedule.OpenReadOnly(path)
		if err != nil {
			t.Fatalf("%d blogs: OpenReadOnly: %v", n, err)
		}
		ro.Close()
	}
}

// TestOpenRandomlyDamagedStateFile flips random bits and overwrites random
// bytes of a sound file (half the time in page headers and element arrays):
// whatever the damage, Open never panics or faults, and the store it
// returns (recovered or not) works and checks clean before and after a
// write.
func TestOpenRandomlyDamagedStateFile(t *testing.T) {
	sound, err := os.ReadFile(soundStateFile(t, 60))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, seed()))
	dir := t.TempDir()
	recovered := 0
	for i := range 300 {
		d := bytes.Clone(sound)
		ps, _ := rootPage(sound)
		for range 1 + r.IntN(4) {
			at := r.IntN(len(d))
			if i%2 == 0 { // page headers and element arrays, where the structure is
				at = r.IntN(len(d)/int(ps))*int(ps) + r.IntN(96)
			}
			if r.IntN(2) == 0 {
				d[at] ^= 1 << r.IntN(8)
			} else {
				d[at] = byte(r.Uint32())
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
		if err := os.WriteFile(path, d, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := schedule.Open(path)
		if err != nil {
			t.Fatalf("damage %d: Open: %v", i, err)
		}
		if s.Recovered() != nil {
			recovered++
		}
		if err := s.Check(); err != nil {
			t.Errorf("damage %d: after Open: %v", i, err)
		}
		if _, err := s.All(); err != nil {
			t.Logf("damage %d: All: %v (a damaged value, reported)", i, err)
		}
		if err := s.Put("blog-new", schedule.State{Runs: 1}); err != nil {
			t.Errorf("damage %d: Put: %v", i, err)
		}
		if err := s.Check(); err != nil {
			t.Errorf("damage %d: %v", i, err)
		}
		s.Close()
	}
	t.Logf("%d of 300 damaged files recovered (the rest were hit only in keys, values or free space)", recovered)
}

// seed is the random damage's seed: 6, or $SCHEDULE_DAMAGE_SEED to explore.
func seed() uint64 {
	var s uint64 = 6
	fmt.Sscan(os.Getenv("SCHEDULE_DAMAGE_SEED"), &s)
	return s
}
