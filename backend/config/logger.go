package config

import (
	"io"
	"log/slog"
	"strings"
)

// NewLogger is the processes' logger: level from LOG_LEVEL (debug, info, warn, error; info when
// unset or unknown), text or JSON from LOG_FORMAT, written to w.
func NewLogger(w io.Writer, level, format string) *slog.Logger {
	l := slog.LevelInfo
	_ = l.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: l}
	if strings.EqualFold(format, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
