package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/store"
)

// The fake world: root, the service user, an agent, a bystander, and the
// groups between them.
const (
	gidRoot    = 0
	uidSvc     = 900
	gidSvc     = 900
	gidBridge  = 901
	uidAgent   = 1000
	gidAgent   = 1000
	gidDocker  = 999
	uidOther   = 1001
	canaryText = "ghp_doctorCanary0123456789abcdef"
)

type fakeAccounts struct {
	users  map[string]*User
	groups map[string]*Group
}

func (f *fakeAccounts) User(name string) (*User, error) {
	if u, ok := f.users[name]; ok {
		return u, nil
	}
	return nil, fmt.Errorf("user %s: %w", name, ErrNotFound)
}

func (f *fakeAccounts) UserByID(uid uint32) (*User, error) {
	for _, u := range f.users {
		if u.UID == uid {
			return u, nil
		}
	}
	return nil, ErrNotFound
}

func (f *fakeAccounts) Group(name string) (*Group, error) {
	if g, ok := f.groups[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("group %s: %w", name, ErrNotFound)
}

func (f *fakeAccounts) GroupByID(gid uint32) (*Group, error) {
	for _, g := range f.groups {
		if g.GID == gid {
			return g, nil
		}
	}
	return nil, ErrNotFound
}

func newAccounts() *fakeAccounts {
	return &fakeAccounts{
		users: map[string]*User{
			"root":   {Name: "root", UID: 0, GID: gidRoot, Groups: []uint32{gidRoot}},
			"ghgate": {Name: "ghgate", UID: uidSvc, GID: gidSvc, Groups: []uint32{gidSvc, gidBridge}},
			"agent":  {Name: "agent", UID: uidAgent, GID: gidAgent, Groups: []uint32{gidAgent, gidBridge}},
			"other":  {Name: "other", UID: uidOther, GID: uidOther, Groups: []uint32{uidOther}},
		},
		groups: map[string]*Group{
			"root":           {Name: "root", GID: gidRoot},
			"ghgate":         {Name: "ghgate", GID: gidSvc},
			"ghgate-clients": {Name: "ghgate-clients", GID: gidBridge},
			"agent":          {Name: "agent", GID: gidAgent},
			"docker":         {Name: "docker", GID: gidDocker},
			"sudo":           {Name: "sudo", GID: 27},
		},
	}
}

type owner struct{ uid, gid uint32 }

// world is a deployment laid out in a temp dir, with owners faked (the
// test need not be root) and modes real.
type world struct {
	root     string
	realRoot string // root with symbolic links resolved
	accounts *fakeAccounts
	owners   map[string]owner // by path relative to root
	acl      map[string]bool
	env      Env
	opts     Options
	cfgBody  string
}

func (w *world) path(rel string) string { return filepath.Join(w.root, rel) }

func (w *world) write(t *testing.T, rel, body string, mode fs.FileMode, o owner) {
	t.Helper()
	p := w.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	w.chmod(t, rel, mode)
	w.owners[rel] = o
}

func (w *world) chmod(t *testing.T, rel string, mode fs.FileMode) {
	t.Helper()
	if err := os.Chmod(w.path(rel), mode); err != nil {
		t.Fatal(err)
	}
}

// newWorld is a deployment that passes every gate.
func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{root: t.TempDir(), accounts: newAccounts(), owners: map[string]owner{}, acl: map[string]bool{}}
	var err error
	if w.realRoot, err = filepath.EvalSymlinks(w.root); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		rel  string
		mode fs.FileMode
		o    owner
	}{
		{"etc/ghgate", 0o750, owner{0, gidSvc}},
		{"etc/credstore", 0o700, owner{0, 0}},
		{"etc/sudoers.d", 0o750, owner{0, 0}},
		{"run/ghgate", 0o755, owner{uidSvc, gidSvc}},
	} {
		if err := os.MkdirAll(w.path(d.rel), 0o755); err != nil {
			t.Fatal(err)
		}
		w.chmod(t, d.rel, d.mode)
		w.owners[d.rel] = d.o
	}
	w.write(t, "etc/ghgate/secrets.toml", fmt.Sprintf("acme-read = %q\nacme-write = %q\n", canaryText, canaryText+"w"), 0o640, owner{0, gidSvc})
	w.writeState(t)
	w.cfgBody = fmt.Sprintf(`state = %q
[listen]
socket = %q
group = "ghgate-clients"
[github]
url = "http://127.0.0.1:1"
[secrets]
file = %q
[[route]]
owner = "acme"
read = "acme-read"
write = "acme-write"
`, w.path(stateRel), w.path("run/ghgate/ghgate.sock"), w.path("etc/ghgate/secrets.toml"))
	w.write(t, "etc/ghgate/broker.toml", w.cfgBody, 0o640, owner{0, gidSvc})
	w.write(t, "etc/sudoers", "root ALL=(ALL:ALL) ALL\n%sudo ALL=(ALL:ALL) ALL\n# agent ALL=(ALL) NOPASSWD: ALL\n@includedir /etc/sudoers.d\n", 0o440, owner{0, 0})
	w.listen(t, "run/ghgate/ghgate.sock", owner{uidSvc, gidBridge})

	w.env = Env{
		Accounts:      w.accounts,
		Stat:          w.stat,
		Lstat:         w.lstat,
		ReadFile:      os.ReadFile,
		Glob:          filepath.Glob,
		LoadConfig:    broker.LoadConfig,
		InspectState:  inspectState,
		SudoersFile:   w.path("etc/sudoers"),
		SudoersDir:    w.path("etc/sudoers.d"),
		CredStores:    []string{w.path("etc/credstore")},
		DockerSockets: []string{w.path("run/docker.sock")},
	}
	w.opts = Options{ConfigPath: w.path("etc/ghgate/broker.toml"), ServiceUser: "ghgate", AgentUser: "agent"}
	return w
}

// stateRel is the broker's state database in the world.
const stateRel = "var/lib/ghgate/state.db"

// writeState makes the state database a broker leaves: two cached
// responses and one idempotency key.
func (w *world) writeState(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, w.path(stateRel))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cred := s.CredentialKey(canaryText)
	for _, u := range []string{"https://api.github.com/repos/acme/widgets", "https://api.github.com/repos/acme/widgets/issues"} {
		if err := s.PutETag(ctx, store.ETagKey{Credential: cred, URL: u}, store.CachedResponse{ETag: `"e"`, Status: 200, Body: []byte(`{"n":1}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Reserve(ctx, store.IdempotencyScope{Credential: cred, Repo: "acme/widgets", Tool: "github_create_issue"}, "k", "fp"); err != nil {
		t.Fatal(err)
	}
	w.owners[stateRel] = owner{uidSvc, gidSvc}
}

// listen puts a 0660 socket owned by o at rel.
func (w *world) listen(t *testing.T, rel string, o owner) {
	t.Helper()
	ln, err := net.Listen("unix", w.path(rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	w.chmod(t, rel, 0o660)
	w.owners[rel] = o
}

// stat reports real types and modes with the faked owners, those of the
// file a symbolic link leads to. Paths outside the world (the temp dir's
// parents) look like searchable root directories.
func (w *world) stat(path string) (FileInfo, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		if rel, err := filepath.Rel(w.realRoot, real); err == nil {
			path = filepath.Join(w.root, rel)
		}
	}
	return w.info(path, os.Stat)
}

// lstat is stat of a symbolic link itself.
func (w *world) lstat(path string) (FileInfo, error) { return w.info(path, os.Lstat) }

func (w *world) info(path string, stat func(string) (os.FileInfo, error)) (FileInfo, error) {
	rel, err := filepath.Rel(w.root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || rel == "." {
		return FileInfo{Mode: fs.ModeDir | 0o755}, nil
	}
	st, err := stat(path)
	if err != nil {
		return FileInfo{}, err
	}
	o := w.owners[rel] // unset: root:root
	return FileInfo{Mode: st.Mode(), UID: o.uid, GID: o.gid, ACL: w.acl[rel]}, nil
}

func TestGates(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(t *testing.T, w *world)
		// want lists the gates that do not pass; every other gate must.
		want map[string]Verdict
	}{
		{name: "a sound deployment passes every gate", mutate: func(*testing.T, *world) {}},
		{
			// /etc/ghgate (0750 root:ghgate) still keeps the agent out.
			name:   "secrets readable by others",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "etc/ghgate/secrets.toml", 0o644) },
			want:   map[string]Verdict{"secrets file": Fail, "agent cannot read secrets": Warn},
		},
		{
			name: "secrets given to the bridge group",
			mutate: func(t *testing.T, w *world) {
				w.owners["etc/ghgate/secrets.toml"] = owner{0, gidBridge}
			},
			want: map[string]Verdict{"secrets file": Fail, "agent cannot read secrets": Warn},
		},
		{
			name: "secrets owned by the agent",
			mutate: func(t *testing.T, w *world) {
				w.owners["etc/ghgate/secrets.toml"] = owner{uidAgent, gidSvc}
			},
			want: map[string]Verdict{"secrets file": Fail, "agent cannot read secrets": Warn},
		},
		{
			name: "secrets 0600 owned by the service user",
			mutate: func(t *testing.T, w *world) {
				w.chmod(t, "etc/ghgate/secrets.toml", 0o600)
				w.owners["etc/ghgate/secrets.toml"] = owner{uidSvc, gidSvc}
			},
		},
		{
			name: "secrets 0600 root:root: the broker cannot read them",
			mutate: func(t *testing.T, w *world) {
				w.chmod(t, "etc/ghgate/secrets.toml", 0o600)
				w.owners["etc/ghgate/secrets.toml"] = owner{0, 0}
			},
			want: map[string]Verdict{"secrets file": Fail},
		},
		{
			name:   "secrets group-writable",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "etc/ghgate/secrets.toml", 0o660) },
			want:   map[string]Verdict{"secrets file": Fail},
		},
		{
			name:   "secrets carry an ACL",
			mutate: func(t *testing.T, w *world) { w.acl["etc/ghgate/secrets.toml"] = true },
			want:   map[string]Verdict{"secrets file": Warn, "agent cannot read secrets": Warn},
		},
		{
			name: "secrets and their directory open to others",
			mutate: func(t *testing.T, w *world) {
				w.chmod(t, "etc/ghgate/secrets.toml", 0o644)
				w.chmod(t, "etc/ghgate", 0o755)
			},
			want: map[string]Verdict{"secrets file": Fail, "agent cannot read secrets": Fail},
		},
		{
			name: "secrets directory writable by its group",
			mutate: func(t *testing.T, w *world) {
				w.chmod(t, "etc/ghgate", 0o770)
			},
			want: map[string]Verdict{"secrets directory": Fail},
		},
		{
			name:   "secrets file missing",
			mutate: func(t *testing.T, w *world) { os.Remove(w.path("etc/ghgate/secrets.toml")) },
			want:   map[string]Verdict{"secrets file": Fail, "route secrets": Fail, "agent cannot read secrets": Warn},
		},
		{
			name: "a route names a secret that is nowhere",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/ghgate/secrets.toml", fmt.Sprintf("acme-read = %q\n", canaryText), 0o640, owner{0, gidSvc})
			},
			want: map[string]Verdict{"route secrets": Fail},
		},
		{
			name: "a secret found in the credential store",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/ghgate/secrets.toml", fmt.Sprintf("acme-read = %q\n", canaryText), 0o640, owner{0, gidSvc})
				w.write(t, "etc/credstore/acme-write", canaryText, 0o600, owner{0, 0})
			},
		},
		{
			name: "a secrets file that does not parse names a line, not its text",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/ghgate/secrets.toml", "acme-read = \"ok\"\n"+canaryText+" garbage\n", 0o640, owner{0, gidSvc})
			},
			want: map[string]Verdict{"route secrets": Fail},
		},
		{
			name:   "config owned by the agent",
			mutate: func(t *testing.T, w *world) { w.owners["etc/ghgate/broker.toml"] = owner{uidAgent, gidAgent} },
			want:   map[string]Verdict{"config file": Fail},
		},
		{
			name:   "config writable by its group",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "etc/ghgate/broker.toml", 0o664) },
			want:   map[string]Verdict{"config file": Fail},
		},
		{
			name: "config unreadable by the service",
			mutate: func(t *testing.T, w *world) {
				w.chmod(t, "etc/ghgate/broker.toml", 0o600)
			},
			want: map[string]Verdict{"config file": Fail},
		},
		{
			name:   "config missing",
			mutate: func(t *testing.T, w *world) { os.Remove(w.path("etc/ghgate/broker.toml")) },
			want: map[string]Verdict{"config": Fail, "config file": Fail, "bridge group": Warn, "secrets file": Warn,
				"agent in bridge group": Fail, "agent can reach socket": Fail, "agent cannot read secrets": Pass,
				"state database": Warn},
		},
		{
			// The broker creates it on its first start.
			name:   "state database missing",
			mutate: func(t *testing.T, w *world) { os.Remove(w.path(stateRel)) },
			want:   map[string]Verdict{"state database": Warn},
		},
		{
			name: "state database unreadable",
			mutate: func(t *testing.T, w *world) {
				w.write(t, stateRel, strings.Repeat("not a database ", 100), 0o600, owner{uidSvc, gidSvc})
			},
			want: map[string]Verdict{"state database": Warn},
		},
		{
			name: "state database too private for this user",
			mutate: func(t *testing.T, w *world) {
				w.env.InspectState = func(path string) (store.Stats, error) {
					return store.Stats{}, &fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission}
				}
			},
			want: map[string]Verdict{"state database": Warn},
		},
		{
			name: "no state file: state lives in memory",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/ghgate/broker.toml", strings.Replace(w.cfgBody, fmt.Sprintf("state = %q\n", w.path(stateRel)), "", 1), 0o640, owner{0, gidSvc})
			},
			want: map[string]Verdict{"state database": Warn},
		},
		{
			// Size alone never fails a deployment: the store bounds itself.
			name: "a large state database passes",
			mutate: func(t *testing.T, w *world) {
				w.env.InspectState = func(string) (store.Stats, error) {
					return store.Stats{FileBytes: 5 << 30, ETags: 1e6, ETagBodyBytes: 4 << 30, IdempotencyKeys: 1e6}, nil
				}
			},
		},
		{
			name:   "socket open to others",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run/ghgate/ghgate.sock", 0o666) },
			want:   map[string]Verdict{"socket": Fail},
		},
		{
			name:   "socket in the service user's group",
			mutate: func(t *testing.T, w *world) { w.owners["run/ghgate/ghgate.sock"] = owner{uidSvc, gidSvc} },
			want:   map[string]Verdict{"socket": Fail, "agent can reach socket": Fail},
		},
		{
			name:   "socket owner-only",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run/ghgate/ghgate.sock", 0o600) },
			want:   map[string]Verdict{"socket": Warn, "agent can reach socket": Fail},
		},
		{
			name:   "socket owned by the agent",
			mutate: func(t *testing.T, w *world) { w.owners["run/ghgate/ghgate.sock"] = owner{uidAgent, gidBridge} },
			want:   map[string]Verdict{"socket": Fail},
		},
		{
			// The agent moved the broker's socket aside and linked the
			// path to its own listener, which it may well make 0660 in
			// the bridge group.
			name: "socket is a symlink to another listener",
			mutate: func(t *testing.T, w *world) {
				if err := os.Remove(w.path("run/ghgate/ghgate.sock")); err != nil {
					t.Fatal(err)
				}
				w.listen(t, "impostor.sock", owner{uidAgent, gidBridge})
				if err := os.Symlink(w.path("impostor.sock"), w.path("run/ghgate/ghgate.sock")); err != nil {
					t.Fatal(err)
				}
			},
			want: map[string]Verdict{"socket": Fail},
		},
		{
			name:   "socket directory writable by others",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run/ghgate", 0o777) },
			want:   map[string]Verdict{"socket": Fail},
		},
		{
			name:   "a directory above the socket's writable by others",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run", 0o777) },
			want:   map[string]Verdict{"socket": Fail},
		},
		{
			name:   "a directory above the socket's sticky and writable by all",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run", 0o777|fs.ModeSticky) },
			want:   map[string]Verdict{},
		},
		{
			name:   "socket directory writable by its group",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run/ghgate", 0o775) },
			want:   map[string]Verdict{"socket": Fail},
		},
		{
			name:   "socket directory sticky and writable by all",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run/ghgate", 0o777|fs.ModeSticky) },
			want:   map[string]Verdict{"socket": Fail},
		},
		{
			name:   "socket directory owned by the agent",
			mutate: func(t *testing.T, w *world) { w.owners["run/ghgate"] = owner{uidAgent, gidAgent} },
			want:   map[string]Verdict{"socket": Fail},
		},
		{
			name: "socket directory owned by root",
			mutate: func(t *testing.T, w *world) {
				w.owners["run/ghgate"] = owner{0, 0}
			},
		},
		{
			name: "socket directory is a symlink",
			mutate: func(t *testing.T, w *world) {
				if err := os.Rename(w.path("run/ghgate"), w.path("run/real")); err != nil {
					t.Fatal(err)
				}
				w.owners["run/real"] = w.owners["run/ghgate"]
				w.owners["run/real/ghgate.sock"] = w.owners["run/ghgate/ghgate.sock"]
				if err := os.Symlink("real", w.path("run/ghgate")); err != nil {
					t.Fatal(err)
				}
				w.owners["run/ghgate"] = owner{uidAgent, gidAgent}
			},
			want: map[string]Verdict{"socket": Fail},
		},
		{
			name:   "socket missing",
			mutate: func(t *testing.T, w *world) { os.Remove(w.path("run/ghgate/ghgate.sock")) },
			want:   map[string]Verdict{"socket": Warn, "agent can reach socket": Warn},
		},
		{
			name:   "socket directory closed to the agent",
			mutate: func(t *testing.T, w *world) { w.chmod(t, "run/ghgate", 0o750) },
			want:   map[string]Verdict{"agent can reach socket": Fail},
		},
		{
			name:   "bridge group missing",
			mutate: func(t *testing.T, w *world) { delete(w.accounts.groups, "ghgate-clients") },
			want:   map[string]Verdict{"bridge group": Fail, "agent in bridge group": Fail},
		},
		{
			name: "bridge group is the service user's own",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/ghgate/broker.toml", strings.Replace(w.cfgBody, `group = "ghgate-clients"`, `group = "ghgate"`, 1), 0o640, owner{0, gidSvc})
				w.owners["run/ghgate/ghgate.sock"] = owner{uidSvc, gidSvc}
			},
			want: map[string]Verdict{"bridge group": Fail, "agent in bridge group": Fail, "agent can reach socket": Fail},
		},
		{
			name: "service user not in the bridge group",
			mutate: func(t *testing.T, w *world) {
				w.accounts.users["ghgate"].Groups = []uint32{gidSvc}
			},
			want: map[string]Verdict{"bridge group": Warn},
		},
		{
			name:   "service user missing",
			mutate: func(t *testing.T, w *world) { delete(w.accounts.users, "ghgate") },
			// The socket and its directory belong to an unknown uid.
			want: map[string]Verdict{"service user": Fail, "secrets file": Fail, "socket": Fail, "agent not in service group": Fail},
		},
		{
			name:   "service user is root",
			mutate: func(t *testing.T, w *world) { w.opts.ServiceUser = "root" },
			// The socket is not root's.
			want: map[string]Verdict{"service user": Fail, "secrets file": Fail, "bridge group": Warn, "socket": Fail},
		},
		{
			name:   "agent missing",
			mutate: func(t *testing.T, w *world) { w.opts.AgentUser = "nobody-here" },
			want: map[string]Verdict{"agent user": Fail, "agent in bridge group": Fail, "agent not in service group": Fail,
				"agent cannot read secrets": Fail, "agent can reach socket": Fail, "agent without passwordless sudo": Fail,
				"agent without root-equivalent groups": Fail},
		},
		{
			name:   "agent is root",
			mutate: func(t *testing.T, w *world) { w.opts.AgentUser = "root" },
			want:   map[string]Verdict{"agent user": Fail, "agent in bridge group": Fail, "agent cannot read secrets": Fail},
		},
		{
			name:   "agent outside the bridge group",
			mutate: func(t *testing.T, w *world) { w.opts.AgentUser = "other" },
			want:   map[string]Verdict{"agent in bridge group": Fail, "agent can reach socket": Fail},
		},
		{
			name: "agent in the service user's group",
			mutate: func(t *testing.T, w *world) {
				w.accounts.users["agent"].Groups = append(w.accounts.users["agent"].Groups, gidSvc)
			},
			want: map[string]Verdict{"agent not in service group": Fail, "agent cannot read secrets": Fail},
		},
		{
			name: "agent in docker",
			mutate: func(t *testing.T, w *world) {
				w.accounts.users["agent"].Groups = append(w.accounts.users["agent"].Groups, gidDocker)
			},
			want: map[string]Verdict{"agent without root-equivalent groups": Fail},
		},
		{
			name:   "a Docker socket anyone can write",
			mutate: func(t *testing.T, w *world) { w.write(t, "run/docker.sock", "", 0o666, owner{0, gidDocker}) },
			want:   map[string]Verdict{"agent without root-equivalent groups": Fail},
		},
		{
			name:   "a Docker socket for its group only",
			mutate: func(t *testing.T, w *world) { w.write(t, "run/docker.sock", "", 0o660, owner{0, gidDocker}) },
		},
		{
			name: "sudoers: NOPASSWD for the agent",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/sudoers.d/agent", "agent ALL=(ALL) NOPASSWD: ALL\n", 0o440, owner{0, 0})
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
		{
			name: "sudoers: NOPASSWD for one of the agent's groups, continued line",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/sudoers.d/bridge", "%ghgate-clients, %nobody \\\n  ALL = (root) NOPASSWD: /usr/bin/apt\n", 0o440, owner{0, 0})
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
		{
			name: "sudoers: NOPASSWD through a User_Alias",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/sudoers.d/alias", "User_Alias BOTS = someone, agent\nBOTS ALL=(ALL) NOPASSWD: ALL\n", 0o440, owner{0, 0})
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
		{
			name: "sudoers: NOPASSWD by uid",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/sudoers.d/uid", "#1000 ALL=(ALL) NOPASSWD: ALL # the agent\n", 0o440, owner{0, 0})
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
		{
			name: "sudoers: NOPASSWD for ALL users",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/sudoers.d/all", "ALL ALL=(ALL) NOPASSWD: /bin/true\n", 0o440, owner{0, 0})
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
		{
			name: "sudoers: rules for others, a password rule for the agent, a skipped file",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/sudoers.d/ops", "bob ALL=(ALL) NOPASSWD: ALL\n%docker ALL=(ALL) NOPASSWD: ALL\nagent ALL=(ALL) ALL\n", 0o440, owner{0, 0})
				w.write(t, "etc/sudoers.d/agent.disabled", "agent ALL=(ALL) NOPASSWD: ALL\n", 0o440, owner{0, 0})
			},
		},
		{
			name: "sudoers: Defaults !authenticate",
			mutate: func(t *testing.T, w *world) {
				w.write(t, "etc/sudoers.d/noauth", "Defaults !authenticate\nagent ALL=(ALL) ALL\n", 0o440, owner{0, 0})
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
		{
			name: "sudoers unreadable",
			mutate: func(t *testing.T, w *world) {
				w.env.ReadFile = func(p string) ([]byte, error) {
					if strings.HasPrefix(p, w.path("etc/sudoers")) {
						return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}
					}
					return os.ReadFile(p)
				}
			},
			want: map[string]Verdict{"agent without passwordless sudo": Warn},
		},
		{
			name: "sudo -l: not allowed",
			mutate: func(t *testing.T, w *world) {
				w.env.SudoList = func(string) (string, error) {
					return "User agent is not allowed to run sudo on host.\n", errors.New("exit status 1")
				}
			},
		},
		{
			name: "sudo -l: a NOPASSWD rule",
			mutate: func(t *testing.T, w *world) {
				w.env.SudoList = func(string) (string, error) {
					return "Matching Defaults entries for agent on host:\n    env_reset\n\nUser agent may run the following commands on host:\n    (ALL : ALL) ALL\n    (root) NOPASSWD: /usr/bin/apt\n", nil
				}
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
		{
			name: "sudo -l: password rules only",
			mutate: func(t *testing.T, w *world) {
				w.env.SudoList = func(string) (string, error) {
					return "User agent may run the following commands on host:\n    (ALL : ALL) ALL\n", nil
				}
			},
		},
		{
			name: "sudo -l fails: the files decide",
			mutate: func(t *testing.T, w *world) {
				w.env.SudoList = func(string) (string, error) { return "sudo: a password is required\n", errors.New("exit status 1") }
				w.write(t, "etc/sudoers.d/agent", "agent ALL=(ALL) NOPASSWD: ALL\n", 0o440, owner{0, 0})
			},
			want: map[string]Verdict{"agent without passwordless sudo": Fail},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			tc.mutate(t, w)
			gates := Run(w.env, w.opts)
			seen := map[string]bool{}
			for _, g := range gates {
				seen[g.Name] = true
				want, ok := tc.want[g.Name]
				if !ok {
					want = Pass
				}
				if g.Verdict != want {
					t.Errorf("%s: %s (%s), want %s", g.Name, g.Verdict, g.Reason, want)
				}
				for _, piece := range []string{canaryText[:12], canaryText[len(canaryText)-12:]} {
					if strings.Contains(g.Reason, piece) {
						t.Errorf("%s: the reason %q quotes %q of a secret, want none of it", g.Name, g.Reason, piece)
					}
				}
				if g.Reason == "" {
					t.Errorf("%s: no reason", g.Name)
				}
			}
			for name := range tc.want {
				if !seen[name] {
					t.Errorf("gate %q was not reported, want it among %v", name, gates)
				}
			}
			if n, want := Failed(gates), countFail(tc.want); n != want {
				t.Errorf("Failed = %d, want %d", n, want)
			}
		})
	}
}

func countFail(m map[string]Verdict) int {
	n := 0
	for _, v := range m {
		if v == Fail {
			n++
		}
	}
	return n
}

// The state gate reports the file's size and what it holds.
func TestStateGateReportsSizeAndRows(t *testing.T) {
	w := newWorld(t)
	var gate *Gate
	gates := Run(w.env, w.opts)
	for i := range gates {
		if gates[i].Name == "state database" {
			gate = &gates[i]
		}
	}
	if gate == nil {
		t.Fatalf("no state database gate in %v", gates)
	}
	if gate.Verdict != Pass {
		t.Fatalf("state database: verdict %s (%s), want %s", gate.Verdict, gate.Reason, Pass)
	}
	for _, want := range []string{w.path(stateRel), "KiB", "2 cached responses (14 B)", "1 idempotency key"} {
		if !strings.Contains(gate.Reason, want) {
			t.Errorf("reason %q lacks %q", gate.Reason, want)
		}
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 64 << 20: "64.0 MiB", 5 << 30: "5.0 GiB"} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// Without --agent-user only the deployment's own gates run.
func TestNoAgentGatesWithoutAgent(t *testing.T) {
	w := newWorld(t)
	w.opts.AgentUser = ""
	for _, g := range Run(w.env, w.opts) {
		if strings.HasPrefix(g.Name, "agent") {
			t.Errorf("agent gate %q ran without an agent", g.Name)
		}
		if g.Verdict != Pass {
			t.Errorf("%s: verdict %s (%s), want %s", g.Name, g.Verdict, g.Reason, Pass)
		}
	}
}

func TestMayAccess(t *testing.T) {
	agent := &User{Name: "agent", UID: uidAgent, GID: gidAgent, Groups: []uint32{gidAgent, gidBridge}}
	cases := []struct {
		mode     fs.FileMode
		uid, gid uint32
		want     uint32
		ok       bool
	}{
		{0o600, uidAgent, 0, accRead, true},
		{0o060, uidAgent, gidBridge, accRead, false}, // the owner class applies, even if narrower
		{0o640, 0, gidBridge, accRead, true},
		{0o640, 0, gidBridge, accWrite, false},
		{0o604, 0, gidBridge, accRead, false}, // the group class applies, not other
		{0o604, 0, gidSvc, accRead, true},
		{0o660, 0, gidBridge, accRead | accWrite, true},
		{0o666, 0, gidSvc, accRead | accWrite, true},
	}
	for _, c := range cases {
		got := mayAccess(FileInfo{Mode: c.mode, UID: c.uid, GID: c.gid}, agent, c.want)
		if got != c.ok {
			t.Errorf("mode %04o %d:%d want %d: got %v", c.mode, c.uid, c.gid, c.want, got)
		}
	}
	if !mayAccess(FileInfo{Mode: 0}, &User{UID: 0}, accRead) {
		t.Error("root is refused")
	}
}

func TestStripComment(t *testing.T) {
	for in, want := range map[string]string{
		"# agent ALL=(ALL) NOPASSWD: ALL": "",
		"#includedir /etc/sudoers.d":      "#includedir /etc/sudoers.d",
		"#1000 ALL=(ALL) ALL # note":      "#1000 ALL=(ALL) ALL ",
		"%#1000 ALL=(ALL) ALL":            "%#1000 ALL=(ALL) ALL",
		"bob ALL=(ALL) ALL":               "bob ALL=(ALL) ALL",
	} {
		if got := stripComment(in); got != want {
			t.Errorf("stripComment(%q) = %q, want %q", in, got, want)
		}
	}
}
