package doctor

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// withSyncRoot configures sync_root at rel in the world's broker config
// and, unless mode is 0, makes it a directory with mode and owner o.
func (w *world) withSyncRoot(t *testing.T, rel string, mode fs.FileMode, o owner) {
	t.Helper()
	if mode != 0 {
		if err := os.MkdirAll(w.path(rel), 0o700); err != nil {
			t.Fatal(err)
		}
		w.chmod(t, rel, mode)
		w.owners[rel] = o
	}
	body := w.cfgBody + fmt.Sprintf("[tools]\nsync_root = %q\n", w.path(rel))
	w.write(t, "etc/ghgate/broker.toml", body, 0o640, owner{0, gidSvc})
}

// The sync root gate fails a sync_root, or a directory above it, that
// anyone but root and the service user can change: an agent could plant
// mirror files another agent then reads as issues.
func TestSyncRootGate(t *testing.T) {
	svc := owner{uidSvc, gidSvc}
	cases := []struct {
		name   string
		mutate func(t *testing.T, w *world)
		want   Verdict
		says   string
	}{
		{name: "the service user's own 0700 directory passes", want: Pass, says: "0700",
			mutate: func(t *testing.T, w *world) { w.withSyncRoot(t, "srv/mirrors", 0o700, svc) }},
		{name: "world-writable with the sticky bit", want: Fail, says: "1777",
			mutate: func(t *testing.T, w *world) { w.withSyncRoot(t, "srv/mirrors", fs.ModeSticky|0o777, svc) }},
		{name: "writable by the service user's group", want: Fail, says: "group or others",
			mutate: func(t *testing.T, w *world) { w.withSyncRoot(t, "srv/mirrors", 0o770, svc) }},
		{name: "owned by the agent", want: Fail, says: "owned by neither root nor ghgate",
			mutate: func(t *testing.T, w *world) { w.withSyncRoot(t, "srv/mirrors", 0o700, owner{uidAgent, gidAgent}) }},
		{name: "a group-writable directory above it", want: Fail, says: "a directory above sync_root",
			mutate: func(t *testing.T, w *world) {
				w.withSyncRoot(t, "srv/shared/mirrors", 0o700, svc)
				w.chmod(t, "srv/shared", 0o775)
				w.owners["srv/shared"] = owner{0, gidAgent}
			}},
		{name: "a sticky world-writable directory above it passes", want: Pass, says: "below directories",
			mutate: func(t *testing.T, w *world) {
				w.withSyncRoot(t, "tmp/mirrors", 0o700, svc)
				w.chmod(t, "tmp", fs.ModeSticky|0o777)
			}},
		{name: "an agent's directory above it", want: Fail, says: "owned by agent",
			mutate: func(t *testing.T, w *world) {
				w.withSyncRoot(t, "home/agent/mirrors", 0o700, svc)
				w.owners["home/agent"] = owner{uidAgent, gidAgent}
			}},
		{name: "missing", want: Fail, says: "does not exist",
			mutate: func(t *testing.T, w *world) { w.withSyncRoot(t, "srv/mirrors", 0, svc) }},
		{name: "a symbolic link", want: Fail, says: "symbolic link",
			mutate: func(t *testing.T, w *world) {
				w.withSyncRoot(t, "srv/real", 0o700, svc)
				if err := os.Symlink(w.path("srv/real"), w.path("srv/mirrors")); err != nil {
					t.Fatal(err)
				}
				w.withSyncRoot(t, "srv/mirrors", 0, svc)
			}},
		{name: "root's 0755 directory: safe, but the broker cannot write it", want: Warn, says: "cannot write",
			mutate: func(t *testing.T, w *world) { w.withSyncRoot(t, "srv/mirrors", 0o755, owner{0, 0}) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			tc.mutate(t, w)
			gates := Run(w.env, w.opts)
			var gate *Gate
			for i := range gates {
				if gates[i].Name == "sync root" {
					gate = &gates[i]
				}
			}
			if gate == nil {
				t.Fatalf("no sync root gate in %v", gates)
			}
			if gate.Verdict != tc.want {
				t.Errorf("verdict = %s (%s), want %s", gate.Verdict, gate.Reason, tc.want)
			}
			if !strings.Contains(gate.Reason, tc.says) {
				t.Errorf("reason = %q, want it to say %q", gate.Reason, tc.says)
			}
			want := 0
			if tc.want == Fail {
				want = 1
			}
			if n := Failed(gates); n != want {
				t.Errorf("Failed = %d, want %d: %v", n, want, gates)
			}
		})
	}
}

// Without sync_root there is nothing to check, and no gate.
func TestNoSyncRootGateWithoutSyncRoot(t *testing.T) {
	w := newWorld(t)
	for _, g := range Run(w.env, w.opts) {
		if g.Name == "sync root" {
			t.Errorf("gate %q reported without sync_root: %s %s", g.Name, g.Verdict, g.Reason)
		}
	}
}
