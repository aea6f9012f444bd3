package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResourceReadUpstreamFailureCodes: a read that fails because the
// rate budget is spent, or because GitHub answers with server errors past
// the client's retries, answers the JSON-RPC code reserved for it (not
// -32603, a server bug), with the envelope and its retry information in
// error.data; a missing issue keeps resource-not-found.
func TestResourceReadUpstreamFailureCodes(t *testing.T) {
	uris := []string{
		"github://acme/widgets/issues/1",
		"github://acme/widgets/issues/1/comments?chunk=1",
		"github://acme/widgets/issues",
		"github://acme/widgets/labels",
	}
	cases := []struct {
		name    string
		fault   emulator.Fault
		rpc     int64
		code    contract.Code
		waitFor bool // retry_after_ms is set
	}{
		{"rate limited", emulator.Fault{Kind: emulator.FaultRateLimit}, contract.RPCRateLimited, contract.CodeRateLimited, true},
		{"502", emulator.Fault{Kind: emulator.FaultStatus, Status: 502}, contract.RPCUpstreamUnavailable, contract.CodeUpstreamUnavailable, false},
		{"503", emulator.Fault{Kind: emulator.FaultStatus, Status: 503}, contract.RPCUpstreamUnavailable, contract.CodeUpstreamUnavailable, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := servertest.Start(t, servertest.Options{MaxReadRetries: 1})
			if err := env.Emu.Emu.Faults().Add(c.fault); err != nil {
				t.Fatal(err)
			}
			for i, uri := range uris {
				env.Upstream()
				werr, data := readError(t, env, uri)
				if sent := len(env.Upstream()); i == 0 && c.fault.Kind == emulator.FaultStatus && sent < 2 {
					t.Errorf("%s: %d upstream requests, want the client's retry before giving up", uri, sent)
				}
				if werr.Code != c.rpc {
					t.Errorf("%s: JSON-RPC code = %d, want %d", uri, werr.Code, c.rpc)
				}
				if data.Code != c.code {
					t.Errorf("%s: envelope code = %s, want %s", uri, data.Code, c.code)
				}
				if !data.Temporary {
					t.Errorf("%s: temporary = false, want true", uri)
				}
				if c.waitFor && data.RetryAfterMS == nil {
					t.Errorf("%s: rate limited without retry_after_ms, want above 0: %s", uri, werr.Data)
				} else if c.waitFor && *data.RetryAfterMS <= 0 {
					t.Errorf("%s: rate limited with retry_after_ms = %d, want above 0", uri, *data.RetryAfterMS)
				}
			}
		})
	}
	// A missing issue is still resource-not-found.
	env := servertest.Start(t, servertest.Options{})
	caps, err := env.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "ghgate://capabilities"})
	if err != nil {
		t.Errorf("read ghgate://capabilities: %v", err)
	} else {
		for _, want := range []string{"-31000 when rate limited", "-31001 when GitHub is unavailable"} {
			if !strings.Contains(caps.Contents[0].Text, want) {
				t.Errorf("the capability summary lacks %q, want it to name the read failures' codes:\n%s", want, caps.Contents[0].Text)
			}
		}
	}
	werr, data := readError(t, env, "github://acme/widgets/issues/99999")
	if werr.Code != mcp.CodeResourceNotFound {
		t.Errorf("missing issue: JSON-RPC code = %d, want %d", werr.Code, mcp.CodeResourceNotFound)
	}
	if data.Code != contract.CodeIssueNotFound {
		t.Errorf("missing issue: envelope code = %s, want %s", data.Code, contract.CodeIssueNotFound)
	}
}
