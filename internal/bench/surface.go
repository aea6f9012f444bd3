package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/demo"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rig is a whole ghgate over an in-process emulator, with an MCP client
// session and a transport that counts and times upstream requests.
type rig struct {
	emu     *demo.Emulator
	stack   *server.Stack
	session *mcp.ClientSession
	meter   *meter
}

// meter counts upstream requests and the time spent waiting on them.
type meter struct {
	next http.RoundTripper
	mu   sync.Mutex
	reqs []string
	wait time.Duration
}

func (m *meter) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := m.next.RoundTrip(req)
	m.mu.Lock()
	m.reqs = append(m.reqs, req.Method+" "+req.URL.Path)
	m.wait += time.Since(start)
	m.mu.Unlock()
	return resp, err
}

// take returns and resets what was counted.
func (m *meter) take() ([]string, time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, w := m.reqs, m.wait
	m.reqs, m.wait = nil, 0
	return r, w
}

func newRig(ctx context.Context, toolsets []string) (*rig, error) {
	return newRigOn(ctx, toolsets, emulator.Options{CoreLimit: 1_000_000, SearchLimit: 1_000_000})
}

// newRigOn is newRig on an emulator with opts (its budgets, its clock).
func newRigOn(ctx context.Context, toolsets []string, opts emulator.Options) (*rig, error) {
	emu, err := startEmulator(opts)
	if err != nil {
		return nil, err
	}
	m := &meter{next: &http.Transport{MaxIdleConnsPerHost: 16}}
	st, err := server.NewStack(ctx, server.StackOptions{BaseURL: emu.URL, Token: emulator.DemoTokenAlice,
		Toolsets: toolsets, HTTPClient: &http.Client{Transport: m, Timeout: 30 * time.Second},
		// The benches play a team working across acme's repositories, one
		// of them private: its operator lets text flow between them.
		Policy: policy.Rules{Flow: policy.Flow{Allow: []string{"acme/* -> acme/*"}}}})
	if err != nil {
		_ = emu.Close()
		return nil, err
	}
	sTr, cTr := mcp.NewInMemoryTransports()
	if _, err := st.Server.MCP.Connect(ctx, sTr, nil); err != nil {
		return nil, err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, cTr, nil)
	if err != nil {
		return nil, err
	}
	return &rig{emu: emu, stack: st, session: cs, meter: m}, nil
}

func (r *rig) close() {
	_ = r.session.Close()
	_ = r.stack.Close()
	_ = r.emu.Close()
}

// call runs one tool and returns its text block; a tool error is an error.
func (r *rig) call(ctx context.Context, tool string, args any) (string, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return "", err
	}
	res, err := r.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(raw)})
	if err != nil {
		return "", err
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return "", fmt.Errorf("%s: %s", tool, text)
	}
	return text, nil
}

// toolsListBytes is the compact JSON size of tools/list, and the largest tool.
func toolsListBytes(ctx context.Context, toolsets []string) (total int, largest string, largestBytes int, err error) {
	r, err := newRig(ctx, toolsets)
	if err != nil {
		return 0, "", 0, err
	}
	defer r.close()
	res, err := r.session.ListTools(ctx, nil)
	if err != nil {
		return 0, "", 0, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return 0, "", 0, err
	}
	for _, t := range res.Tools {
		tb, _ := json.Marshal(t)
		if len(tb) > largestBytes {
			largest, largestBytes = t.Name, len(tb)
		}
	}
	return len(b), largest, largestBytes, nil
}

// instructionsBytes is the size of the instructions a client reads at
// session start, which a client loading tools lazily still pays in full.
func instructionsBytes(ctx context.Context, toolsets []string) (int, error) {
	r, err := newRig(ctx, toolsets)
	if err != nil {
		return 0, err
	}
	defer r.close()
	return len(r.session.InitializeResult().Instructions), nil
}

// Surface reports the size of what agents load and read.
func Surface(ctx context.Context) ([]Figure, error) {
	var figs []Figure
	def, largest, largestBytes, err := toolsListBytes(ctx, nil)
	if err != nil {
		return nil, err
	}
	figs = append(figs, Figure{Name: "tools/list, default toolset, compact", Value: float64(def), Unit: "bytes",
		Note: "budget 10,000; GitHub's MCP server side by side: ghgate bench --peer"})
	all, _, _, err := toolsListBytes(ctx, []string{"all"})
	if err != nil {
		return nil, err
	}
	figs = append(figs, Figure{Name: "tools/list, all toolsets, compact", Value: float64(all), Unit: "bytes"},
		Figure{Name: "largest tool definition (" + largest + ")", Value: float64(largestBytes), Unit: "bytes"})

	for _, sets := range [][]string{nil, {"all"}} {
		ins, err := instructionsBytes(ctx, sets)
		if err != nil {
			return nil, err
		}
		name, note := "instructions at session start, default toolset", "budget 1,500"
		if sets != nil {
			name, note = "instructions at session start, all toolsets", "budget 2,000"
		}
		figs = append(figs, Figure{Name: name, Value: float64(ins), Unit: "bytes", Note: note})
	}

	r, err := newRig(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer r.close()
	for _, detail := range []string{"summary", "full"} {
		text, err := r.call(ctx, "github_search_issues", map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo,
			"state": "all", "page_size": 30, "detail": detail})
		if err != nil {
			return nil, err
		}
		var out struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal([]byte(text), &out); err != nil || len(out.Items) == 0 {
			return nil, fmt.Errorf("search %s: %v (%d items)", detail, err, len(out.Items))
		}
		note := fmt.Sprintf("%d issues, whole response %d bytes", len(out.Items), len(text))
		if detail == "summary" {
			note += "; budget 230"
		}
		figs = append(figs, Figure{Name: "search_issues bytes per issue, " + detail, Value: float64(len(text)) / float64(len(out.Items)), Unit: "bytes", Note: note})
	}
	n, added, err := issueWithComments(r, 10)
	if err != nil {
		return nil, err
	}
	text, err := r.call(ctx, "github_get_issue", map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "issue_number": n})
	if err != nil {
		return nil, err
	}
	figs = append(figs, Figure{Name: "get_issue with 10 comments", Value: float64(len(text)), Unit: "bytes", Note: fmt.Sprintf("acme/widgets#%d, %d of its comments added for the measure", n, added)})
	return figs, nil
}

// issueWithComments finds (or makes, in the emulator) an open issue with
// exactly n comments; added reports how many it had to add.
func issueWithComments(r *rig, n int) (number, added int, err error) {
	st := r.emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	repo := st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo)
	if repo == nil {
		return 0, 0, fmt.Errorf("no demo repository")
	}
	for _, is := range repo.Issues {
		if !is.IsPull && !is.Deleted && len(is.Comments) == n {
			return is.Number, 0, nil
		}
	}
	for _, is := range repo.Issues {
		if !is.IsPull && !is.Deleted && len(is.Comments) < n {
			added := n - len(is.Comments)
			for len(is.Comments) < n {
				st.AddComment(is, is.User, fmt.Sprintf("Benchmark comment %d: reproduced on main, see the log above.", len(is.Comments)+1), st.Now())
			}
			return is.Number, added, nil
		}
	}
	return 0, 0, fmt.Errorf("no issue can take %d comments", n)
}

// percentile returns the p-th percentile (0..100) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p / 100)
	return sorted[i]
}

// Overhead measures ghgate's own time per tool call against a zero-latency
// emulator: the whole call minus the time spent waiting on upstream.
func Overhead(ctx context.Context, calls int) ([]Figure, error) {
	r, err := newRig(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer r.close()
	type probe struct {
		tool string
		args func(i int) map[string]any
	}
	repo := func(extra map[string]any) map[string]any {
		m := map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	// Reads, and writes with and without a read first; each write changes
	// something, so none is a no-op.
	probes := []probe{
		{"github_get_issue", func(int) map[string]any { return repo(map[string]any{"issue_number": 1}) }},
		{"github_search_issues", func(int) map[string]any { return repo(map[string]any{"page_size": 30}) }},
		{"github_update_issue", func(i int) map[string]any {
			return repo(map[string]any{"issue_number": 2, "title": fmt.Sprintf("Overhead probe %d", i)})
		}},
		{"github_add_comment", func(i int) map[string]any {
			return repo(map[string]any{"issue_number": 3, "body": fmt.Sprintf("Overhead probe %d", i)})
		}},
		{"github_create_issue", func(i int) map[string]any {
			return repo(map[string]any{"title": fmt.Sprintf("Overhead probe %d", i), "labels": []string{"bug"}})
		}},
	}
	var figs []Figure
	for _, p := range probes {
		var samples []time.Duration
		for i := 0; i < calls && ctx.Err() == nil; i++ {
			r.meter.take()
			start := time.Now()
			if _, err := r.call(ctx, p.tool, p.args(i)); err != nil {
				return nil, err
			}
			total := time.Since(start)
			_, upstream := r.meter.take()
			samples = append(samples, max(total-upstream, 0))
		}
		sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
		figs = append(figs,
			Figure{Name: "server overhead p50, " + p.tool, Value: float64(percentile(samples, 50).Microseconds()), Unit: "µs", Note: fmt.Sprintf("%d calls, upstream time excluded", len(samples))},
			Figure{Name: "server overhead p99, " + p.tool, Value: float64(percentile(samples, 99).Microseconds()), Unit: "µs"})
	}
	return figs, nil
}
