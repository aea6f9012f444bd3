package broker_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// routeOf is the boundary broker's routing, written out: which secret a
// call for owner in mode must get ("" for a refusal).
func routeOf(owner, mode string) string {
	switch strings.ToLower(owner) {
	case "acme":
		return "acme-" + mode
	case "alice":
		if mode == "read" {
			return "alice-read"
		}
	}
	return ""
}

// FuzzBrokerRouting sends upstream calls whose arguments name the owner
// in every way an agent can: keys in any letter case, given twice, of
// other types, Unicode lookalikes, in any order. Whatever is sent, a call
// either is refused before it reaches the upstream, or reaches it with
// the credential of exactly the owner the upstream reads (by the exact
// key, as GitHub's MCP server does, and by a case-insensitive decoder,
// as a Go struct would) and the audit line records.
func FuzzBrokerRouting(f *testing.F) {
	seeds := []struct {
		k1, v1, k2, v2 string
		sel            uint8
	}{
		{"owner", "alice", "Owner", "acme", 0},
		{"owner", "alice", "OWNER", "acme", 1},
		{"owner", "alice", "owner", "acme", 2},
		{"owner", "alice", "Owner", "1", 3},
		{"owner", "mallory", "Owner", "acme", 4},
		{"оwner", "acme", "owner", "alice", 5}, // Cyrillic о
		{"owner", "alice", "ownᴇr", "acme", 6},
		{"owner", "alice", "owner\u0000", "acme", 7},
		{"repo", "x/%2e%2e/alice/notes", "owner", "acme", 8},
		{"owner", "ACME", "title", "t", 9},
		{"owner", "acme", "title", "t", 16},
		{"owner", "alice", "title", "t", 17},
		{"title", "t", "query", "user:alice", 18},
		{"title", "t", "query", "user:alice", 0x18}, // the query in an array
		{"owner", "ac\u212Ame", "title", "t", 19},   // Kelvin sign
	}
	for _, s := range seeds {
		f.Add(s.k1, s.v1, s.k2, s.v2, s.sel)
	}
	bd := startBoundary(f, `[tools]
toolsets = ["issues"]`)
	audit := &auditTail{path: bd.audit}
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string, sel uint8) {
		tool, mode := "issue_read", "read"
		if sel&1 == 1 {
			tool, mode = "issue_write", "write"
		}
		value := func(v string, typ uint8) json.RawMessage {
			switch typ % 4 {
			case 1:
				return json.RawMessage("1")
			case 2:
				return json.RawMessage("null")
			case 3:
				b, _ := json.Marshal([]string{v})
				return b
			}
			b, _ := json.Marshal(v)
			return b
		}
		members := [][2]json.RawMessage{}
		key := func(k string) json.RawMessage { b, _ := json.Marshal(k); return b }
		members = append(members, [2]json.RawMessage{key(k1), value(v1, sel>>1)})
		members = append(members, [2]json.RawMessage{key(k2), value(v2, sel>>3)})
		if sel&0x20 == 0 {
			members = append(members, [2]json.RawMessage{key("repo"), value("widgets", 0)})
		}
		if sel&0x40 != 0 {
			members[0], members[1] = members[1], members[0]
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(m[0])
			b.WriteByte(':')
			b.Write(m[1])
		}
		b.WriteByte('}')
		args := b.String()

		before := len(bd.up.seen())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := bd.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s %s: a protocol error: %v", tool, args, err)
		}
		seen := bd.up.seen()
		lines := audit.next(t)
		if len(lines) != 1 {
			t.Fatalf("%s %s: %d audit lines for one call", tool, args, len(lines))
		}
		line := lines[0]
		if len(seen) == before {
			if !res.IsError {
				t.Fatalf("%s %s: succeeded without reaching the upstream", tool, args)
			}
			if line.Outcome != "error" {
				t.Fatalf("%s %s: refused, but audited as %+v", tool, args, line)
			}
			return
		}
		if len(seen) != before+1 {
			t.Fatalf("%s %s: reached the upstream %d times", tool, args, len(seen)-before)
		}
		got := seen[len(seen)-1]
		// What the upstream acts on: the exact key, and the same forwarded
		// arguments as a case-insensitive Go decoder reads them.
		var folded struct {
			Owner any `json:"owner"`
		}
		forwarded, _ := json.Marshal(got.Args)
		_ = json.Unmarshal(forwarded, &folded)
		exact := got.Owner
		if s, _ := folded.Owner.(string); s != exact {
			t.Fatalf("%s %s: forwarded %s, whose owner reads %q by exact key and %v case-insensitively", tool, args, forwarded, exact, folded.Owner)
		}
		// The owner that chose the credential, as audited: the one the
		// upstream reads, or with none, the one the query's scope names
		// (a query string, or strings in an array under "query"), else the
		// upstream's configured owner.
		effective := line.Owner
		query, _ := json.Marshal(got.Args["query"])
		switch {
		case exact != "" && !strings.EqualFold(effective, exact):
			t.Fatalf("%s %s: the upstream acts on %q, the audit line records %q", tool, args, exact, effective)
		case exact == "" && effective != "acme" && !strings.Contains(strings.ToLower(string(query)), strings.ToLower(effective)):
			t.Fatalf("%s %s: routed by %q, which neither the arguments nor the configuration name", tool, args, effective)
		}
		secret := bd.tokens[got.Token]
		if want := routeOf(effective, mode); secret != want {
			t.Fatalf("%s %s: routed by %q with credential %q, want %q", tool, args, effective, secret, want)
		}
		if line.Credential != secret {
			t.Fatalf("%s %s: audited credential %q, want the one used %q", tool, args, line.Credential, secret)
		}
		if line.Outcome != "ok" {
			t.Fatalf("%s %s: audited outcome %q, want ok (line %+v)", tool, args, line.Outcome, line)
		}
	})
}

// auditTail reads the audit lines written since it last read.
type auditTail struct {
	path   string
	offset int64
}

func (a *auditTail) next(t *testing.T) []broker.AuditLine {
	t.Helper()
	f, err := os.Open(a.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(a.offset, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	a.offset += int64(len(data))
	var out []broker.AuditLine
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		var line broker.AuditLine
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		out = append(out, line)
	}
	return out
}
