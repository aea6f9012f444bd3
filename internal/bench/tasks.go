package bench

import (
	"context"
	"fmt"

	"github.com/ghgate/ghgate/internal/emulator"
)

// task is a scripted agent task and the fewest REST calls it can take.
type task struct {
	name    string
	minimum int
	why     string
	calls   []call
}

type call struct {
	tool string
	args map[string]any
}

// statusIssue finds an open issue carrying a "status: " label.
func statusIssue(r *rig) (int, error) {
	st := r.emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	for _, is := range st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Issues {
		if is.IsPull || is.Deleted || is.State != "open" {
			continue
		}
		for _, l := range is.Labels {
			if l.Name == "status: triage" {
				return is.Number, nil
			}
		}
	}
	return 0, fmt.Errorf("no open issue labelled status: triage")
}

// Tasks runs the scripted write tasks and reports the upstream calls each
// took beside the REST minimum.
func Tasks(ctx context.Context) ([]Figure, error) {
	r, err := newRig(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer r.close()
	swapOn, err := statusIssue(r)
	if err != nil {
		return nil, err
	}
	repo := func(extra map[string]any) map[string]any {
		m := map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	create := call{"github_create_issue", repo(map[string]any{"title": "Chart legend overlaps the axis on narrow screens",
		"labels": []string{"bug", "priority: high"}, "milestone": 1})}
	tasks := []task{
		{name: "swap a status label", minimum: 3,
			why:   "read the labels, add one, remove one; a PUT of the whole set would be 2 but overwrites concurrent edits",
			calls: []call{{"github_update_issue", repo(map[string]any{"issue_number": swapOn, "labels": map[string]any{"swap": map[string]any{"prefix": "status: ", "to": "status: in progress"}}})}}},
		{name: "close as duplicate with a comment", minimum: 2, why: "PATCH the state, POST the comment",
			calls: []call{
				{"github_update_issue", repo(map[string]any{"issue_number": emulator.DemoUntriagedFrom, "state": "closed", "state_reason": "duplicate"})},
				{"github_add_comment", repo(map[string]any{"issue_number": emulator.DemoUntriagedFrom, "body": fmt.Sprintf("Duplicate of #%d", emulator.DemoManyCommentsIssue)})}}},
		{name: "create with labels and a milestone, names not seen before", minimum: 1,
			why: "one POST; ghgate first confirms the names in one read, as GitHub would create a misspelled label silently", calls: []call{create}},
		{name: "create with labels and a milestone, names confirmed", minimum: 1, why: "one POST",
			calls: []call{{"github_create_issue", repo(map[string]any{"title": "Chart tooltip shows stale values after zoom", "labels": []string{"bug", "priority: high"}, "milestone": 1})}}},
	}
	// An agent that lists labels and milestones first (as one deciding
	// which to use does) pays for the listing, and the create is one POST.
	fresh, err := newRig(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer fresh.close()
	for _, kind := range []string{"labels", "milestones"} {
		if _, err := fresh.call(ctx, "github_list_repo_metadata", repo(map[string]any{"kind": kind})); err != nil {
			return nil, err
		}
	}
	fresh.meter.take()
	if _, err := fresh.call(ctx, "github_create_issue", repo(map[string]any{"title": "Export dialog forgets the chosen format",
		"labels": []string{"bug", "priority: high"}, "milestone": 1})); err != nil {
		return nil, err
	}
	listed, _ := fresh.meter.take()
	var figs []Figure
	for _, t := range tasks {
		r.meter.take()
		for _, c := range t.calls {
			if _, err := r.call(ctx, c.tool, c.args); err != nil {
				return figs, fmt.Errorf("%s: %w", t.name, err)
			}
		}
		reqs, _ := r.meter.take()
		figs = append(figs, Figure{Name: "upstream calls: " + t.name, Value: float64(len(reqs)), Unit: "calls",
			Note: fmt.Sprintf("REST minimum %d: %s", t.minimum, t.why)})
	}
	figs = append(figs, Figure{Name: "upstream calls: create with labels and a milestone, after listing them", Value: float64(len(listed)),
		Unit: "calls", Note: "REST minimum 1: the listing confirmed the names"})
	return figs, nil
}
