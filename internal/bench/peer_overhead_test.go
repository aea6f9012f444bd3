package bench

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// busy counts time once however many requests were in flight: the union
// of the spans, not their sum.
func TestBusyIsTheUnionOfSpans(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_000_000, 0)
	at := func(from, to int) span {
		return span{t0.Add(time.Duration(from) * time.Millisecond), t0.Add(time.Duration(to) * time.Millisecond)}
	}
	cases := []struct {
		name  string
		spans []span
		want  time.Duration
	}{
		{"none", nil, 0},
		{"one", []span{at(0, 5)}, 5 * time.Millisecond},
		{"disjoint", []span{at(0, 5), at(10, 12)}, 7 * time.Millisecond},
		{"overlapping, out of order", []span{at(3, 9), at(0, 5)}, 9 * time.Millisecond},
		{"nested", []span{at(0, 10), at(2, 4), at(5, 6)}, 10 * time.Millisecond},
		{"touching", []span{at(0, 5), at(5, 8)}, 8 * time.Millisecond},
		{"parallel then alone", []span{at(0, 4), at(1, 3), at(20, 21)}, 5 * time.Millisecond},
	}
	for _, c := range cases {
		if got := busy(c.spans); got != c.want {
			t.Errorf("%s: busy = %s, want %s", c.name, got, c.want)
		}
	}
}

// The proxy's upstream time covers each request from its arrival to the
// end of its answer (so at least what the upstream took, and no more
// than what the client waited), and a 304 is counted as one.
func TestCountingProxyTimesEachRequest(t *testing.T) {
	t.Parallel()
	const hold = 20 * time.Millisecond
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(hold)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		_, _ = io.WriteString(w, strings.Repeat("x", 1000))
	}))
	defer upstream.Close()
	p, err := startCountingProxy(upstream.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.close() }()
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	for _, etag := range []string{"", `"v1"`} {
		req, _ := http.NewRequest(http.MethodGet, p.url+"/repos/acme/widgets/issues/1", nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
	waited := time.Since(start)
	got := p.tally()
	if got.Requests != 2 {
		t.Errorf("tally: %d requests, want 2", got.Requests)
	}
	if got.NotModified != 1 {
		t.Errorf("tally: %d answered 304, want 1", got.NotModified)
	}
	if got.Bytes != 1000 {
		t.Errorf("tally: %d bytes, want 1000", got.Bytes)
	}
	if got.Busy < 2*hold || got.Busy > waited {
		t.Errorf("upstream time = %s, want between %s (what the upstream held) and %s (what the client waited)", got.Busy, 2*hold, waited)
	}
	if again := p.tally(); again != (upstreamTally{}) {
		t.Errorf("a second tally = %+v, want zero (reset)", again)
	}
}

func TestOverheadNeverNegative(t *testing.T) {
	t.Parallel()
	cases := []struct{ call, upstream, want time.Duration }{
		{10 * time.Millisecond, 4 * time.Millisecond, 6 * time.Millisecond},
		{3 * time.Millisecond, 5 * time.Millisecond, 0},
		{2 * time.Millisecond, 0, 2 * time.Millisecond},
	}
	for _, c := range cases {
		if got := overhead(c.call, c.upstream); got != c.want {
			t.Errorf("overhead(%s, %s) = %s, want %s", c.call, c.upstream, got, c.want)
		}
	}
}

func TestPercentileAndMedian(t *testing.T) {
	t.Parallel()
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	cases := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"none", nil, 50, 0},
		{"one", []time.Duration{7}, 99, 7},
		{"p50 of 100", hundred, 50, 50 * time.Millisecond},
		{"p99 of 100", hundred, 99, 99 * time.Millisecond},
		{"p100 of 100", hundred, 100, 100 * time.Millisecond},
		{"p50 of 3", []time.Duration{1, 2, 3}, 50, 2},
	}
	for _, c := range cases {
		if got := percentile(c.sorted, c.p); got != c.want {
			t.Errorf("%s: percentile(%v) = %s, want %s", c.name, c.p, got, c.want)
		}
	}
	for _, c := range []struct {
		sorted []int64
		want   int64
	}{{nil, 0}, {[]int64{5}, 5}, {[]int64{1, 2, 9}, 2}, {[]int64{1, 2, 8, 9}, 8}} {
		if got := median(c.sorted); got != c.want {
			t.Errorf("median(%v) = %d, want %d", c.sorted, got, c.want)
		}
	}
}

func TestRatioText(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ok   bool
		a, b float64
		want string
	}{
		{true, 3, 2, "1.50"},
		{true, 1, 3, "0.33"},
		{true, 0, 4, "0.00"},
		{true, 2, 0, "-"},
		{false, 2, 1, "-"},
		{true, -1, 1, "-"},
	}
	for _, c := range cases {
		if got := ratioText(c.ok, c.a, c.b); got != c.want {
			t.Errorf("ratioText(%v, %v, %v) = %q, want %q", c.ok, c.a, c.b, got, c.want)
		}
	}
}

func TestBounded(t *testing.T) {
	t.Parallel()
	cases := []struct{ n, want int }{{0, 100}, {-3, 100}, {20, 20}, {900, 500}}
	for _, c := range cases {
		if got := bounded(c.n, 100, 500); got != c.want {
			t.Errorf("bounded(%d, 100, 500) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestParseVmRSS(t *testing.T) {
	t.Parallel()
	status := "Name:\tghgate\nVmPeak:\t  912340 kB\nVmRSS:\t   38512 kB\nRssAnon:\t   20000 kB\n"
	want := RSS{Total: 38512 << 10, Anon: 20000 << 10}
	if got, err := parseVmRSS(status); err != nil {
		t.Errorf("parseVmRSS: %v", err)
	} else if got != want {
		t.Errorf("parseVmRSS = %+v, want %+v", got, want)
	}
	for _, bad := range []string{"Name:\tx\n", "VmRSS:\t12 MB\nRssAnon:\t1 kB\n", "VmRSS:\tlots kB\nRssAnon:\t1 kB\n",
		"VmRSS:\t12 kB\n", "VmRSS:\t12 kB\nRssAnon:\tx kB\n"} {
		if got, err := parseVmRSS(bad); err == nil {
			t.Errorf("parseVmRSS(%q) = %+v, nil; want an error", bad, got)
		}
	}
}

// The overhead and memory tables carry a row per operation and per
// figure, the ratios ghgate / GitHub's server, a failed operation as
// "failed" with its error below, and a peer without HTTP figures as "not
// measured" and a sample taken again after an error as "retried" (neither
// fails the bench).
func TestPeerReportPrintsOverheadAndMemory(t *testing.T) {
	t.Parallel()
	msd := func(v ...float64) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x*float64(time.Millisecond)))
		}
		return d
	}
	rep := &PeerReport{Samples: 3, Sessions: 200,
		Ops: []OpRow{
			{Op: "list 30 open issues, one repository",
				Ghgate: OpSide{Overhead: msd(10, 12, 30), Bytes: []int64{900, 900, 900}, Upstream: 3, NotMod: 3},
				Peer: OpSide{Overhead: msd(6, 8, 9), Bytes: []int64{3000, 3000, 3000}, Upstream: 6,
					Retried: 1, RetryErr: errors.New("unexpected EOF")}},
			{Op: "add a comment",
				Ghgate: OpSide{Err: errors.New("github_add_comment: boom")},
				Peer:   OpSide{Overhead: msd(1, 1, 1), Bytes: []int64{10, 10, 10}, Upstream: 3}},
		},
		Memory: [2]MemoryFigures{
			{StdioIdle: RSS{40 << 20, 12 << 20}, HTTPIdle: RSS{50 << 20, 15 << 20}, HTTPOpen: RSS{160 << 20, 90 << 20}, HTTPClosed: RSS{150 << 20, 30 << 20}},
			{StdioIdle: RSS{20 << 20, 8 << 20}, Err: errors.New("no http command")},
		},
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"3 samples per server",
		"12.00", // ghgate's p50 of the listing
		"1.50",  // its ratio to the peer's 8 ms
		"0.30",  // bytes 900 / 3000
		"1.0/2.0",
		"3/0",
		"failed on ghgate: add a comment: github_add_comment: boom",
		"retried on GitHub's MCP server: list 30 open issues, one repository: 1 sample(s) taken again after an error, the first: unexpected EOF",
		"one idle stdio session", "40.0", "20.0", "2.00", "12.0", "8.0", "1.50",
		"200 HTTP sessions open at once", "160.0",
		"after they close (2s settle)", "150.0",
		"after close / HTTP idle", "3.00", "2.00",
		"GitHub's MCP server: HTTP figures not measured: no http command",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the tables lack %q:\n%s", want, out)
		}
	}
	err := rep.Failed()
	if err == nil || !strings.Contains(err.Error(), "add a comment") {
		t.Errorf("Failed() = %v, want one naming the failed operation %q", err, "add a comment")
	}
	if err != nil && strings.Contains(err.Error(), "no http command") {
		t.Errorf("Failed() = %v, want the peer's missing HTTP figures (%q) left out", err, "no http command")
	}
	if err != nil && strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("Failed() = %v, want the retried sample (%q) left out", err, "unexpected EOF")
	}
}

// A tally taken while a request is still at the proxy waits for it, so
// its upstream time counts toward the call that made it.
func TestCountingProxyTallyWaitsForRequestsInFlight(t *testing.T) {
	t.Parallel()
	arrived := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		time.Sleep(30 * time.Millisecond)
		_, _ = io.WriteString(w, "done")
	}))
	defer upstream.Close()
	p, err := startCountingProxy(upstream.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.close() }()
	done := make(chan error, 1)
	go func() {
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(p.url + "/x")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
		done <- err
	}()
	<-arrived
	got := p.tally()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got.Requests != 1 {
		t.Errorf("tally during the request: %d requests, want 1", got.Requests)
	}
	if got.Busy <= 0 {
		t.Errorf("tally during the request: upstream time %s, want above zero", got.Busy)
	}
}
