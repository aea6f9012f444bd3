package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListingAttempts is how many listings the bench asks each path for within
// one minute of the emulator's clock, which stands still meanwhile: the
// figure is what GitHub's budgets let through in a minute, whatever this
// machine's speed.
const ListingAttempts = 200

// listingMix is what a team of agents lists: open issues, closed ones, by
// label, recently updated, unassigned without a milestone, one author's.
// Each is walked up to three pages deep, and between rounds one agent
// edits an issue, so a repeat is not always answered from the cache: a
// world nobody writes to would let either path reread free (GitHub
// answers an unchanged search 304 too).
var listingMix = []map[string]any{
	{"owner": "acme", "repo": "widgets"},
	{"owner": "acme", "repo": "widgets", "state": "closed"},
	{"owner": "acme", "repo": "widgets", "labels": []string{"bug"}},
	{"owner": "acme", "repo": "widgets", "state": "all", "page_size": 50, "sort": "updated"},
	{"owner": "acme", "repo": "widgets", "assignee": "none", "query": "no:milestone"},
	{"owner": "acme", "repo": "gadgets", "author": "alice"},
}

// searchOnly makes a listing need the search API without changing its
// rows: every issue has at least no comments.
const searchOnly = "comments:>=0"

// listingRun is what one path did with its listings.
type listingRun struct {
	ok, refused       int
	coreUsed, srchUse int
	rows, rowBytes    int // rows read in the first round, and their bytes as the items array carries them
	respBytes         int // whole responses of the first round
	source            string
}

// Listing measures github_search_issues' two paths on one token with
// GitHub's default budgets (core 5,000 an hour, search 30 a minute): the
// same mix of plain listings answered by the issues list endpoint, and
// again with a search-only qualifier that sends them to search and leaves
// the rows as they were. Each path is asked for attempts listings.
func Listing(ctx context.Context, attempts int) ([]Figure, error) {
	list, err := listingPath(ctx, false, attempts)
	if err != nil {
		return nil, fmt.Errorf("listing (list path): %w", err)
	}
	search, err := listingPath(ctx, true, attempts)
	if err != nil {
		return nil, fmt.Errorf("listing (search path): %w", err)
	}
	if list.source != "list" || search.source != "search" {
		return nil, fmt.Errorf("listing: paths answered %q and %q, want list and search", list.source, search.source)
	}
	perRow := func(r listingRun) float64 { return float64(r.rowBytes) / float64(max(r.rows, 1)) }
	perMinute := 5000.0 / 60 / (float64(list.coreUsed) / float64(list.ok))
	return []Figure{
		{Name: "listings in one minute on one token, a write between rounds: list path", Value: float64(list.ok), Unit: "listings",
			Note: fmt.Sprintf("%d attempted, %d refused; core spent %d with the writes (changed pages read again, the rest 304), search 0", attempts, list.refused, list.coreUsed)},
		{Name: "listings in one minute on one token, a write between rounds: search path", Value: float64(search.ok), Unit: "listings",
			Note: fmt.Sprintf("%d attempted, %d refused as rate_limited; search spent %d of its 30 a minute", attempts, search.refused, search.srchUse)},
		{Name: "list path: listings a minute the core budget sustains at this mix", Value: perMinute, Unit: "listings",
			Note: fmt.Sprintf("5,000 an hour over %d core spent per %d listings, writes included", list.coreUsed, list.ok)},
		{Name: "bytes per summary row: list path", Value: perRow(list), Unit: "bytes",
			Note: fmt.Sprintf("%d rows; whole responses %.1f bytes a row", list.rows, float64(list.respBytes)/float64(max(list.rows, 1)))},
		{Name: "bytes per summary row: search path", Value: perRow(search), Unit: "bytes",
			Note: fmt.Sprintf("%d rows; whole responses %.1f bytes a row (with search's freshness note)", search.rows, float64(search.respBytes)/float64(max(search.rows, 1)))},
	}, nil
}

// listingPath runs attempts listings of the mix within one frozen
// emulator minute, through search when viaSearch.
func listingPath(ctx context.Context, viaSearch bool, attempts int) (listingRun, error) {
	frozen := time.Now()
	r, err := newRigOn(ctx, nil, emulator.Options{Now: func() time.Time { return frozen }})
	if err != nil {
		return listingRun{}, err
	}
	defer r.close()
	var run listingRun
	touched := 0 // the issue the team's write touches, once a listing has shown one
	for calls, round := 0, 0; calls < attempts; round++ {
		if touched > 0 {
			// Between rounds one agent writes, as a team does: pages that
			// show the issue, or sort by update, change and are read again.
			title := fmt.Sprintf("Edited by the team, round %d", round)
			if text, isErr, err := r.try(ctx, "github_update_issue", map[string]any{"owner": "acme", "repo": "widgets",
				"issue_number": touched, "title": title}); err != nil || isErr {
				return run, fmt.Errorf("round %d write: %v %s", round, err, text)
			}
		}
		for _, base := range listingMix {
			args := map[string]any{}
			for k, v := range base {
				args[k] = v
			}
			if viaSearch {
				q, _ := args["query"].(string)
				args["query"] = searchOnly + " " + q
			}
			for page := 0; page < 3 && calls < attempts; page++ {
				calls++
				text, isErr, err := r.try(ctx, "github_search_issues", args)
				if err != nil {
					return run, err
				}
				if isErr {
					var e struct {
						Code string `json:"code"`
					}
					if json.Unmarshal([]byte(text), &e) != nil || e.Code != "rate_limited" {
						return run, fmt.Errorf("listing %d: %s", calls, text)
					}
					run.refused++
					break
				}
				var out struct {
					Items      []json.RawMessage `json:"items"`
					NextCursor string            `json:"next_cursor"`
					Source     string            `json:"source"`
				}
				if err := json.Unmarshal([]byte(text), &out); err != nil {
					return run, err
				}
				run.ok++
				run.source = out.Source
				if touched == 0 && len(out.Items) > 0 {
					var first struct {
						Number int `json:"number"`
					}
					if err := json.Unmarshal(out.Items[0], &first); err != nil {
						return run, err
					}
					touched = first.Number
				}
				if round == 0 {
					// Before any write both paths read the same rows.
					run.rows += len(out.Items)
					for _, it := range out.Items {
						run.rowBytes += len(it) + 1 // the comma between rows
					}
					run.respBytes += len(text)
				}
				if out.NextCursor == "" {
					break
				}
				args["cursor"] = out.NextCursor
			}
		}
	}
	if run.coreUsed, err = budgetUsed(ctx, r.emu.URL, "core"); err != nil {
		return run, err
	}
	run.srchUse, err = budgetUsed(ctx, r.emu.URL, "search")
	if err == nil && !viaSearch && run.srchUse != 0 {
		err = fmt.Errorf("plain listings spent %d of the search budget", run.srchUse)
	}
	return run, err
}

// try runs one tool and returns its text block and whether it is an error
// result; err is for failures of the session itself.
func (r *rig) try(ctx context.Context, tool string, args any) (string, bool, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return "", false, err
	}
	res, err := r.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(raw)})
	if err != nil {
		return "", false, err
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError, nil
}

// budgetUsed reads how much of resource alice's token has spent (reading
// the budget is free).
func budgetUsed(ctx context.Context, base, resource string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/rate_limit", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+emulator.DemoTokenAlice)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	var rl struct {
		Resources map[string]struct {
			Used int `json:"used"`
		} `json:"resources"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rl); err != nil {
		return 0, err
	}
	return rl.Resources[resource].Used, nil
}
