package daemon

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
)

// Version, when set at build time with
// -ldflags "-X github.com/blogharvest/blogharvest/daemon.Version=…", is the
// program's version instead of the one the build information gives (see
// Build).
var Version string

// BuildInfo is what the binary says of how it was built, from
// debug.ReadBuildInfo (what `go version -m` prints).
type BuildInfo struct {
	// Version is the main module's version: the VERSION of
	// `go install github.com/blogharvest/blogharvest/cmd/blogharvest@VERSION`,
	// or the pseudo-version the go command derives from the commit when it
	// builds in a clone (v0.0.0-YYYYMMDDHHMMSS-abcdefabcdef, "+dirty" with
	// uncommitted changes), or "devel" when it has none (go run, go test,
	// -buildvcs=false). Version (the variable) overrides it when set.
	Version string
	// Revision, Time and Modified are the build settings vcs.revision,
	// vcs.time and vcs.modified, recorded by go build in a clone (not by
	// go install …@VERSION, whose module zip has no repository, nor by go
	// run or go test); empty when absent.
	Revision, Time, Modified string
	// Go is the toolchain that built the binary, such as "go1.26.8".
	Go string
}

// Build returns the binary's BuildInfo, read once.
var Build = sync.OnceValue(func() BuildInfo { return readBuild(debug.ReadBuildInfo()) })

// readBuild makes a BuildInfo of what debug.ReadBuildInfo returned.
func readBuild(info *debug.BuildInfo, ok bool) BuildInfo {
	b := BuildInfo{Version: "devel"}
	if ok {
		b.Go = info.GoVersion
		if v := info.Main.Version; v != "" && v != "(devel)" {
			b.Version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value
			}
		}
	}
	if Version != "" {
		b.Version = Version
	}
	return b
}

// Software is the name and version the archive's records give the
// program (the PREMIS software agent, the warcinfo record, bag-info.txt's
// Bag-Software-Agent, the WACZ): "blogharvest VERSION", where VERSION is
// Version followed by "+" and the first 12 hex digits of the VCS revision
// (".dirty" after it when the tree had uncommitted changes) unless Version
// names that revision already (a pseudo-version does). Without a revision
// it is Version alone.
func (b BuildInfo) Software() string {
	v := b.Version
	if r := b.Revision; r != "" {
		short := r[:min(12, len(r))]
		if !strings.Contains(v, short) {
			v += "+" + short
			if b.Modified == "true" {
				v += ".dirty"
			}
		}
	}
	return "blogharvest " + v
}

// VCS returns the build's VCS settings as `go version -m` prints them,
// such as "vcs.revision=0123… vcs.time=2026-01-02T03:04:05Z
// vcs.modified=false", or "" when the build recorded none.
func (b BuildInfo) VCS() string {
	var s []string
	for _, kv := range [][2]string{{"vcs.revision", b.Revision}, {"vcs.time", b.Time}, {"vcs.modified", b.Modified}} {
		if kv[1] != "" {
			s = append(s, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(s, " ")
}

// String is what `blogharvest version` prints: "blogharvest VERSION", then
// a line with the toolchain and the VCS settings when there are any.
func (b BuildInfo) String() string {
	s := "blogharvest " + b.Version + "\n"
	if vcs := b.VCS(); vcs != "" {
		s += fmt.Sprintf("built with %s from %s\n", b.Go, vcs)
	} else if b.Go != "" {
		s += fmt.Sprintf("built with %s\n", b.Go)
	}
	return s
}
