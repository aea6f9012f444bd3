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
	// check, when set, confirms in the emulator that the task did what
	// it is named for.
	check func(r *rig) error
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

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// closedAsDuplicate confirms that issue n is closed as a duplicate and
// that the emulator, as GitHub, records original as what it duplicates.
func closedAsDuplicate(r *rig, n, original int) error {
	st := r.emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	is := st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Issue(n)
	switch {
	case is == nil:
		return fmt.Errorf("no issue #%d", n)
	case is.State != "closed" || is.StateReason == nil || *is.StateReason != "duplicate":
		return fmt.Errorf("#%d is %s, not closed as a duplicate", n, is.State)
	case is.DuplicateOf == nil || is.DuplicateOf.Number != original:
		return fmt.Errorf("#%d does not record #%d as its original", n, original)
	}
	return nil
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
	labelled := []string{"bug", "priority: high"}
	create := func(title string) call {
		return call{"github_create_issue", repo(map[string]any{"title": title, "labels": labelled, "milestone": 1})}
	}
	tasks := []task{
		{name: "swap a status label", minimum: 3,
			why:   "without overwriting concurrent label edits, and returning the new version: read the issue (its labels, and the state the version covers), add one, remove one (a PUT of the whole set is 2, but drops what others changed meanwhile)",
			calls: []call{{"github_update_issue", repo(map[string]any{"issue_number": swapOn, "labels": map[string]any{"swap": map[string]any{"prefix": "status: ", "to": "status: in progress"}}})}}},
		// GitHub records the original itself ("marked this as a duplicate
		// of #N"), so no comment is needed to name it.
		{name: "close as a duplicate of a named issue", minimum: 2,
			why: "GraphQL calls: both issues' ids in one query, then closeIssue with duplicateIssueId; ghgate reads the issue first too, " +
				"to report what changed (a PATCH with state_reason duplicate is 1, but records no original: a comment naming it makes 2)",
			calls: []call{{"github_update_issue", repo(map[string]any{"issue_number": emulator.DemoUntriagedFrom, "state": "closed",
				"state_reason": "duplicate", "duplicate_of": emulator.DemoManyCommentsIssue})}},
			check: func(r *rig) error {
				return closedAsDuplicate(r, emulator.DemoUntriagedFrom, emulator.DemoManyCommentsIssue)
			}},
		{name: "create with labels and a milestone, first call on the repo", minimum: 2,
			why:   "without creating a misspelled label: one read, then the POST (the POST alone is 1, but GitHub silently creates any label it does not know; gh issue create also resolves names first)",
			calls: []call{create("Chart legend overlaps the axis on narrow screens")}},
		{name: "create with labels and a milestone, names confirmed", minimum: 1, why: "REST call: the POST",
			calls: []call{create("Chart tooltip shows stale values after zoom")}},
	}
	// An agent usually reads before it writes: it searches for duplicates,
	// or lists the labels to choose from. Either confirms the names, and the
	// create is then the POST alone. Each runs on a fresh server.
	before := []struct {
		name string
		read call
	}{
		{"after a search for duplicates", call{"github_search_issues", repo(map[string]any{"labels": labelled, "state": "all"})}},
		{"after listing labels", call{"github_list_repo_metadata", repo(map[string]any{"kind": "labels"})}},
	}
	var afterRead []Figure
	for _, b := range before {
		fresh, err := newRig(ctx, nil)
		if err != nil {
			return nil, err
		}
		defer fresh.close()
		if _, err := fresh.call(ctx, b.read.tool, b.read.args); err != nil {
			return nil, err
		}
		fresh.meter.take()
		if _, err := fresh.call(ctx, "github_create_issue", create("Export dialog forgets the chosen format").args); err != nil {
			return nil, err
		}
		reqs, _ := fresh.meter.take()
		afterRead = append(afterRead, Figure{Name: "upstream calls: create with labels and a milestone, " + b.name, Value: float64(len(reqs)),
			Unit: "calls", Note: "minimum 1 REST call: the read confirmed the labels, and GitHub itself refuses an unknown milestone"})
	}
	var figs []Figure
	for _, t := range tasks {
		r.meter.take()
		returned := 0
		for _, c := range t.calls {
			text, err := r.call(ctx, c.tool, c.args)
			if err != nil {
				return figs, fmt.Errorf("%s: %w", t.name, err)
			}
			returned += len(text)
		}
		reqs, _ := r.meter.take()
		if t.check != nil {
			if err := t.check(r); err != nil {
				return figs, fmt.Errorf("%s: %w", t.name, err)
			}
		}
		figs = append(figs, Figure{Name: "upstream calls: " + t.name, Value: float64(len(reqs)), Unit: "calls",
			Note: fmt.Sprintf("%s returned %d bytes; minimum %d %s", plural(len(t.calls), "tool call"), returned, t.minimum, t.why)})
	}
	return append(figs, afterRead...), nil
}
