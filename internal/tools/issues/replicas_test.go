package issues_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/testutil/redisserver"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Two ghgate replicas on one emulator and one Redis, as behind a load
// balancer: what one of them did, the other must know. (The same with real
// processes behind HAProxy is e2e/scale.)

func replicaPair(t *testing.T, o servertest.Options) (*redisserver.Server, *servertest.Env, *servertest.Env) {
	t.Helper()
	srv := redisserver.Start(t)
	o.StorePath = srv.URL("replicas")
	a := servertest.Start(t, o)
	o.Emu = a.Emu
	b := servertest.Start(t, o)
	return srv, a, b
}

// coreRemaining asks the emulator for alice's core budget (reading it is
// free, as on GitHub).
func coreRemaining(t *testing.T, env *servertest.Env) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, env.Emu.URL+"/rate_limit", nil)
	req.Header.Set("Authorization", "Bearer "+emulator.DemoTokenAlice)
	resp, err := env.Emu.Client().Do(req)
	if err != nil {
		t.Fatalf("GET /rate_limit: %v", err)
	}
	defer resp.Body.Close()
	var body struct {
		Resources struct {
			Core struct{ Remaining int } `json:"core"`
		} `json:"resources"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("decode /rate_limit: %v", err)
	}
	return body.Resources.Core.Remaining
}

func TestReplicasKeyedCreateWritesOnce(t *testing.T) {
	t.Parallel()
	_, a, b := replicaPair(t, servertest.Options{})
	// Slow creates, so the duplicates arrive while the first is writing.
	ciFault(t, a, emulator.Fault{Kind: emulator.FaultLatency, LatencyMS: 300, Method: "POST", Path: "/repos/acme/widgets/issues"})
	in := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Replicated once", IdempotencyKey: "k-replicas"}
	const calls = 12
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		numbers = map[int]int{}
		fresh   int
	)
	for i := range calls {
		env := a
		if i%2 == 1 {
			env = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := env.Call(t, toolkit.NameCreateIssue, in)
			if res.IsError {
				t.Errorf("call %d: got an error, want the issue: %s", i, res.JSON)
				return
			}
			var out issues.CreateIssueOut
			res.Decode(t, &out)
			mu.Lock()
			numbers[out.Issue.Number]++
			if !out.Replayed {
				fresh++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	made := ciIssues(a, "Replicated once")
	if len(made) != 1 {
		t.Fatalf("issues made = %v, want one", made)
	}
	if len(numbers) != 1 || numbers[made[0]] != calls {
		t.Errorf("results by number = %v, want #%d returned to all %d calls", numbers, made[0], calls)
	}
	if fresh != 1 {
		t.Errorf("results not replayed = %d, want 1", fresh)
	}
}

func TestReplicasShareCursorsCacheAndNames(t *testing.T) {
	t.Parallel()
	_, a, b := replicaPair(t, servertest.Options{})
	// A cursor minted by one replica is accepted by the other.
	first := servertest.CallOK[issues.SearchIssuesOut](t, a, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 2})
	if !first.HasMore {
		t.Fatalf("first page: has_more = false, want true")
	}
	if first.NextCursor == "" {
		t.Fatalf("first page: next_cursor is empty, want one")
	}
	next := servertest.CallOK[issues.SearchIssuesOut](t, b, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 2, Cursor: first.NextCursor})
	if len(next.Items) == 0 {
		t.Fatalf("second page from the other replica: 0 rows, want some")
	}
	if got := next.Items[0].Number; got == first.Items[0].Number {
		t.Fatalf("second page from the other replica starts at #%d, want another issue than the first page's", got)
	}
	// A read one replica cached is answered 304 for the other, which costs
	// no budget.
	get := issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(first.Items[0].Number)}
	servertest.CallOK[issues.GetIssueOut](t, a, toolkit.NameGetIssue, get)
	before := coreRemaining(t, a)
	b.Upstream()
	servertest.CallOK[issues.GetIssueOut](t, b, toolkit.NameGetIssue, get)
	if calls := b.Upstream(); len(calls) == 0 {
		t.Fatalf("the second replica's upstream calls = %v, want some (a conditional read)", calls)
	}
	if after := coreRemaining(t, a); after != before {
		t.Fatalf("core remaining = %d, want %d unchanged (the other replica's read answered 304 from the shared cache)", after, before)
	}
	// Names one replica confirmed (a label listing) spare the other its
	// preflight: its create is the POST alone.
	servertest.CallOK[issues.ListRepoMetadataOut](t, a, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "labels"})
	b.Upstream()
	servertest.CallOK[issues.CreateIssueOut](t, b, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Named", Labels: []string{"bug"}})
	ciWantCalls(t, b, "names confirmed by the other replica", "POST /repos/acme/widgets/issues")
}

func TestReplicasStopAtTheRateFloorTogether(t *testing.T) {
	t.Parallel()
	const floor = 4
	_, a, b := replicaPair(t, servertest.Options{Emulator: emulator.Options{CoreLimit: 20}, RateFloor: floor})
	var refused *contract.Error
	for i := 1; i <= 40 && refused == nil; i++ {
		env := a
		if i%2 == 0 {
			env = b
		}
		res := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(i)})
		if !res.IsError {
			continue
		}
		if e := res.Envelope(t); e.Code == contract.CodeRateLimited {
			refused = &e
		}
	}
	if refused == nil {
		t.Fatalf("no replica stopped at the floor, want a rate_limited refusal within 40 reads")
	}
	if !refused.Temporary {
		t.Errorf("rate_limited: temporary = false, want true")
	}
	if refused.RetryAfterMS == nil {
		t.Errorf("rate_limited: retry_after_ms = nil, want a wait")
	}
	left := coreRemaining(t, a)
	if left != floor {
		t.Fatalf("core remaining at GitHub = %d, want the floor %d", left, floor)
	}
	// Both replicas now refuse without sending anything.
	for name, env := range map[string]*servertest.Env{"a": a, "b": b} {
		env.Upstream()
		e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: 1}).Envelope(t)
		if e.Code != contract.CodeRateLimited {
			t.Errorf("replica %s: code = %q, want %q: %+v", name, e.Code, contract.CodeRateLimited, e)
		}
		if calls := env.Upstream(); len(calls) != 0 {
			t.Errorf("replica %s: upstream calls past the floor = %v, want none", name, calls)
		}
	}
	if left2 := coreRemaining(t, a); left2 != floor {
		t.Fatalf("core remaining after the floor = %d, want %d", left2, floor)
	}
}

// Serial: Redis comes back on the port it left, which a parallel test's
// connection could take while it is down.
func TestReplicasWithRedisDown(t *testing.T) {
	srv, a, b := replicaPair(t, servertest.Options{})
	srv.Stop()
	// A keyed write is refused, not performed without its guard.
	in := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "During the outage", IdempotencyKey: "k-outage"}
	e := a.Call(t, toolkit.NameCreateIssue, in).Envelope(t)
	contracttest.Envelope(t, "", e, contract.CodeUpstreamUnavailable, contract.NotStarted)
	if !e.Temporary {
		t.Errorf("keyed write with Redis down: temporary = false, want true")
	}
	if e.RetryAfterMS == nil {
		t.Errorf("keyed write with Redis down: retry_after_ms = nil, want a wait")
	}
	if made := ciIssues(a, in.Title); len(made) != 0 {
		t.Fatalf("issues written without the guard = %v, want none", made)
	}
	// Reads go on, without the cache.
	for _, env := range []*servertest.Env{a, b} {
		got := servertest.CallOK[issues.GetIssueOut](t, env, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: 1})
		if got.Issue.Number != 1 {
			t.Fatalf("read during the outage: #%d, want #1: %+v", got.Issue.Number, got)
		}
	}
	// Redis back (empty: the test's server keeps nothing): all of it works
	// again, and the retry through the other replica replays.
	srv.Restart()
	// The client's pool notices on its own; an agent following the
	// refusal's retry_after_ms gets through within a few attempts.
	var first issues.CreateIssueOut
	for attempt := 0; ; attempt++ {
		res := a.Call(t, toolkit.NameCreateIssue, in)
		if !res.IsError {
			res.Decode(t, &first)
			break
		}
		e := res.Envelope(t)
		if e.Code != contract.CodeUpstreamUnavailable {
			t.Fatalf("after Redis returned, attempt %d: code = %q, want success or %q: %+v", attempt, e.Code, contract.CodeUpstreamUnavailable, e)
		}
		if attempt == 5 {
			t.Fatalf("after Redis returned: still refused on attempt %d, want success within 5: %+v", attempt, e)
		}
		time.Sleep(time.Duration(*e.RetryAfterMS) * time.Millisecond)
	}
	again := servertest.CallOK[issues.CreateIssueOut](t, b, toolkit.NameCreateIssue, in)
	if first.Replayed {
		t.Errorf("after recovery: first create replayed = true, want false")
	}
	if !again.Replayed {
		t.Errorf("after recovery: retry replayed = false, want true")
	}
	if again.Issue.Number != first.Issue.Number {
		t.Errorf("after recovery: retry returned #%d, want the first's #%d", again.Issue.Number, first.Issue.Number)
	}
	if made := ciIssues(a, in.Title); len(made) != 1 {
		t.Fatalf("issues after recovery = %v, want one", made)
	}
}
