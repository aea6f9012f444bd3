package contract

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

type testFilters struct {
	State  string
	Labels []string
}

func TestCursorRoundTripAndBinding(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	c, err := NewCursors(bytes.Repeat([]byte{7}, 32), clock)
	if err != nil {
		t.Fatal(err)
	}
	f := testFilters{State: "open", Labels: []string{"bug"}}
	cur := c.Mint("github_search_issues", "acme/widgets", f, "page=2")
	pos, err := c.Open(cur, "github_search_issues", "ACME/Widgets", f)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if pos != "page=2" {
		t.Fatalf("Open = %q, want page=2", pos)
	}
	for name, open := range map[string]func() error{
		"other tool": func() error { _, err := c.Open(cur, "github_list_issue_items", "acme/widgets", f); return err },
		"other repo": func() error { _, err := c.Open(cur, "github_search_issues", "acme/gadgets", f); return err },
		"other filters": func() error {
			_, err := c.Open(cur, "github_search_issues", "acme/widgets", testFilters{State: "closed"})
			return err
		},
		"tampered": func() error {
			b := []byte(cur)
			b[3] ^= 1
			_, err := c.Open(string(b), "github_search_issues", "acme/widgets", f)
			return err
		},
		"garbage": func() error { _, err := c.Open("not-a-cursor", "github_search_issues", "acme/widgets", f); return err },
		"other key": func() error {
			other, _ := NewCursors(bytes.Repeat([]byte{8}, 32), clock)
			_, err := other.Open(cur, "github_search_issues", "acme/widgets", f)
			return err
		},
	} {
		if err := open(); !errors.Is(err, ErrCursorInvalid) {
			t.Errorf("%s: got %v, want cursor_invalid", name, err)
		}
	}
	now = now.Add(CursorTTL + time.Second)
	if _, err := c.Open(cur, "github_search_issues", "acme/widgets", f); !errors.Is(err, ErrCursorExpired) {
		t.Fatalf("after ttl: %v", err)
	}
	if _, err := NewCursors([]byte("short"), nil); err == nil {
		t.Fatal("short key accepted")
	}
}

func FuzzCursorOpen(f *testing.F) {
	c, _ := NewCursors(bytes.Repeat([]byte{1}, 32), func() time.Time { return time.Unix(1_800_000_000, 0) })
	good := c.Mint("tool", "o/r", "x", "p")
	f.Add(good)
	f.Add("")
	f.Add(".")
	f.Add(strings.Repeat("A", 5000))
	f.Fuzz(func(t *testing.T, in string) {
		pos, err := c.Open(in, "tool", "o/r", "x")
		if err == nil && in != good {
			// Only a cursor carrying our signature may open; any other
			// accepted input must decode to the same payload.
			if pos != "p" {
				t.Fatalf("forged cursor opened: %q -> %q", in, pos)
			}
		}
		if err != nil && !errors.Is(err, ErrCursorInvalid) && !errors.Is(err, ErrCursorExpired) {
			t.Fatalf("unexpected error kind: %v", err)
		}
	})
}
