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
		if err != nil {
			t.Fatalf("ReadsOf on the other handle: %v", err)
		}
		if want := []string{"acme/widgets", "alice/notes"}; !slices.Equal(got, want) {
			t.Fatalf("the other handle lists %v, want %v", got, want)
		}
		other, err := b.ReadsOf(ctx, "client:other")
		if err != nil {
			t.Fatalf("ReadsOf another session: %v", err)
		}
		if len(other) != 0 {
			t.Fatalf("another session lists %v, want nothing", other)
		}
		// A read again with a shorter ttl never shortens what is kept.
		if err := b.NoteRead(ctx, "client:bot", "acme/widgets", time.Minute); err != nil {
			t.Fatal(err)
		}
		clk.add(90 * time.Minute)
		got, err = a.ReadsOf(ctx, "client:bot")
		if err != nil {
			t.Fatalf("ReadsOf after 90 minutes: %v", err)
		}
		if want := []string{"acme/widgets"}; !slices.Equal(got, want) {
			t.Fatalf("after 90 minutes the reads are %v, want %v only", got, want)
		}
		clk.add(time.Hour)
		got, err = a.ReadsOf(ctx, "client:bot")
		if err != nil {
			t.Fatalf("ReadsOf after their time: %v", err)
		}
		if len(got) != 0 {
			t.Fatalf("after their time the reads are %v, want nothing", got)
		}
	})
}
