package daemon

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
	"go.yaml.in/yaml/v3"
)

// Audit configures fixity audits on a schedule (audit.go): each audit
// reads one share of the archive's bags with the checks of the check
// command, so that Shares audits in a row read every bag.
type Audit struct {
	// Schedule is when audits run: a cron spec (5 fields, read in UTC
	// unless it starts with CRON_TZ=) or @every/@daily. Empty: no audits.
	Schedule string `yaml:"schedule"`
	// Shares is how many audits read the whole archive between them (as
	// restic's --read-data-subset 1/Shares): audit number k reads the
	// bags whose aip.ShareOf is (k-1) mod Shares. 0 or left out: 1, every
	// bag at every audit.
	Shares int `yaml:"shares"`
}

// On reports whether audits are scheduled.
func (a Audit) On() bool { return a.Schedule != "" }

// shares is Shares with its default.
func (a Audit) shares() int { return max(a.Shares, 1) }

// spec returns the audit's parsed schedule; validated by LoadConfig.
func (a Audit) spec() (schedule.Spec, error) {
	return schedule.ParseSpec(a.Schedule, time.UTC, 0, "audit")
}

// Notify configures notifications (notify.go): a webhook called and a
// command run, each optional, on a failed run (every AfterFailures-th
// failure in a row of a blog) and on an audit that found a problem.
type Notify struct {
	// Webhook is POSTed the notification as JSON. It may carry a secret
	// (user:password@ or a token in the query): it is never logged nor
	// shown; messages name it by scheme, host and path only.
	Webhook string `yaml:"webhook"`
	// Headers are sent with every webhook call (such as Authorization:
	// Bearer …); their values are never logged nor shown.
	Headers map[string]string `yaml:"headers"`
	// Command is run with the notification as JSON on its standard input:
	// the program, then its arguments (no shell).
	Command []string `yaml:"command"`
	// AfterFailures: a blog's failed run is notified when its failures
	// in a row reach a multiple of this. 0 or left out: 1, every failed
	// run.
	AfterFailures int `yaml:"after_failures"`
	// Retries is how many more times a delivery that failed is tried
	// (waiting 1 s, 2 s, 4 s, … at most a minute between tries). Left
	// out: 3.
	Retries *int `yaml:"retries"`
}

// On reports whether anything is notified.
func (n Notify) On() bool { return n.Webhook != "" || len(n.Command) > 0 }

// afterFailures is AfterFailures with its default.
func (n Notify) afterFailures() int { return max(n.AfterFailures, 1) }

// retries is Retries with its default.
func (n Notify) retries() int {
	if n.Retries == nil {
		return 3
	}
	return *n.Retries
}

// maxNotifyRetries bounds Notify.Retries.
const maxNotifyRetries = 10

// validateAudit reports the problems of the audit, notify and
// replay_web_page keys of c; doc supplies line numbers.
func (c *Config) validateAudit(doc *yaml.Node) []ConfigProblem {
	var probs []ConfigProblem
	add := func(n *yaml.Node, key, sub, reason string) {
		probs = append(probs, ConfigProblem{Line: lineOf(n, sub), Key: key, Reason: reason})
	}
	an := mapNode(doc, "audit")
	if c.Audit.On() {
		if _, err := c.Audit.spec(); err != nil {
			add(an, "audit.schedule", "schedule", err.Error())
		}
		if c.Cluster.On() {
			add(doc, "audit", "audit", "audits run in the local daemon only, not with cluster (run blogharvest check on the shared archive instead)")
		}
	}
	if c.Audit.Shares < 0 {
		add(an, "audit.shares", "shares", "must be 1 or more (audits that read the whole archive between them); 0 or left out is 1")
	}
	nn := mapNode(doc, "notify")
	n := c.Notify
	if n.Webhook != "" {
		if err := checkWebhook(n.Webhook); err != nil {
			add(nn, "notify.webhook", "webhook", err.Error())
		}
	}
	for k, v := range n.Headers {
		if k == "" || strings.ContainsAny(k, " :\r\n") || strings.ContainsAny(v, "\r\n") {
			add(mapValue(nn, "headers"), "notify.headers", k, "a header name without spaces or colons, a value on one line")
		}
	}
	if len(n.Headers) > 0 && n.Webhook == "" {
		add(nn, "notify.headers", "headers", "headers are sent with the webhook, and there is none")
	}
	if mapValue(nn, "command") != nil && (len(n.Command) == 0 || n.Command[0] == "") {
		add(nn, "notify.command", "command", "give the program, then its arguments: [/usr/local/bin/notify, --to, archivist]")
	}
	if n.AfterFailures < 0 {
		add(nn, "notify.after_failures", "after_failures", "must be 1 or more (failures in a row that make a notification); 0 or left out is 1")
	}
	if r := n.retries(); r < 0 || r > maxNotifyRetries {
		add(nn, "notify.retries", "retries", fmt.Sprintf("must be 0 to %d (more tries of a delivery that failed)", maxNotifyRetries))
	}
	if c.ReplayWebPage != "" {
		for _, f := range []string{"ui.js", "sw.js"} {
			if fi, err := os.Stat(filepath.Join(c.ReplayWebPage, f)); err != nil || !fi.Mode().IsRegular() {
				add(doc, "replay_web_page", "replay_web_page", fmt.Sprintf("%s has no %s: give the folder of the npm package replaywebpage "+
					"(npm pack replaywebpage, then tar xzf: the folder package), which holds ui.js and sw.js", c.ReplayWebPage, f))
				break
			}
		}
	}
	return probs
}

// checkWebhook accepts an absolute http(s) URL; the message never holds
// the URL itself, which may carry a secret.
func checkWebhook(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("not a URL (%v)", redactErr(err))
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("not an http(s) URL (it starts %q)", u.Scheme)
	case u.Host == "":
		return fmt.Errorf("%s has no host", redactURL(raw))
	}
	return nil
}
