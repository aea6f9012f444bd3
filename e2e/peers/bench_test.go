package peers

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// `ghgate bench --peer` runs every scripted task through both ghgate and
// GitHub's MCP server on one emulator. It needs no namespace: GitHub's
// server reaches the emulator through the bench's counting proxy as an
// HTTP proxy. Each task must run on both servers (the bench exits non-zero
// and prints "failed on …" otherwise), and the table must carry a row per
// task and the totals, and the overhead and memory tables a row per
// operation and figure. The figures themselves are not judged here.
func TestBenchPeerRunsEveryTaskOnBothServers(t *testing.T) {
	ghgate := ghgateBinary(t)
	peer := peerBinary(t, "github-mcp-server", "github.com/github/github-mcp-server/cmd/github-mcp-server")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Fewer samples and sessions than the bench's defaults keep this step
	// short; the figures are not judged here.
	out, err := exec.CommandContext(ctx, ghgate, "bench", "--peer", peer, "--peer-samples", "30", "--peer-sessions", "50").CombinedOutput()
	text := string(out)
	t.Logf("ghgate bench --peer:\n%s", text)
	if err != nil {
		t.Fatalf("ghgate bench --peer: %v", err)
	}
	// A failure is a line of its own; a sample taken again after an error
	// ("retried on …: the first: … failed to list issues …") is not one.
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "failed on ") {
			t.Errorf("a task failed on one of the servers: %s", line)
		}
	}
	for _, want := range []string{"tools/list bytes: ghgate default", "list open bugs", "search issue text", "read an issue and its comments",
		"list an epic's sub-issues", "list the repository's labels", "create an issue with labels and a milestone",
		"add a label, keeping the others", "close as a duplicate, with a comment", "all tasks that ran on both",
		"server overhead per operation", "list 10 open issues (160-issue repository)", "get an issue already read",
		"search text, 30 results", "add a comment", "one idle stdio session", "HTTP sessions open at once", "after they close"} {
		if !strings.Contains(text, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
}
