package main

import (
	"strings"
	"testing"
)

// sync_root comes from the file or the flag (the flag wins) and must be
// absolute: a relative one would depend on where ghgate was started.
func TestServeSyncRoot(t *testing.T) {
	c, err := parseServe(t, nil, `sync_root = "/srv/mirrors"`, nil)
	if err != nil {
		t.Fatalf("from the file: %v", err)
	}
	if c.SyncRoot != "/srv/mirrors" {
		t.Errorf("from the file: SyncRoot = %q, want /srv/mirrors", c.SyncRoot)
	}
	c, err = parseServe(t, []string{"--sync-root", "/var/mirrors"}, `sync_root = "/srv/mirrors"`, nil)
	if err != nil {
		t.Fatalf("the flag: %v", err)
	}
	if c.SyncRoot != "/var/mirrors" {
		t.Errorf("the flag: SyncRoot = %q, want /var/mirrors", c.SyncRoot)
	}
	for _, args := range [][]string{{"--sync-root", "mirrors"}, {"--sync-root", "./m"}} {
		_, err := parseServe(t, args, "", nil)
		wantErrorSaying(t, strings.Join(args, " "), err, "absolute")
	}
	c, err = parseServe(t, nil, "", nil)
	if err != nil {
		t.Fatalf("default: %v", err)
	}
	if c.SyncRoot != "" {
		t.Errorf("default: SyncRoot = %q, want empty", c.SyncRoot)
	}
}
