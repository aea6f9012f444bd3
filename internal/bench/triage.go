package bench

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ghgate/ghgate/internal/emulator"
)

// triageLabel is what the scripted triage puts on each unlabelled issue.
const triageLabel = "status: triage"

// triageRow is what the triage script reads from a search row. Labels is
// a pointer so that an absent field and an empty list differ, as they
// differ to an agent.
type triageRow struct {
	Number int       `json:"number"`
	Labels *[]string `json:"labels"`
}

type triagePage struct {
	Items      []triageRow `json:"items"`
	NextCursor string      `json:"next_cursor"`
}

// triageRun is what one pass of the triage script spent.
type triageRun struct {
	bytes, calls, upstream, labelled, rows int
	detail                                 string
}

// Triage runs a maintainer's triage the way the tool list invites an agent
// to do it: list the open issues of acme/widgets in summary rows, find those
// without a label, and label each. Where summary rows leave the labels out
// of an issue that has none, "none" cannot be told from "not included", so
// the script reads the same listing again at full detail, as the agents
// did. It reports the bytes the tools returned and the calls made.
func Triage(ctx context.Context) ([]Figure, error) {
	r, err := newRig(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer r.close()
	r.meter.take()
	run, err := triage(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("triage: %w", err)
	}
	reqs, _ := r.meter.take()
	run.upstream = len(reqs)
	if err := noneUnlabelled(ctx, r); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("%d open issues read at %s detail, %d unlabelled ones labelled", run.rows, run.detail, run.labelled)
	return []Figure{
		{Name: "triage task: bytes returned (find unlabelled open issues, label each)", Value: float64(run.bytes), Unit: "bytes", Note: note},
		{Name: "triage task: tool calls", Value: float64(run.calls), Unit: "calls"},
		{Name: "triage task: upstream calls", Value: float64(run.upstream), Unit: "calls"},
	}, nil
}

func triage(ctx context.Context, r *rig) (triageRun, error) {
	run := triageRun{detail: "summary"}
	rows, explicit, err := triageList(ctx, r, &run, "summary")
	if err != nil {
		return run, err
	}
	if !explicit {
		run.detail = "summary, then full"
		if rows, _, err = triageList(ctx, r, &run, "full"); err != nil {
			return run, err
		}
	}
	run.rows = len(rows)
	for _, row := range rows {
		if row.Labels != nil && len(*row.Labels) > 0 {
			continue
		}
		text, err := r.call(ctx, "github_update_issue", map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo,
			"issue_number": row.Number, "labels": map[string]any{"add": []string{triageLabel}}})
		if err != nil {
			return run, err
		}
		run.bytes += len(text)
		run.calls++
		run.labelled++
	}
	if run.labelled == 0 {
		return run, fmt.Errorf("found no unlabelled open issue in %d rows", len(rows))
	}
	return run, nil
}

// triageList pages through the open issues at a detail level. explicit
// reports whether every row states its labels, even as [].
func triageList(ctx context.Context, r *rig, run *triageRun, detail string) (rows []triageRow, explicit bool, err error) {
	explicit = true
	cursor := ""
	for {
		args := map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "state": "open", "page_size": 100, "detail": detail}
		if cursor != "" {
			args["cursor"] = cursor
		}
		text, err := r.call(ctx, "github_search_issues", args)
		if err != nil {
			return nil, false, err
		}
		run.bytes += len(text)
		run.calls++
		var page triagePage
		if err := json.Unmarshal([]byte(text), &page); err != nil {
			return nil, false, err
		}
		for _, row := range page.Items {
			explicit = explicit && row.Labels != nil
		}
		rows = append(rows, page.Items...)
		if page.NextCursor == "" {
			return rows, explicit, nil
		}
		cursor = page.NextCursor
	}
}

// noneUnlabelled checks the triage's effect: no open issue is left without
// a label. It is not counted in the task's figures.
func noneUnlabelled(ctx context.Context, r *rig) error {
	text, err := r.call(ctx, "github_search_issues", map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo,
		"state": "open", "no_labels": true})
	if err != nil {
		return err
	}
	var out struct {
		Total int `json:"total_count"`
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return err
	}
	if out.Total != 0 {
		return fmt.Errorf("triage left %d open issues without a label", out.Total)
	}
	return nil
}
