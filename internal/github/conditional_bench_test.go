package github

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/store"
)

// BenchmarkWarmRead is a read GitHub answers 304 and ghgate serves from its
// conditional-request cache, through the production store (a SQLite file
// behind OpenBackend): one issue, and a 100-row issue list page.
func BenchmarkWarmRead(b *testing.B) {
	em := startEmu(b, emulator.Options{})
	st := em.State()
	st.Lock()
	r := st.Repo(owner, repo)
	author := st.Account("alice")
	for len(r.Issues) < 120 {
		body := "filler issue for the list benchmark"
		st.CreateIssue(r, author, fmt.Sprintf("Filler %d", len(r.Issues)), &body, state.IssueTriage{})
	}
	st.Unlock()
	ctx := context.Background()
	be, err := store.OpenBackend(ctx, filepath.Join(b.TempDir(), "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = be.Close() })
	c, _ := newClient(b, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = be })

	b.Run("issue", func(b *testing.B) {
		if _, _, err := c.GetIssue(ctx, owner, repo, 5); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			_, m, err := c.GetIssue(ctx, owner, repo, 5)
			if err != nil || !m.Cached {
				b.Fatalf("GetIssue: cached=%v err=%v, want a cached read", m.Cached, err)
			}
		}
	})
	b.Run("list100", func(b *testing.B) {
		o := ListIssuesOptions{State: "all", PerPage: 100}
		if _, _, err := c.ListIssues(ctx, owner, repo, o); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			rows, m, err := c.ListIssues(ctx, owner, repo, o)
			if err != nil || !m.Cached || len(rows) != 100 {
				b.Fatalf("ListIssues: %d rows cached=%v err=%v, want 100 cached rows", len(rows), m.Cached, err)
			}
		}
	})
}
