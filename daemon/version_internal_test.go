package daemon

import (
	"runtime/debug"
	"testing"
)

// TestReadBuild checks what `version` prints for the three ways of
// building: go install …@VERSION (a module version, no VCS settings), go
// build in a clone (a pseudo-version with "+dirty" and the VCS settings),
// and go run or go test ("(devel)", nothing else); and that the -ldflags
// variable overrides the version; and the name and version the archive's
// records give (Software), which names the revision whenever the build has
// one.
func TestReadBuild(t *testing.T) {
	settings := []debug.BuildSetting{{Key: "-buildmode", Value: "exe"}, {Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		name, main, ldflags string
		settings            []debug.BuildSetting
		want, software      string
	}{
		{"go install @version", "v1.2.3", "", nil, "blogharvest v1.2.3\nbuilt with go1.26.8\n", "blogharvest v1.2.3"},
		{"go build in a clone", "v0.0.0-20260102030405-0123456789ab+dirty", "", settings,
			"blogharvest v0.0.0-20260102030405-0123456789ab+dirty\nbuilt with go1.26.8 from " +
				"vcs.revision=0123456789abcdef0123456789abcdef01234567 vcs.time=2026-01-02T03:04:05Z vcs.modified=true\n",
			"blogharvest v0.0.0-20260102030405-0123456789ab+dirty"},
		{"go run", "(devel)", "", settings[:1], "blogharvest devel\nbuilt with go1.26.8\n", "blogharvest devel"},
		{"-ldflags -X", "(devel)", "1.0.0", settings, "blogharvest 1.0.0\nbuilt with go1.26.8 from " +
			"vcs.revision=0123456789abcdef0123456789abcdef01234567 vcs.time=2026-01-02T03:04:05Z vcs.modified=true\n",
			"blogharvest 1.0.0+0123456789ab.dirty"},
		{"go build -buildvcs, clean tree", "(devel)", "", append(settings[:4:4], debug.BuildSetting{Key: "vcs.modified", Value: "false"}),
			"blogharvest devel\nbuilt with go1.26.8 from vcs.revision=0123456789abcdef0123456789abcdef01234567 " +
				"vcs.time=2026-01-02T03:04:05Z vcs.modified=false\n", "blogharvest devel+0123456789ab"},
	} {
		t.Run(c.name, func(t *testing.T) {
			saved := Version
			Version = c.ldflags
			defer func() { Version = saved }()
			info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/blogharvest/blogharvest", Version: c.main},
				Settings: c.settings}
			b := readBuild(info, true)
			if got := b.String(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if got := b.Software(); got != c.software {
				t.Errorf("Software() %q, want %q (version and revision)", got, c.software)
			}
		})
	}
	if got := readBuild(nil, false).String(); got != "blogharvest devel\n" {
		t.Errorf("without build information: %q", got)
	}
}
