package github

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

func TestBenchRepeatedRead(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	spent, err := BenchRepeatedRead(context.Background(), em.URL, emulator.DemoTokenAlice, owner, repo, 1)
	if err != nil {
		t.Fatal(err)
	}
	if spent != 0 {
		t.Fatalf("the second identical read spent %d", spent)
	}
	// Without the store the same measurement must see the cost, or the
	// figure above would prove nothing.
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = nil })
	ctx := context.Background()
	if _, _, err := c.GetIssue(ctx, owner, repo, 1); err != nil {
		t.Fatal(err)
	}
	before := c.RateBudget("core").Used
	if _, _, err := c.GetIssue(ctx, owner, repo, 1); err != nil {
		t.Fatal(err)
	}
	if c.RateBudget("core").Used != before+1 {
		t.Fatal("an unconditional read cost nothing: the emulator does not charge")
	}
}

// BenchmarkRepeatedRead reports the budget a repeated, identical read
// spends ("budget/op", 0 with conditional requests).
func BenchmarkRepeatedRead(b *testing.B) {
	em := startEmu(b, emulator.Options{CoreLimit: 1 << 30})
	c, _ := newClient(b, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	if _, _, err := c.GetIssue(ctx, owner, repo, 1); err != nil {
		b.Fatal(err)
	}
	before := c.RateBudget("core").Used
	reads := 0
	for b.Loop() {
		_, m, err := c.GetIssue(ctx, owner, repo, 1)
		if err != nil {
			b.Fatalf("GetIssue: %v", err)
		}
		if !m.Cached {
			b.Fatalf("GetIssue: Cached = false, want a cached read")
		}
		reads++
	}
	b.ReportMetric(float64(c.RateBudget("core").Used-before)/float64(reads), "budget/op")
}

// BenchmarkEmulatorIssueGET measures the emulator alone: plain,
// unconditional issue GETs over loopback.
func BenchmarkEmulatorIssueGET(b *testing.B) {
	em := startEmu(b, emulator.Options{CoreLimit: 1 << 30})
	url := em.URL + "/api/v3" + issuePath(1)
	hc := &http.Client{}
	gets := 0
	for b.Loop() {
		gets++
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+emulator.DemoTokenAlice)
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d, want 200", resp.StatusCode)
		}
	}
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(gets)/s, "req/s")
	}
}
