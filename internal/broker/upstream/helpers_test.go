package upstream

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"github.com/ghgate/ghgate/internal/testutil"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	// startHome is HOME before any test changed it.
	startHome = os.Getenv("HOME")

	buildOnce sync.Once
	builtBin  string
	buildOut  []byte
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		_ = os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// ghgateBinary builds cmd/ghgate once per test run: the upstream in these
// tests is a real second ghgate process.
func ghgateBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the ghgate binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ghgate-upstream-test-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "ghgate")
		cmd := exec.Command("go", "build", "-o", builtBin, "github.com/ghgate/ghgate/cmd/ghgate")
		// Tests point HOME at a temporary directory; the build needs the
		// real one for Go's caches.
		cmd.Env = append(os.Environ(), "HOME="+startHome)
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return builtBin
}

// canaryToken is a token value that must never appear in any output.
func canaryToken(t *testing.T, label string) string {
	t.Helper()
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "cnry" + label + hex.EncodeToString(b[:])
}

// world is an emulator with a read token (carol) and a write token (bob)
// of its own, so an issue's author tells which token created it.
type world struct {
	emu               *emulatortest.Server
	readTok, writeTok string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{emu: emulatortest.Start(t, emulator.Options{}), readTok: canaryToken(t, "rd"), writeTok: canaryToken(t, "wr")}
	w.addToken(w.readTok, "carol", emulator.PermRead)
	w.addToken(w.writeTok, "bob", emulator.PermWrite)
	return w
}

func (w *world) addToken(value, login string, perm emulator.Permission) {
	st := w.emu.Emu.State()
	st.Lock()
	st.AddToken(&emulator.Token{Value: value, Login: login, Perms: map[string]emulator.Permission{"acme/widgets": perm}})
	st.Unlock()
}

// author returns the login that opened the issue titled title in
// acme/widgets, or "".
func (w *world) author(title string) string {
	st := w.emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	r := st.Repo("acme", "widgets")
	for _, is := range r.Issues {
		if is != nil && is.Title == title && is.User != nil {
			return is.User.Login
		}
	}
	return ""
}

// fakeTokens is a TokenSource with one token (or error) per mode.
type fakeTokens struct {
	mu    sync.Mutex
	token map[tooldef.Mode]string
	err   map[tooldef.Mode]error
	calls int
}

func newFakeTokens(read, write string) *fakeTokens {
	return &fakeTokens{token: map[tooldef.Mode]string{tooldef.Read: read, tooldef.Write: write}, err: map[tooldef.Mode]error{}}
}

func (f *fakeTokens) Token(_ context.Context, owner string, mode tooldef.Mode) (string, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if e := f.err[mode]; e != nil {
		return "", "", e
	}
	if f.token[mode] == "" {
		return "", "", contract.Errorf(contract.CodeMissingCredential, "no %s credential for route %q", mode, "*")
	}
	return f.token[mode], "secret-" + string(mode), nil
}

func (f *fakeTokens) set(mode tooldef.Mode, token string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.token[mode], f.err[mode] = token, err
}

// transcript is everything a test saw leave the proxy: log lines,
// results, errors. It is scanned for the tokens when the test ends.
type transcript struct {
	log  *testutil.SyncBuffer
	mu   sync.Mutex
	seen []string
}

func newTranscript(t *testing.T, tokens ...string) (*transcript, *slog.Logger) {
	tr := &transcript{log: &testutil.SyncBuffer{}}
	t.Cleanup(func() {
		if testing.Verbose() {
			t.Logf("log:\n%s", tr.log.String())
		}
		all := append([]string{tr.log.String()}, tr.texts()...)
		for _, text := range all {
			for _, tok := range tokens {
				if piece := leakedPiece(text, tok); piece != "" {
					t.Errorf("a token leaked (%q found) in:\n%s", piece, text)
				}
			}
		}
	})
	return tr, slog.New(slog.NewTextHandler(tr.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (tr *transcript) add(v any) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case error:
		s = x.Error()
	default:
		b, _ := json.Marshal(v)
		s = string(b)
	}
	tr.mu.Lock()
	tr.seen = append(tr.seen, s)
	tr.mu.Unlock()
}

func (tr *transcript) texts() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.seen...)
}

// leakedPiece returns a piece of tok of 8 or more characters found in
// text, or "".
func leakedPiece(text, tok string) string {
	for i := 0; i+8 <= len(tok); i++ {
		if strings.Contains(text, tok[i:i+8]) {
			return tok[i : i+8]
		}
	}
	return ""
}

// serve registers the proxy's tools on an MCP server, as the broker does,
// and returns a client session to it.
func serve(t *testing.T, p *Proxy) *mcp.ClientSession {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "broker-test", Version: "0"}, nil)
	for _, tl := range p.Tools() {
		srv.AddTool(tl.Def, tl.Handler)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return cs
}

// call calls a tool and returns isError and the decoded structured
// content; a protocol error fails the test.
func call(t *testing.T, tr *transcript, cs *mcp.ClientSession, name string, args map[string]any) (bool, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tr.add(err)
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	tr.add(res)
	var out map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: structuredContent: %v (%s)", name, err, raw)
	}
	return res.IsError, out
}

// waitDead waits for a session's connection to end.
func waitDead(t *testing.T, s *session) {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the upstream session did not notice its child died")
	}
}

// current returns the session of a mode, or nil.
func (p *Proxy) current(mode tooldef.Mode) *session {
	p.slotsMu.Lock()
	var s *slot
	for key, sl := range p.slots {
		if strings.HasPrefix(key, string(mode)+"\x00") {
			s = sl
		}
	}
	p.slotsMu.Unlock()
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess
}

// wantEnvelope stops the test unless a call failed with an envelope whose
// fields named in want hold those values; it reports every field that
// differs.
func wantEnvelope(t *testing.T, what string, isErr bool, out map[string]any, want map[string]any) {
	t.Helper()
	if !isErr {
		t.Fatalf("%s: isError = false, want an envelope: %v", what, out)
	}
	bad := false
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if out[k] != want[k] {
			t.Errorf("%s: %s = %v, want %v", what, k, out[k], want[k])
			bad = true
		}
	}
	if bad {
		t.FailNow()
	}
}
