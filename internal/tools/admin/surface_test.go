package admin_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/admin"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// The issue tools trust label names they confirmed a few minutes ago. A
// label deleted here must not stay trusted: GitHub re-creates a label an
// issue write names, so a stale name would bring it back unasked.
func TestDeletedLabelIsNotTrustedByTheIssueTools(t *testing.T) {
	env := start(t, "")
	// A listing confirms every label, wontfix among them.
	servertest.CallOK[map[string]any](t, env, toolkit.NameListRepoMetadata, map[string]any{"owner": "acme", "repo": "widgets", "kind": "labels"})
	servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "delete", Name: "wontfix"}))
	e := refused(t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": deletable,
		"labels": map[string]any{"add": []string{"wontfix"}}})
	contracttest.Envelope(t, "adding the deleted label", e, contract.CodeLabelNotFound, contract.NotStarted)
	inWidgets(env, func(r *emulator.Repo) {
		if r.FindLabel("wontfix") != nil {
			t.Fatal("label wontfix stored again, want it to stay deleted")
		}
	})
}

// The capability summary says what the admin toolset does when it is
// served, and that it exists when it is not.
func TestCapabilitiesNameTheAdminToolset(t *testing.T) {
	with := start(t, "").Stack.Server.Summary()
	for _, s := range []string{"admin toolset:", toolkit.NameDeleteIssue} {
		if !strings.Contains(with, s) {
			t.Errorf("served, the summary lacks %q; it says:\n%s", s, with)
		}
	}
	if strings.Contains(with, "- delete issues") {
		t.Errorf("served, the summary has %q, want none; it says:\n%s", "- delete issues", with)
	}
	without := servertest.Start(t, servertest.Options{}).Stack.Server.Summary()
	if strings.Contains(without, "admin toolset:") {
		t.Errorf("not served, the summary has %q, want none; it says:\n%s", "admin toolset:", without)
	}
	for _, s := range []string{"- delete issues", "the admin toolset does them"} {
		if !strings.Contains(without, s) {
			t.Errorf("not served, the summary lacks %q; it says:\n%s", s, without)
		}
	}
}
