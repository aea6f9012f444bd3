package upstream

import (
	"context"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// ownerTokens routes acme to one credential and every other owner to the
// fallback, per mode, as the broker's router does.
type ownerTokens struct{ acmeRead, acmeWrite, otherRead, otherWrite string }

func (o ownerTokens) Token(_ context.Context, owner string, mode tooldef.Mode) (string, string, error) {
	acme := strings.EqualFold(owner, "acme")
	switch {
	case acme && mode == tooldef.Read:
		return o.acmeRead, "acme-read", nil
	case acme:
		return o.acmeWrite, "acme-write", nil
	case mode == tooldef.Read:
		return o.otherRead, "fallback-read", nil
	case mode == tooldef.Write:
		return o.otherWrite, "fallback-write", nil
	}
	return "", "", contract.Errorf(contract.CodeMissingCredential, "no route")
}

// The owner a call targets chooses the credential an upstream tool acts
// with, and each credential gets its own child.
func TestUpstreamCallsRouteByTargetOwner(t *testing.T) {
	w := newWorld(t)
	aliceWrite := canaryToken(t, "al")
	st := w.emu.Emu.State()
	st.Lock()
	st.AddToken(&emulator.Token{Value: aliceWrite, Login: "alice"})
	st.Unlock()
	tr, log := newTranscript(t, w.readTok, w.writeTok, aliceWrite)
	tokens := ownerTokens{acmeRead: w.readTok, acmeWrite: w.writeTok, otherRead: aliceWrite, otherWrite: aliceWrite}
	p := connect(t, childConfig(t, w), tokens, tr, Options{Log: log})
	cs := serve(t, p)

	if isErr, out := call(t, tr, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "routed to acme"}); isErr {
		t.Fatalf("acme create: %v", out)
	}
	if isErr, out := call(t, tr, cs, "github_create_issue", map[string]any{"owner": "alice", "repo": "notes", "title": "routed to the fallback"}); isErr {
		t.Fatalf("alice create: %v", out)
	}
	if got := w.author("routed to acme"); got != "bob" {
		t.Fatalf("the acme write acted as %q, want bob (acme's write credential)", got)
	}
	st.Lock()
	var author string
	for _, is := range st.Repo("alice", "notes").Issues {
		if is != nil && is.Title == "routed to the fallback" && is.User != nil {
			author = is.User.Login
		}
	}
	st.Unlock()
	if author != "alice" {
		t.Fatalf("the alice/notes write acted as %q, want alice (the fallback credential)", author)
	}
	p.slotsMu.Lock()
	n := len(p.slots)
	p.slotsMu.Unlock()
	if n < 3 { // the listing's read child, and one write child per route
		t.Fatalf("%d credential slots, want one per credential used", n)
	}
}
