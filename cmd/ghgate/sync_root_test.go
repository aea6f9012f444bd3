package main

import (
	"strings"
	"testing"
)

// sync_root comes from the file or the flag (the flag wins) and must be
// absolute: a relative one would depend on where ghgate was started.
func TestServeSyncRoot(t *testing.T) {
	c, err := parseServe(t, nil, `sync_root = "/srv/mirrors"`, nil)
	if err != nil || c.SyncRoot != "/srv/mirrors" {
		t.Fatalf("from the file: %q %v", c.SyncRoot, err)
	}
	c, err = parseServe(t, []string{"--sync-root", "/var/mirrors"}, `sync_root = "/srv/mirrors"`, nil)
	if err != nil || c.SyncRoot != "/var/mirrors" {
		t.Fatalf("the flag: %q %v", c.SyncRoot, err)
	}
	for _, args := range [][]string{{"--sync-root", "mirrors"}, {"--sync-root", "./m"}} {
		if _, err := parseServe(t, args, "", nil); err == nil || !strings.Contains(err.Error(), "absolute") {
			t.Errorf("%q: %v", args, err)
		}
	}
	if c, err := parseServe(t, nil, "", nil); err != nil || c.SyncRoot != "" {
		t.Fatalf("default: %q %v", c.SyncRoot, err)
	}
}
