package daemon_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditConfigProblems: each bad value of the audit, notify and
// replay_web_page keys is reported at its own line, and a webhook's
// secret never appears in the message.
func TestAuditConfigProblems(t *testing.T) {
	blogs := "blogs:\n  - id: a\n    url: https://x.org/\n"
	cases := []struct {
		name, yaml  string
		line        int
		key, reason string
	}{
		{"bad audit schedule", "audit:\n  schedule: \"every day\"\n" + blogs, 2, "audit.schedule", ""},
		{"negative shares", "audit:\n  schedule: \"@daily\"\n  shares: -2\n" + blogs, 3, "audit.shares", "1 or more"},
		{"webhook not http", "notify:\n  webhook: ftp://hooks.example.org/x\n" + blogs, 2, "notify.webhook", "not an http(s) URL"},
		{"webhook without host", "notify:\n  webhook: \"https:///hook?token=s3cret\"\n" + blogs, 2, "notify.webhook", "no host"},
		{"retries", "notify:\n  webhook: https://h.example.org/\n  retries: 11\n" + blogs, 3, "notify.retries", "0 to 10"},
		{"after_failures", "notify:\n  command: [/bin/true]\n  after_failures: -1\n" + blogs, 3, "notify.after_failures", "1 or more"},
		{"empty command", "notify:\n  command: []\n" + blogs, 2, "notify.command", "the program"},
		{"headers without webhook", "notify:\n  command: [/bin/true]\n  headers: {X-A: b}\n" + blogs, 3, "notify.headers", "no"},
		{"replay files missing", "replay_web_page: " + filepath.Join(t.TempDir(), "nothing") + "\n" + blogs, 1, "replay_web_page", "ui.js"},
		{"audit with cluster", "cluster: {embedded: true, nkey_file: k, members: {a: U}}\naudit:\n  schedule: \"@daily\"\n" + blogs, 2, "audit", "local daemon only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := wantProblem(t, tc.yaml, tc.line, "", tc.key, tc.reason)
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the message shows the webhook's secret: %v", err)
			}
		})
	}
}
