package ownbrowser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/render"
)

func TestHungRendererGivesUp(t *testing.T) {
	t.Parallel()
	// Timeout is what the hung page gets, twice; the next page must render
	// within it too, on a loaded machine.
	b := newBrowser(t, render.Options{Tabs: 1, Timeout: 10 * time.Second})
	// The outer deadline only keeps a broken build from hanging the test;
	// the renderer must give up by itself, after its two attempts, long before.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	_, err := b.Render(ctx, "http://blog.test/hang.html")
	if err == nil || !blogharvest.IsTransient(err) {
		t.Fatalf("Render of a hung page: %v, want a transient error", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("Render of a hung page ran into the test's own deadline: the renderer did not give up by itself")
	}
	if !strings.Contains(err.Error(), "first attempt") {
		t.Errorf("Render of a hung page: %v, want the two attempts named", err)
	}
	t.Logf("gave up after %s: %v", time.Since(start), err)
	start = time.Now()
	if _, err := b.Render(context.Background(), "http://blog.test/dynamic.html"); err != nil {
		t.Errorf("next page after a hung one: %v", err)
	}
	t.Logf("next page in %s", time.Since(start))
}
