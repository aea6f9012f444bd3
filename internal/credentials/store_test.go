package credentials_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/credentials"
	"github.com/zalando/go-keyring"
)

// Every test here that reaches the OS keyring reaches go-keyring's
// in-memory mock (the real Secret Service has its own package,
// ./secretservice, since the mock replaces go-keyring's provider for the
// whole process). The mock is one map without a lock, so the tests that
// reach it do not run in parallel: they run one after another, before the
// parallel tests resume.
func TestMain(m *testing.M) {
	keyring.MockInit()
	os.Exit(m.Run())
}

// noKeyring is a keyring nobody answers, as on a server without a
// Secret Service.
type noKeyring struct{}

var errNoKeyring = errors.New("the name org.freedesktop.secrets was not provided by any .service files")

func (noKeyring) Get(string, string) (string, error) { return "", errNoKeyring }
func (noKeyring) Set(string, string, string) error   { return errNoKeyring }
func (noKeyring) Delete(string, string) error        { return errNoKeyring }

const secret = "gho_SECRETSECRETSECRET0123456789abcdef"

// With no keyring the token lands in the file: the file 0600, its
// directory 0700 (even one that existed wider), written whole.
func TestStoreFallsBackToPrivateFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ghgate")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := credentials.Store{Keyring: noKeyring{}, File: filepath.Join(dir, "credentials.toml")}
	loc, note, err := s.Save("ghe.example.com", "alice", secret)
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	if loc.Kind != credentials.InFile {
		t.Errorf("location kind = %s, want %s", loc.Kind, credentials.InFile)
	}
	if loc.Where != s.File {
		t.Errorf("location = %s, want the file %s", loc.Where, s.File)
	}
	if !strings.Contains(note, "No OS keyring reachable") {
		t.Errorf("note = %q, want it to say no keyring was reachable", note)
	}
	for path, want := range map[string]os.FileMode{s.File: 0o600, dir: 0o700} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s mode = %o, want %o", path, got, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".credentials-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	// A second host keeps the first.
	if _, _, err := s.Save("github.com", "bob", secret+"2"); err != nil {
		t.Fatal(err)
	}
	tok, loc, err := s.Load("ghe.example.com")
	checkLoad(t, "Load of the first host", tok, loc, err, secret, credentials.InFile)
	if got := s.FileHosts(); strings.Join(got, ",") != "ghe.example.com,github.com" {
		t.Errorf("FileHosts = %v, want both hosts", got)
	}
	removed, err := s.Delete("ghe.example.com")
	wantRemoved(t, removed, err, credentials.InFile)
	if _, _, err := s.Load("ghe.example.com"); !errors.Is(err, credentials.ErrNotFound) {
		t.Errorf("Load after Delete: err = %v, want ErrNotFound", err)
	}
	if tok, _, err := s.Load("github.com"); err != nil {
		t.Errorf("Load of the other host after Delete: %v, want its entry kept", err)
	} else if tok != secret+"2" {
		t.Errorf("Load of the other host after Delete: token differs from the one saved")
	}
	if fi, err := os.Stat(s.File); err != nil {
		t.Errorf("rewritten file: %v", err)
	} else if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("rewritten file mode %o, want 600", perm)
	}
}

// With a keyring (go-keyring's mock) the token goes there, under service
// ghgate:HOST, and no file is written; an entry the file held from before
// is removed, so a host has one.
func TestStoreUsesKeyring(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ghgate", "credentials.toml")
	host := "keyring.example.com"
	old := credentials.Store{Keyring: noKeyring{}, File: file}
	if _, _, err := old.Save(host, "alice", "gho_OLD"); err != nil {
		t.Fatal(err)
	}
	s := credentials.Store{Keyring: credentials.System, File: file}
	loc, note, err := s.Save(host, "alice", secret)
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	if note != "" {
		t.Fatalf("Save note = %q, want none", note)
	}
	if loc.Kind != credentials.InKeyring {
		t.Errorf("location kind = %s, want %s", loc.Kind, credentials.InKeyring)
	}
	if loc.Where != "ghgate:"+host {
		t.Errorf("location = %s, want the keyring service ghgate:%s", loc.Where, host)
	}
	if got, err := keyring.Get("ghgate:"+host, ""); err != nil {
		t.Errorf("go-keyring Get ghgate:%s: %v", host, err)
	} else if got != secret {
		t.Errorf("go-keyring's token under ghgate:%s differs from the one saved", host)
	}
	if got := s.FileHosts(); len(got) != 0 {
		t.Errorf("file still lists %v after the keyring took the token", got)
	}
	tok, loc, err := s.Load(host)
	checkLoad(t, "Load", tok, loc, err, secret, credentials.InKeyring)
	removed, err := s.Delete(host)
	wantRemoved(t, removed, err, credentials.InKeyring)
	if _, err := keyring.Get("ghgate:"+host, ""); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("keyring entry still there after Delete: %v", err)
	}
}

// hosts.yml as gh 2.x writes it: the active user per host, the token
// inline only with insecure storage.
func TestGHReadsHostsYAMLAndKeyring(t *testing.T) {
	dir := t.TempDir()
	hostsYML := `github.com:
    users:
        monalisa:
            oauth_token: gho_FROMYAML
    git_protocol: https
    oauth_token: gho_FROMYAML
    user: monalisa
ghe.example.com:
    users:
        hubot: {}
    git_protocol: ssh
    user: hubot
`
	if err := os.WriteFile(filepath.Join(dir, "hosts.yml"), []byte(hostsYML), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := keyring.Set("gh:ghe.example.com", "hubot", "gho_FROMGHKEYRING"); err != nil {
		t.Fatal(err)
	}
	gh := credentials.GH{Dir: dir, Keyring: credentials.System}
	tok, loc, err := gh.Load("github.com")
	if err != nil {
		t.Errorf("github.com: %v", err)
	} else {
		if tok != "gho_FROMYAML" {
			t.Errorf("github.com: token %q, want hosts.yml's oauth_token %q", tok, "gho_FROMYAML")
		}
		if loc.Kind != credentials.InGHHosts {
			t.Errorf("github.com: location kind = %s, want %s", loc.Kind, credentials.InGHHosts)
		}
	}
	tok, loc, err = gh.Load("GHE.example.com")
	if err != nil {
		t.Errorf("ghe.example.com: %v", err)
	} else {
		if tok != "gho_FROMGHKEYRING" {
			t.Errorf("ghe.example.com: token %q, want the keyring entry's %q for hubot", tok, "gho_FROMGHKEYRING")
		}
		if loc.Where != "gh:ghe.example.com" {
			t.Errorf("ghe.example.com: location = %s, want the keyring entry gh:ghe.example.com", loc.Where)
		}
	}
	if _, _, err := gh.Load("other.example.com"); !errors.Is(err, credentials.ErrNotFound) {
		t.Errorf("a host gh does not know: err = %v, want ErrNotFound", err)
	}
	// The unkeyed slot older gh versions wrote is read too.
	if err := keyring.Set("gh:old.example.com", "", "gho_UNKEYED"); err != nil {
		t.Fatal(err)
	}
	if tok, _, _ := gh.Load("old.example.com"); tok != "gho_UNKEYED" {
		t.Errorf("old.example.com: %q, want the unkeyed keyring slot", tok)
	}
	// A broken hosts.yml is reported without quoting it.
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "hosts.yml"), []byte("github.com: [gho_LEAKED\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := (credentials.GH{Dir: bad}).Load("github.com"); err == nil {
		t.Errorf("broken hosts.yml: err = nil, want an error")
	} else if strings.Contains(err.Error(), "gho_LEAKED") {
		t.Errorf("broken hosts.yml: err = %v, want one that does not quote the file", err)
	}
}

func TestGHConfigDir(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GH_CONFIG_DIR": "/g", "XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/g"},
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/gh"},
		{map[string]string{"HOME": "/h"}, "/h/.config/gh"},
		{map[string]string{}, ""},
	} {
		if got := credentials.GHConfigDir(env(tc.env)); got != tc.want {
			t.Errorf("GHConfigDir(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

// Stored takes ghgate's own entry before gh's, and gh's when ghgate has
// none.
func TestStoredPrefersGhgatesOwn(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	getenv := func(k string) string {
		return map[string]string{"HOME": home, "GH_CONFIG_DIR": filepath.Join(home, "gh")}[k]
	}
	host := "stored.example.com"
	if err := os.MkdirAll(filepath.Join(home, "gh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "gh", "hosts.yml"), []byte(host+":\n    oauth_token: gho_GH\n    user: a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tok, loc, problems := credentials.Stored(host, getenv, noKeyring{})
	if tok != "gho_GH" {
		t.Errorf("gh only: token %q, want gh's hosts.yml's %q", tok, "gho_GH")
	}
	if loc.Kind != credentials.InGHHosts {
		t.Errorf("gh only: location kind = %s, want %s", loc.Kind, credentials.InGHHosts)
	}
	if len(problems) != 0 {
		t.Errorf("gh only: problems %v, want none", problems)
	}
	if _, _, err := (credentials.Store{Keyring: noKeyring{}, File: credentials.DefaultFile(getenv)}).Save(host, "a", "gho_OWN"); err != nil {
		t.Fatal(err)
	}
	tok, loc, _ = credentials.Stored(host, getenv, noKeyring{})
	if tok != "gho_OWN" {
		t.Errorf("both: token %q, want ghgate's file's %q first", tok, "gho_OWN")
	}
	if loc.Kind != credentials.InFile {
		t.Errorf("both: location kind = %s, want %s first", loc.Kind, credentials.InFile)
	}
	if want := filepath.Join(home, ".config", "ghgate", "credentials.toml"); loc.Where != want {
		t.Errorf("file = %s, want %s", loc.Where, want)
	}
}
