package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// answerTask is a question an agent asks in the middle of its work, scripted
// two ways: the calls it needed while an answer did not say what it wanted
// to know (so it read again, or read everything, to find out), and the
// calls it needs now that one answer says it. Both run against the same
// server; the last answer of the direct script is checked to state the
// fact, so the figure counts a path that really answers the question.
type answerTask struct {
	name string
	// reread and direct each act on fixtures of their own (writes change
	// state).
	reread, direct func(ctx context.Context, a *asker, f answerFixtures) error
	// says checks the direct script's last answer for the fact.
	says func(f answerFixtures, last answer) error
}

// answer is one tool result's text and whether it is an error result.
type answer struct {
	text  string
	isErr bool
}

// asker runs tool calls and counts them and the bytes they returned.
type asker struct {
	r     *rig
	calls int
	bytes int
	last  answer
}

func (a *asker) ask(ctx context.Context, tool string, args map[string]any) (answer, error) {
	text, isErr, err := a.r.try(ctx, tool, args)
	if err != nil {
		return answer{}, err
	}
	a.calls++
	a.bytes += len(text)
	a.last = answer{text, isErr}
	return a.last, nil
}

// answerFixtures are what the tasks act on, in the demo's widgets
// repository: two pairs of open, unlocked issues without dependencies to
// link, and a long thread (longThreadComments comments, one a pasted log)
// with the id of a comment on its second page and the time its last few
// comments start.
type answerFixtures struct {
	rereadPair, directPair [2]int
	thread                 int
	deepComment            int64
	recentSince            time.Time
	recentComments         int
	// archived names the fleet organization's archived repositories.
	archived map[string]bool
}

// longThreadComments is the long thread's length: two pages of
// github_get_issue's 30.
const longThreadComments = 45

func pickAnswerFixtures(emu *emulator.Emulator) (answerFixtures, error) {
	var f answerFixtures
	st := emu.State()
	st.Lock()
	defer st.Unlock()
	repo := st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo)
	var found []int
	for _, is := range repo.Issues {
		if is.IsPull || is.Deleted || is.Locked || is.State != "open" || len(is.BlockedBy) > 0 || is.Number < 100 {
			continue
		}
		found = append(found, is.Number)
		if len(found) == 5 {
			break
		}
	}
	if len(found) < 5 {
		return f, fmt.Errorf("the seed has %d open unlocked issues without dependencies past #100, want 5", len(found))
	}
	f.rereadPair, f.directPair = [2]int{found[0], found[1]}, [2]int{found[2], found[3]}
	// The thread: comments a day apart up to now, the tenth a pasted log.
	thread := repo.Issue(found[4])
	f.thread = thread.Number
	start := st.Now().Add(-longThreadComments * 24 * time.Hour)
	for i := len(thread.Comments); i < longThreadComments; i++ {
		body := fmt.Sprintf("Comment %d: still seen on main.", i+1)
		if i == 9 {
			body = "Full log:\n```\n" + strings.Repeat("2026-12-01T10:00:00Z worker-3 retrying fetch of widget 42 after timeout\n", 400) + "```"
		}
		st.AddComment(thread, thread.User, body, start.Add(time.Duration(i)*24*time.Hour))
	}
	f.archived = map[string]bool{}
	for _, r := range st.Repos() {
		if r.Owner.Login == emulator.FleetOrg && r.Archived {
			f.archived[r.Name] = true
		}
	}
	if len(f.archived) == 0 {
		return f, fmt.Errorf("the fleet has no archived repository")
	}
	f.deepComment = thread.Comments[40].ID
	f.recentComments = 3
	f.recentSince = thread.Comments[len(thread.Comments)-f.recentComments].CreatedAt
	return f, nil
}

func widgets(extra map[string]any) map[string]any {
	m := map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// pages reads tool's pages, passing each answer's cursor field back as
// the cursor argument, until none is left or stop says the fact was found.
func pages(ctx context.Context, a *asker, tool string, args map[string]any, nextField, cursorArg string, stop func(answer) bool) error {
	for {
		got, err := a.ask(ctx, tool, args)
		if err != nil || got.isErr {
			return fmt.Errorf("%s: %v %s", tool, err, truncate(got.text, 200))
		}
		if stop != nil && stop(got) {
			return nil
		}
		var page map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got.text), &page); err != nil {
			return err
		}
		var next string
		_ = json.Unmarshal(page[nextField], &next)
		if next == "" {
			return nil
		}
		args = widgets(args)
		args[cursorArg] = next
	}
}

func answerTasks() []answerTask {
	link := func(ctx context.Context, a *asker, pair [2]int) error {
		_, err := a.ask(ctx, "github_link_issues", widgets(map[string]any{"issue_number": pair[0], "relation": "blocked_by",
			"action": "add", "target_issue_number": pair[1]}))
		return err
	}
	// "area: ux" is a misspelling of the seed's "area: ui".
	misspelled := widgets(map[string]any{"labels": []string{"area: ux"}})
	return []answerTask{
		{name: "link a dependency and learn which way it points",
			reread: func(ctx context.Context, a *asker, f answerFixtures) error {
				if err := link(ctx, a, f.rereadPair); err != nil {
					return err
				}
				_, err := a.ask(ctx, "github_list_issue_items", widgets(map[string]any{"issue_number": f.rereadPair[0], "collection": "blocked_by"}))
				return err
			},
			direct: func(ctx context.Context, a *asker, f answerFixtures) error { return link(ctx, a, f.directPair) },
			says: func(f answerFixtures, last answer) error {
				var got struct {
					Relation struct {
						BlockedBy string `json:"blocked_by"`
						Linked    bool   `json:"linked"`
					} `json:"relation"`
				}
				if err := json.Unmarshal([]byte(last.text), &got); err != nil || last.isErr {
					return fmt.Errorf("link answered %s", truncate(last.text, 200))
				}
				want := fmt.Sprintf("%s/%s#%d", emulator.DemoOrg, emulator.DemoWidgetsRepo, f.directPair[1])
				if got.Relation.BlockedBy != want || !got.Relation.Linked {
					return fmt.Errorf("relation %+v, want blocked_by %s, linked", got.Relation, want)
				}
				return nil
			}},
		{name: "search by a misspelled label",
			reread: func(ctx context.Context, a *asker, _ answerFixtures) error {
				if _, err := a.ask(ctx, "github_search_issues", misspelled); err != nil {
					return err
				}
				_, err := a.ask(ctx, "github_list_repo_metadata", widgets(map[string]any{"kind": "labels"}))
				return err
			},
			direct: func(ctx context.Context, a *asker, _ answerFixtures) error {
				_, err := a.ask(ctx, "github_search_issues", misspelled)
				return err
			},
			says: func(_ answerFixtures, last answer) error {
				if !last.isErr || !strings.Contains(last.text, "label_not_found") || !strings.Contains(last.text, "area: ui") {
					return fmt.Errorf("want label_not_found naming area: ui, got %s", truncate(last.text, 300))
				}
				return nil
			}},
		{name: "read one comment of a long thread, by its id",
			reread: func(ctx context.Context, a *asker, f answerFixtures) error {
				id := fmt.Sprintf(`"id":%d,`, f.deepComment)
				return pages(ctx, a, "github_get_issue", widgets(map[string]any{"issue_number": f.thread}), "comments_next_cursor", "comments_cursor",
					func(got answer) bool { return strings.Contains(got.text, id) })
			},
			direct: func(ctx context.Context, a *asker, f answerFixtures) error {
				_, err := a.ask(ctx, "github_get_issue", widgets(map[string]any{"issue_number": f.thread, "comment_id": f.deepComment}))
				return err
			},
			says: func(f answerFixtures, last answer) error {
				var got struct {
					Comment struct {
						ID int64 `json:"id"`
					} `json:"comment"`
				}
				if err := json.Unmarshal([]byte(last.text), &got); err != nil || last.isErr || got.Comment.ID != f.deepComment {
					return fmt.Errorf("want comment %d, got %s", f.deepComment, truncate(last.text, 200))
				}
				return nil
			}},
		// Before an owner's repositories could be listed, an agent told the
		// archived ones by what an owner-wide report skipped.
		{name: "which of an owner's repositories are archived",
			reread: func(ctx context.Context, a *asker, _ answerFixtures) error {
				_, err := a.ask(ctx, "github_report_unlabeled", map[string]any{"owner": emulator.FleetOrg, "max_repos": 200})
				return err
			},
			direct: func(ctx context.Context, a *asker, _ answerFixtures) error {
				_, err := a.ask(ctx, "github_list_repo_metadata", map[string]any{"owner": emulator.FleetOrg, "kind": "repositories"})
				return err
			},
			says: func(f answerFixtures, last answer) error {
				var got struct {
					Items []struct {
						Name     string `json:"name"`
						Archived *bool  `json:"archived"`
					} `json:"items"`
					HasMore bool `json:"has_more"`
				}
				if err := json.Unmarshal([]byte(last.text), &got); err != nil || last.isErr || got.HasMore {
					return fmt.Errorf("want the whole fleet on one page, got %s", truncate(last.text, 200))
				}
				listed := 0
				for _, r := range got.Items {
					if r.Archived == nil || *r.Archived != f.archived[r.Name] {
						return fmt.Errorf("%s listed archived %v, want %v", r.Name, r.Archived, f.archived[r.Name])
					}
					if f.archived[r.Name] {
						listed++
					}
				}
				if listed != len(f.archived) {
					return fmt.Errorf("%d archived repositories listed, want %d", listed, len(f.archived))
				}
				return nil
			}},
		{name: "read the comments since a time",
			reread: func(ctx context.Context, a *asker, f answerFixtures) error {
				return pages(ctx, a, "github_list_issue_items", widgets(map[string]any{"issue_number": f.thread, "collection": "comments", "page_size": 100}),
					"next_cursor", "cursor", nil)
			},
			direct: func(ctx context.Context, a *asker, f answerFixtures) error {
				_, err := a.ask(ctx, "github_list_issue_items", widgets(map[string]any{"issue_number": f.thread, "collection": "comments",
					"since": f.recentSince.UTC().Format(time.RFC3339)}))
				return err
			},
			says: func(f answerFixtures, last answer) error {
				var got struct {
					Items []struct {
						ID int64 `json:"id"`
					} `json:"items"`
				}
				if err := json.Unmarshal([]byte(last.text), &got); err != nil || last.isErr || len(got.Items) != f.recentComments {
					return fmt.Errorf("want the last %d comments, got %s", f.recentComments, truncate(last.text, 200))
				}
				return nil
			}},
	}
}

// Answers runs each answerTask both ways on one server and reports the
// tool calls and bytes each way took.
func Answers(ctx context.Context) ([]Figure, error) {
	r, err := newRigOn(ctx, []string{"issues", "reports"}, emulator.Options{CoreLimit: 1_000_000, SearchLimit: 1_000_000, FleetRepos: emulator.DemoFleetRepos})
	if err != nil {
		return nil, err
	}
	defer r.close()
	fix, err := pickAnswerFixtures(r.emu.Emu)
	if err != nil {
		return nil, err
	}
	var figs []Figure
	for _, t := range answerTasks() {
		before, now := &asker{r: r}, &asker{r: r}
		if err := t.reread(ctx, before, fix); err != nil {
			return figs, fmt.Errorf("%s (reread): %w", t.name, err)
		}
		if err := t.direct(ctx, now, fix); err != nil {
			return figs, fmt.Errorf("%s: %w", t.name, err)
		}
		if err := t.says(fix, now.last); err != nil {
			return figs, fmt.Errorf("%s: the answer does not say it: %w", t.name, err)
		}
		figs = append(figs,
			Figure{Name: "agent calls: " + t.name, Value: float64(now.calls), Unit: "calls",
				Note: fmt.Sprintf("%d before: the reads an answer that did not say it needed, replayed on this server", before.calls)},
			Figure{Name: "answer bytes: " + t.name, Value: float64(now.bytes), Unit: "bytes",
				Note: fmt.Sprintf("%d before", before.bytes)})
	}
	return figs, nil
}
