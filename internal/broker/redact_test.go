package broker

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// A job's log read through one route's credential is scrubbed of every
// credential the broker holds: the other routes' secrets, a line of the
// App's key and the installation token it minted, in their encodings.
func TestRouterRedactsEveryCredentialItHolds(t *testing.T) {
	env := startRouterEnv(t, rtOptions{})
	secrets, err := LoadSecrets(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	reg := redact.NewRegistry()
	secrets.Register(reg)
	r, err := NewRouter(env.cfg, secrets, RouterOptions{BaseURL: env.emu.URL, HTTPClient: env.emu.Client(), Secrets: reg})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	minted, _, err := r.Token(ctx, "initech", tooldef.Read)
	if err != nil {
		t.Fatal(err)
	}
	env.sawCredential(minted)
	reversed := []byte(minted)
	slices.Reverse(reversed)
	keyLine := strings.Split(env.secret["app-key"], "\n")[5]
	fallback, write, read := env.secret["fallback-read"], env.secret["acme-write"], env.secret["acme-read"]
	printed := map[string]string{
		"another route's secret in base64": base64.StdEncoding.EncodeToString([]byte("t=" + fallback)),
		"the write secret in hex":          hex.EncodeToString([]byte(write)),
		"the minted token reversed":        string(reversed),
		"a line of the App's key":          keyLine,
		"the read secret split":            read[:9] + "\n    " + read[9:],
	}
	var log strings.Builder
	for name, text := range printed {
		log.WriteString(name + ": " + text + "\n")
	}
	st := env.emu.Emu.State()
	st.Lock()
	repo := st.Repo("acme", "widgets")
	run := st.AddWorkflowRun(repo, "CI", ".github/workflows/ci.yml", "push", "main", strings.Repeat("a", 40), st.Account("alice"), nil, st.Now())
	job := st.AddJob(run, "test", "failure", st.Now(), []state.StepSpec{{Name: "test", Conclusion: "failure"}}, log.String)
	st.Unlock()

	c, err := r.For(ctx, "acme", tooldef.Read)
	if err != nil {
		t.Fatal(err)
	}
	tail, _, err := c.JobLogTail(ctx, "acme", "widgets", job.ID, 64<<10, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range printed {
		if strings.Contains(tail.Text, text) {
			t.Errorf("%s reached the log: %q", name, tail.Text)
		}
	}
	env.scan(t, "log", tail.Text)
	if tail.Redacted != len(printed) {
		t.Errorf("redacted = %d, want %d (log %q)", tail.Redacted, len(printed), tail.Text)
	}
	if !reg.Holds(minted) {
		t.Error("the minted installation token is not in the registry")
	}
}
