package server_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/server"
)

func TestSDKLoggerDemotesInfoToDebug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		level slog.Level
		want  []string // lines' level=… in order
	}{
		{slog.LevelInfo, []string{"level=WARN", "level=ERROR"}},
		{slog.LevelDebug, []string{"level=DEBUG", "level=WARN", "level=ERROR"}},
	} {
		var buf bytes.Buffer
		log := server.SDKLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tc.level})))
		log = log.With("component", "sdk")
		log.Info("server session connected")
		log.Warn("a warning")
		log.Error("an error")
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			for _, f := range strings.Fields(line) {
				if strings.HasPrefix(f, "level=") {
					got = append(got, f)
				}
			}
			if !strings.Contains(line, "component=sdk") {
				t.Errorf("logger at %v: line %q lost the attribute component=sdk", tc.level, line)
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("logger at %v: levels written = %v, want %v", tc.level, got, tc.want)
		}
	}
}
