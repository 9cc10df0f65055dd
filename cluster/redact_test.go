package cluster_test

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/cluster"
)

// TestRedactEveryURL: every user-info of a comma-separated list of NATS
// URLs is removed, with or without spaces after the commas, and a part
// that does not parse loses what precedes its "@".
func TestRedactEveryURL(t *testing.T) {
	for _, in := range []string{
		"nats://alice:s3cret@10.0.0.1:4222",
		"nats://alice:s3cret@10.0.0.1:4222,nats://bob:s3cret@10.0.0.2:4222",
		"nats://alice:s3cret@10.0.0.1:4222, nats://bob:s3cret@10.0.0.2:4222",
		"nats://10.0.0.1:4222 , tls://s3cret@10.0.0.2:4222",
		"nats://alice:s3cret%zz@10.0.0.1:4222",
		"alice:s3cret@10.0.0.1:4222",
	} {
		got := cluster.Redact(in)
		if strings.Contains(got, "s3cret") || strings.Contains(got, "alice") || strings.Contains(got, "bob") {
			t.Errorf("Redact(%q) = %q: a credential is left", in, got)
		}
		if !strings.Contains(got, "10.0.0.1:4222") {
			t.Errorf("Redact(%q) = %q: the host is gone", in, got)
		}
	}
	if got := cluster.Redact("nats://a:1,nats://b:2"); got != "nats://a:1,nats://b:2" {
		t.Errorf("Redact without credentials = %q", got)
	}
}
