package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The static keys of the clients lockdownServe configures.
const (
	openKey    = "ghgate-static-key-for-the-open-client-0123456789ab"
	lockedKey  = "ghgate-static-key-for-the-locked-client-0123456789"
	includeKey = "ghgate-static-key-for-the-include-client-012345678"
)

// daveSays is from the body dave, an outside contributor, wrote on
// acme/widgets#DemoManyCommentsIssue (public).
const daveSays = "every chart seems to fetch its query three times"

// lockdownServe starts the built binary with --auth, logging JSON: the
// server's own lockdown is off; "open" keeps it, "locked" turns it on in
// its [client.tools], and "include" turns it on and may ask for the text
// (allow_include_untrusted).
func lockdownServe(t *testing.T) (url string, stderr interface{ String() string }) {
	t.Helper()
	url, _, stderr = staticKeysServe(t, "", fmt.Sprintf(`
[[client]]
name = "open"
key_sha256 = %q
read = ["acme"]

[[client]]
name = "locked"
key_sha256 = %q
read = ["acme"]
[client.tools]
lockdown = true

[[client]]
name = "include"
key_sha256 = %q
read = ["acme"]
[client.tools]
lockdown = true
allow_include_untrusted = true
`, httpauth.KeyDigest(openKey), httpauth.KeyDigest(lockedKey), httpauth.KeyDigest(includeKey)))
	return url, stderr
}

// TestServeAuthLockdownPerClient: each HTTP client's [client.tools]
// lockdown decides what it reads of a stranger's text; include_untrusted
// is listed only to the client allowed it, refused for the others with
// the call without it as the repair, and its use is on the audit line.
func TestServeAuthLockdownPerClient(t *testing.T) {
	t.Parallel()
	url, stderr := lockdownServe(t)
	issue := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": emulator.DemoManyCommentsIssue}
	include := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": emulator.DemoManyCommentsIssue, "include_untrusted": true}
	lists := func(cs *mcp.ClientSession) bool {
		t.Helper()
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == toolkit.NameGetIssue })
		if i < 0 {
			t.Fatal("get_issue is not listed")
		}
		b, _ := json.Marshal(list.Tools[i].InputSchema)
		return strings.Contains(string(b), toolkit.IncludeUntrustedField)
	}

	open := connectAs(t, url, openKey)
	if text := callText(t, open, toolkit.NameGetIssue, issue); !strings.Contains(text, daveSays) {
		t.Errorf("open client: dave's body is missing: %s", text)
	}
	if lists(open) {
		t.Error("open client: include_untrusted is listed")
	}

	locked := connectAs(t, url, lockedKey)
	text := callText(t, locked, toolkit.NameGetIssue, issue)
	if strings.Contains(text, daveSays) {
		t.Errorf("locked client: the result holds dave's body, want it withheld: %s", text)
	}
	if !strings.Contains(text, `"withheld_untrusted"`) {
		t.Errorf("locked client: the result lacks \"withheld_untrusted\": %s", text)
	}
	if lists(locked) {
		t.Error("locked client: include_untrusted is listed")
	}
	res, err := locked.CallTool(context.Background(), &mcp.CallToolParams{Name: toolkit.NameGetIssue, Arguments: include})
	if err != nil {
		t.Fatal(err)
	}
	var e contract.Error
	raw, _ := json.Marshal(res.StructuredContent)
	refusal := true
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Errorf("locked client's include_untrusted: decoding %s: %v", raw, err)
		refusal = false
	}
	if !res.IsError {
		t.Errorf("locked client's include_untrusted: isError = false, want a refusal: %s", raw)
		refusal = false
	}
	if e.Code != contract.CodeInvalidField {
		t.Errorf("locked client's include_untrusted: code = %q, want %q", e.Code, contract.CodeInvalidField)
		refusal = false
	}
	if e.Repair == nil {
		t.Errorf("locked client's include_untrusted: no repair, want one: %s", raw)
		refusal = false
	}
	if refusal {
		again, _ := json.Marshal(e.Repair.Arguments)
		if strings.Contains(string(again), "include_untrusted") {
			t.Errorf("locked client's include_untrusted: repair arguments = %s, want none naming include_untrusted", again)
		}
		if !strings.Contains(string(again), `"widgets"`) {
			t.Errorf("locked client's include_untrusted: repair arguments = %s, want them to keep \"widgets\"", again)
		}
	}

	allowed := connectAs(t, url, includeKey)
	if !lists(allowed) {
		t.Error("include client: include_untrusted is not listed")
	}
	if text := callText(t, allowed, toolkit.NameGetIssue, issue); strings.Contains(text, daveSays) {
		t.Errorf("include client without include_untrusted: dave's body shown")
	}
	if text := callText(t, allowed, toolkit.NameGetIssue, include); !strings.Contains(text, daveSays) {
		t.Errorf("include client with include_untrusted: %s", text)
	}
	// The audit line is written as the answer goes out: wait for it.
	var named []string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		named = includeAudited(t, stderr.String())
		if len(named) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if !slices.Equal(named, []string{"include:acme/widgets"}) {
		t.Errorf("audit lines naming include_untrusted: %v, want the include client's one on acme/widgets", named)
	}
}

// includeAudited lists "client:repo" for each audit line's
// include_untrusted repository.
func includeAudited(t *testing.T, log string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(log, "\n") {
		var l struct {
			Msg              string   `json:"msg"`
			Client           string   `json:"client"`
			IncludeUntrusted []string `json:"include_untrusted"`
		}
		if json.Unmarshal([]byte(line), &l) != nil || l.Msg != "call" {
			continue
		}
		for _, r := range l.IncludeUntrusted {
			out = append(out, l.Client+":"+r)
		}
	}
	return out
}

// lockdown and allow_include_untrusted come from the config file and
// yield to the flags.
func TestServeLockdownSettings(t *testing.T) {
	c, err := parseServe(t, nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Lockdown != (toolkit.Lockdown{}) {
		t.Fatalf("default %+v, want off", c.Lockdown)
	}
	c, err = parseServe(t, nil, "lockdown = true\nallow_include_untrusted = true\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Lockdown != (toolkit.Lockdown{On: true, AllowInclude: true}) {
		t.Fatalf("from the file: Lockdown = %+v, want %+v", c.Lockdown, toolkit.Lockdown{On: true, AllowInclude: true})
	}
	c, err = parseServe(t, []string{"--allow-include-untrusted=false"}, "lockdown = true\nallow_include_untrusted = true\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Lockdown != (toolkit.Lockdown{On: true}) {
		t.Fatalf("a flag over the file: Lockdown = %+v, want %+v", c.Lockdown, toolkit.Lockdown{On: true})
	}
	c, err = parseServe(t, []string{"--lockdown"}, "", nil)
	if err != nil {
		t.Fatalf("--lockdown: %v", err)
	}
	if c.Lockdown != (toolkit.Lockdown{On: true}) {
		t.Errorf("--lockdown: Lockdown = %+v, want %+v", c.Lockdown, toolkit.Lockdown{On: true})
	}
}
