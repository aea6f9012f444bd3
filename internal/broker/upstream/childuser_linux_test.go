package upstream

import (
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/tooldef"
)

// nobody is an unprivileged account present on most Linux systems; tests
// that need a real user other than the current one skip without it.
func nobody(t *testing.T) *user.User {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("SKIPPED: no user nobody: %v", err)
	}
	if u.Uid == strconv.Itoa(os.Getuid()) {
		t.Skip("SKIPPED: the tests run as nobody")
	}
	return u
}

func TestCheckUsers(t *testing.T) {
	ok := []Allowed{{Tool: "t", Mode: tooldef.Read}, {Tool: "w", Mode: tooldef.Write}}
	cmd := []string{"x"}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Name: "a", Command: cmd, TokenEnv: "T", Allow: ok, WriteUser: "nobody"}, "write_user needs user"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: ok, User: "nobody"}, "for a command upstream"},
		{Config{Name: "a", Command: cmd, TokenEnv: "T", Allow: ok, User: "root"}, `user "root" is root`},
		{Config{Name: "a", Command: cmd, TokenEnv: "T", Allow: ok, User: "nobody", WriteUser: "ghgate-no-such-user"}, `"ghgate-no-such-user"`},
	} {
		err := c.cfg.check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.cfg, err, c.want)
		}
	}
	if me, err := user.Current(); err == nil && me.Uid != "0" {
		cfg := Config{Name: "a", Command: cmd, TokenEnv: "T", Allow: ok, User: me.Username}
		if err := cfg.check(); err == nil || !strings.Contains(err.Error(), "the broker's own user") {
			t.Errorf("user %s (the current one): error = %v, want one saying %q", me.Username, err, "the broker's own user")
		}
	}
	if os.Geteuid() != 0 {
		// Without CAP_SETUID and CAP_SETGID (as a test user usually is).
		cfg := Config{Name: "a", Command: cmd, TokenEnv: "T", Allow: ok, User: "nobody"}
		if err := cfg.check(); err == nil || !strings.Contains(err.Error(), "cannot switch users") {
			t.Errorf("without the capabilities: error = %v, want one saying %q", err, "cannot switch users")
		}
	}
}

func TestCheckUsersSecretsFile(t *testing.T) {
	nobody(t)
	secrets := filepath.Join(t.TempDir(), "secrets.toml")
	if err := os.WriteFile(secrets, []byte("a = \"b\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The directory is not counted: the file's own mode must refuse.
	if err := os.Chmod(secrets, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := resolveChildUser("nobody", secrets); err == nil || !strings.Contains(err.Error(), "could read the secrets file") {
		t.Errorf("a secrets file others can read: error = %v, want one saying %q", err, "could read the secrets file")
	}
	if err := os.Chmod(secrets, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := resolveChildUser("nobody", filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a secrets file that cannot be checked is accepted")
	}
}

// A child for a configured user gets that user's credentials, no
// supplementary group, and a HOME of its own.
func TestChildTransportAsUser(t *testing.T) {
	nu := nobody(t)
	p := &Proxy{cfg: Config{Name: "a", Command: []string{"/bin/true"}, TokenEnv: "T", User: "nobody"},
		log: slog.New(slog.DiscardHandler), red: newRedactor(nil)}
	if _, err := resolveChildUser("nobody", ""); err != nil {
		t.Skipf("SKIPPED: nobody is not usable as a child user here: %v", err)
	}
	ct, err := p.childTransport(tooldef.Read, "tok")
	if err != nil {
		t.Fatal(err)
	}
	cred := ct.Command.SysProcAttr.Credential
	if cred == nil {
		t.Fatal("no credential, want nobody's")
	}
	if got := strconv.Itoa(int(cred.Uid)); got != nu.Uid {
		t.Fatalf("credential uid = %s, want nobody's %s", got, nu.Uid)
	}
	if got := strconv.Itoa(int(cred.Gid)); got != nu.Gid {
		t.Fatalf("credential gid = %s, want nobody's %s", got, nu.Gid)
	}
	if cred.Groups == nil {
		t.Fatal("credential groups = nil, want an empty (not nil) list")
	}
	if len(cred.Groups) != 0 {
		t.Fatalf("credential groups = %v, want none", cred.Groups)
	}
	if cred.NoSetGroups {
		t.Fatal("credential NoSetGroups = true, want false")
	}
	home := "/"
	if fi, err := os.Stat(nu.HomeDir); err == nil && fi.IsDir() {
		home = nu.HomeDir
	}
	for _, want := range []string{"HOME=" + home, "T=tok"} {
		if !slices.Contains(ct.Command.Env, want) {
			t.Fatalf("env = %v, want it to hold %s", ct.Command.Env, want)
		}
	}
	// The write child has no user of its own here: it runs as user.
	if got := p.cfg.userFor(tooldef.Write); got != "nobody" {
		t.Errorf("userFor(write) = %q, want user", got)
	}
	p.cfg.User = ""
	ct, err = p.childTransport(tooldef.Read, "tok")
	if err != nil {
		t.Fatal(err)
	}
	if ct.Command.SysProcAttr != nil {
		t.Errorf("without user the child switches to %+v", ct.Command.SysProcAttr.Credential)
	}
}
