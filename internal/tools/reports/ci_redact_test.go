package reports_test

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// A job's log is written by the code under test, which can print ghgate's
// own token in any encoding: each form is redacted from the log shown,
// counted once, and found nowhere in the result.
func TestReportCIStatusLogRedactsEveryEncoding(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	i, pulls := fleetWith(t, env, "red")
	repo, red := emulator.Fleet(i).Name, pullOf(t, pulls, "red")
	args := map[string]any{"owner": emulator.FleetOrg, "repo": repo, "pull": red.Number, "verbosity": 3, "log_lines": 5}
	out := ciReport(t, env, args)
	if len(out.Failing) != 1 {
		t.Fatalf("failing checks = %d, want 1", len(out.Failing))
	}
	setLog := jobLogSetter(t, env, repo, out.Failing[0].JobID)
	own := emulator.DemoTokenAlice
	reversed := []byte(own)
	slices.Reverse(reversed)
	var percent strings.Builder
	for _, c := range []byte(own) {
		fmt.Fprintf(&percent, "%%%02X", c)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte("t=" + own)) // the token two bytes into a group
	basic := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + own))
	unknown := "Zx9Qw8Er7Ty6Ui5Op4As3Df2"
	for _, c := range []struct{ name, line, leak string }{
		{"base64", "debug: " + b64, b64[4:12]},
		{"authorization basic", "> Authorization: Basic " + basic, basic},
		{"url-encoded", "GET /install?token=" + percent.String() + "&x=1", percent.String()},
		{"url-encoded lower case", "GET /install?token=" + strings.ToLower(percent.String()), strings.ToLower(percent.String())},
		{"hex", "key " + hex.EncodeToString([]byte(own)), hex.EncodeToString([]byte(own))},
		{"reversed", "rev " + string(reversed), string(reversed)},
		{"split across two lines", "tok " + own[:4] + "\n2026-01-02T15:04:06.0000000Z " + own[4:], own[4:]},
		{"authorization of an unknown token", "> authorization: token " + unknown, unknown},
		{"x-access-token of an unknown token", "remote: https://x-access-token:" + unknown + "@github.com/fleet/x", unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			setLog("2026-01-02T15:04:05.0000000Z " + c.line + "\n")
			res := env.Call(t, ciTool, args)
			for _, leak := range []string{own, c.leak} {
				if strings.Contains(string(res.JSON), leak) {
					t.Errorf("result holds %q, want it redacted: %s", leak, res.JSON)
				}
			}
			var got reports.CIStatusOut
			res.Decode(t, &got)
			if n := got.Failing[0].Redacted; n != 1 {
				t.Errorf("redacted = %d, want 1 (log %q)", n, got.Failing[0].Log)
			}
		})
	}

	// log_lines cuts the log inside a token split across lines: the part
	// shown, 8 bytes of it, is redacted still.
	t.Run("split across the log_lines cut", func(t *testing.T) {
		setLog("2026-01-02T15:04:05.0000000Z tok " + own[:1] + "\n2026-01-02T15:04:06.0000000Z " + own[1:] + "\n")
		cut := map[string]any{"owner": emulator.FleetOrg, "repo": repo, "pull": red.Number, "verbosity": 3, "log_lines": 1}
		res := env.Call(t, ciTool, cut)
		if strings.Contains(string(res.JSON), own[1:]) {
			t.Errorf("result holds %q, want it redacted: %s", own[1:], res.JSON)
		}
		var got reports.CIStatusOut
		res.Decode(t, &got)
		if f := got.Failing[0]; f.Log != "[redacted]" {
			t.Errorf("log = %q, want %q", f.Log, "[redacted]")
		}
	})
}

// jobLogSetter returns a function that makes the job's log end with
// tail, after what the seed gave it.
func jobLogSetter(t *testing.T, env *servertest.Env, repo string, jobID int64) func(tail string) {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	job := s.Repo(emulator.FleetOrg, repo).FindJob(jobID)
	seed := job.Log
	s.Unlock()
	if seed == nil {
		t.Fatalf("job %d has no log", jobID)
	}
	return func(tail string) {
		s.Lock()
		defer s.Unlock()
		job.Log = func() string { return seed() + tail }
	}
}
