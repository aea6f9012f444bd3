package store

import (
	"context"
	"slices"
	"testing"
	"time"
)

// A read noted on one handle is listed on the other (replicas sharing the
// store), for its session only, until its time passes; a later read
// keeps it longer.
func TestSuiteReadsAcrossHandles(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		clk := newClock()
		a, b := open(t, clk.options()...)
		if err := a.NoteRead(ctx, "client:bot", "alice/notes", time.Hour); err != nil {
			t.Fatal(err)
		}
		if err := a.NoteRead(ctx, "client:bot", "acme/widgets", 2*time.Hour); err != nil {
			t.Fatal(err)
		}
		got, err := b.ReadsOf(ctx, "client:bot")
		if err != nil || !slices.Equal(got, []string{"acme/widgets", "alice/notes"}) {
			t.Fatalf("the other handle lists %v, %v; want acme/widgets then alice/notes", got, err)
		}
		if other, err := b.ReadsOf(ctx, "client:other"); err != nil || len(other) != 0 {
			t.Fatalf("another session lists %v, %v; want nothing", other, err)
		}
		// A read again with a shorter ttl never shortens what is kept.
		if err := b.NoteRead(ctx, "client:bot", "acme/widgets", time.Minute); err != nil {
			t.Fatal(err)
		}
		clk.add(90 * time.Minute)
		if got, err := a.ReadsOf(ctx, "client:bot"); err != nil || !slices.Equal(got, []string{"acme/widgets"}) {
			t.Fatalf("after 90 minutes: %v, %v; want acme/widgets only", got, err)
		}
		clk.add(time.Hour)
		if got, err := a.ReadsOf(ctx, "client:bot"); err != nil || len(got) != 0 {
			t.Fatalf("after their time: %v, %v; want nothing", got, err)
		}
	})
}
