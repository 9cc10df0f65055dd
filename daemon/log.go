package daemon

import (
	"io"
	"log/slog"
	"strings"
)

// parseLevel returns the slog level named s, or nil.
func parseLevel(s string) *slog.Level {
	var l slog.Level
	switch strings.ToLower(s) {
	case "debug":
		l = slog.LevelDebug
	case "", "info":
		l = slog.LevelInfo
	case "warn", "warning":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default:
		return nil
	}
	return &l
}

// newLogger returns the logger the config asks for, writing to w.
func newLogger(c Log, w io.Writer) *slog.Logger {
	lvl := slog.LevelInfo
	if l := parseLevel(c.Level); l != nil {
		lvl = *l
	}
	opts := &slog.HandlerOptions{Level: lvl}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
