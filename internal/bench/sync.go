package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/ghgate/ghgate/internal/tools/issuesync"
)

// Sync measures github_sync_issues on acme/widgets (the demo seed): a
// first sync into an empty mirror, then a second with nothing changed.
// Each reports the upstream requests the wire saw (checked against what
// the tool says it spent) and the response bytes it received.
func Sync(ctx context.Context) ([]Figure, error) {
	r, err := newRig(ctx, []string{issuesync.Toolset})
	if err != nil {
		return nil, err
	}
	defer r.close()
	root, err := os.MkdirTemp("", "ghgate-bench-sync-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(root) }()
	// The stack is built without a sync_root; the bench's own is set
	// before the first call, while nothing else runs.
	r.stack.Service.SyncRoot = root
	var figs []Figure
	for i, run := range []string{"first sync", "second sync, nothing changed"} {
		r.meter.take()
		text, err := r.call(ctx, "github_sync_issues", map[string]any{"owner": "acme", "repo": "widgets"})
		if err != nil {
			return figs, fmt.Errorf("%s: %w", run, err)
		}
		var out issuesync.SyncIssuesOut
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			return figs, err
		}
		reqs, _ := r.meter.take()
		if len(reqs) != out.Upstream.Calls {
			return figs, fmt.Errorf("%s: the wire saw %d requests, the tool reports %d", run, len(reqs), out.Upstream.Calls)
		}
		if i == 1 && (out.Upstream.Calls != 1 || out.Upstream.NotModified != 1) {
			return figs, fmt.Errorf("%s: %d requests, %d answered 304; want one, answered 304", run, out.Upstream.Calls, out.Upstream.NotModified)
		}
		figs = append(figs,
			Figure{Name: "sync acme/widgets, " + run + ": upstream requests", Value: float64(out.Upstream.Calls), Unit: "requests",
				Note: fmt.Sprintf("%d answered 304; %s", out.Upstream.NotModified, pathsOf(reqs))},
			Figure{Name: "sync acme/widgets, " + run + ": upstream bytes", Value: float64(out.Upstream.Bytes), Unit: "bytes",
				Note: fmt.Sprintf("response bodies; %d files written, %d unchanged, %d removed; the tool's answer %d bytes",
					out.Written, out.Unchanged, out.Removed, len(text))})
	}
	return figs, nil
}

// pathsOf summarizes requests by kind: issue-list pages and comment reads.
func pathsOf(reqs []string) string {
	lists, comments := 0, 0
	for _, q := range reqs {
		if strings.HasSuffix(q, "/comments") {
			comments++
		} else {
			lists++
		}
	}
	return fmt.Sprintf("%d issue-list pages, %d comment pages", lists, comments)
}
