package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os/exec"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/google/uuid"
)

// Notification is the JSON body a webhook is POSTed and a notify command
// reads on its standard input (doc: blogs.example.yaml, notify). Event is
// "run-failed" (a blog's failed run, every notify.after_failures-th in a
// row) or "audit-problem" (an audit found a problem). ID is the same on
// every delivery attempt of one notification, so a receiver can drop
// repeats.
type Notification struct {
	ID       string    `json:"id"`    // urn:uuid of this notification
	Event    string    `json:"event"` // run-failed, audit-problem
	Time     time.Time `json:"time"`
	Software string    `json:"software"` // "blogharvest <version>"
	// run-failed: the blog, its URL, the run's error (no local paths) and
	// its failures in a row, this one included.
	Blog                string `json:"blog,omitempty"`
	URL                 string `json:"url,omitempty"`
	Error               string `json:"error,omitempty"`
	ConsecutiveFailures int    `json:"consecutive_failures,omitempty"`
	// audit-problem: the audit.
	Audit *AuditNote `json:"audit,omitempty"`
}

// AuditNote is an audit as a notification gives it: its number, the
// share read, the bags read, its problems (the first maxNotifiedProblems,
// of Problems in all) and its record in the archive.
type AuditNote struct {
	Seq      int                `json:"seq"`
	Share    int                `json:"share"`
	Shares   int                `json:"shares"`
	Bags     int                `json:"bags"`
	Count    int                `json:"problems_total"`
	Problems []aip.AuditProblem `json:"problems"`
	Record   string             `json:"record,omitempty"` // the record's folder in the archive, such as .audit/a0000000007
}

// maxNotifiedProblems bounds the problems one notification lists; the
// audit record holds them all.
const maxNotifiedProblems = 20

// notifyQueue bounds the notifications waiting for delivery; one more is
// dropped, with a log line, rather than block a harvest.
const notifyQueue = 256

// notifier delivers notifications in the background: one goroutine, in
// order, each to the webhook and to the command, each tried 1 + retries
// times. A harvest or an audit only queues (send never blocks).
type notifier struct {
	log    *slog.Logger
	client *http.Client
	queue  chan Notification
	wait   func(attempt int) time.Duration // between tries; nil: backoff
	mu     sync.Mutex
	conf   Notify // the current config (reload replaces it)
}

// newNotifier returns a notifier of n logging to log.
func newNotifier(n Notify, log *slog.Logger) *notifier {
	return &notifier{log: log, conf: n, queue: make(chan Notification, notifyQueue),
		client: &http.Client{Timeout: 30 * time.Second}}
}

// setConfig replaces the configuration (a reload).
func (nt *notifier) setConfig(n Notify) {
	if nt == nil {
		return
	}
	nt.mu.Lock()
	nt.conf = n
	nt.mu.Unlock()
}

func (nt *notifier) config() Notify {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	return nt.conf
}

// send queues n for delivery, completing its ID, time and software; it
// never blocks.
func (nt *notifier) send(n Notification) {
	if nt == nil || !nt.config().On() {
		return
	}
	if n.ID == "" {
		n.ID = "urn:uuid:" + uuid.NewString()
	}
	if n.Time.IsZero() {
		n.Time = time.Now().UTC()
	}
	n.Software = Build().Software()
	select {
	case nt.queue <- n:
	default:
		nt.log.Error("notification dropped: too many waiting for delivery", "event", n.Event, "blog", n.Blog, "id", n.ID)
	}
}

// run delivers queued notifications until ctx ends.
func (nt *notifier) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-nt.queue:
			nt.deliver(ctx, n)
		}
	}
}

// deliver sends n to the webhook and to the command, each tried until it
// succeeds or its tries are spent; failures are logged.
func (nt *notifier) deliver(ctx context.Context, n Notification) {
	c := nt.config()
	body, err := json.Marshal(n)
	if err != nil {
		nt.log.Error("notification not delivered", "id", n.ID, "err", err)
		return
	}
	if c.Webhook != "" {
		nt.try(ctx, n, "webhook "+redactURL(c.Webhook), c.retries(), func(ctx context.Context) error { return postWebhook(ctx, nt.client, c, body) })
	}
	if len(c.Command) > 0 {
		nt.try(ctx, n, "command "+c.Command[0], c.retries(), func(ctx context.Context) error { return runNotifyCommand(ctx, c.Command, body) })
	}
}

// try calls do up to 1 + retries times, waiting between tries.
func (nt *notifier) try(ctx context.Context, n Notification, target string, retries int, do func(context.Context) error) {
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, time.Minute)
		err := do(actx)
		cancel()
		if err == nil {
			nt.log.Info("notification delivered", "to", target, "event", n.Event, "blog", n.Blog, "id", n.ID, "attempt", attempt)
			return
		}
		if attempt > retries || ctx.Err() != nil {
			nt.log.Error("notification not delivered", "to", target, "event", n.Event, "blog", n.Blog, "id", n.ID,
				"attempts", attempt, "err", err)
			return
		}
		wait := nt.backoff(attempt)
		nt.log.Warn("notification failed; trying again", "to", target, "event", n.Event, "id", n.ID, "attempt", attempt,
			"in", wait, "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// backoff is the wait after try attempt: 1 s, 2 s, 4 s, … at most a
// minute.
func (nt *notifier) backoff(attempt int) time.Duration {
	if nt.wait != nil {
		return nt.wait(attempt)
	}
	return min(time.Second<<min(attempt-1, 6), time.Minute)
}

// postWebhook POSTs body to c.Webhook with c.Headers; a status other than
// 2xx fails. Errors never hold the URL (it may carry a secret).
func postWebhook(ctx context.Context, client *http.Client, c Notify, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Webhook, bytes.NewReader(body))
	if err != nil {
		return redactErr(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "blogharvest/"+Build().Version)
	for k, v := range c.Headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return redactErr(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("HTTP status %d", resp.StatusCode)
	}
	return nil
}

// runNotifyCommand runs argv with body on its standard input; an exit
// status other than 0 fails.
func runNotifyCommand(ctx context.Context, argv []string, body []byte) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(body)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if len(out) > 200 {
			out = out[:200]
		}
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(out))
	}
	return nil
}

// redactURL names a URL that may carry a secret (user:password@, a token
// in the query or in the path, as Slack's hooks have) by its scheme and
// host only.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(a URL)"
	}
	return u.Scheme + "://" + u.Host + "/…"
}

// redactErr returns err without the URL a *url.Error names (it may carry
// a secret): the error beneath it.
func redactErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}
