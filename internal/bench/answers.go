package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator"
)

// answerTask is a question an agent asks in the middle of its work, scripted
// two ways: the calls it needed while an answer did not say what it wanted
// to know (so it read again to confirm), and the calls it needs now that
// the first answer says it. Both run against the same server; the last
// answer of the direct script is checked to state the fact, so the figure
// counts a path that really answers the question.
type answerTask struct {
	name string
	// reread and direct each run on issues of their own (writes change
	// state), picked by the fixture.
	reread, direct func(f answerFixtures) []call
	// says checks the direct script's last answer (text, and whether it is
	// an error result) for the fact.
	says func(f answerFixtures, text string, isErr bool) error
}

// answerFixtures are open, unlocked issues of the demo's widgets
// repository without dependencies: two pairs to link.
type answerFixtures struct {
	rereadPair, directPair [2]int
}

func pickAnswerFixtures(emu *emulator.Emulator) (answerFixtures, error) {
	st := emu.State()
	st.Lock()
	defer st.Unlock()
	var found []int
	for _, is := range st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Issues {
		if is.IsPull || is.Deleted || is.Locked || is.State != "open" || len(is.BlockedBy) > 0 || is.Number < 100 {
			continue
		}
		found = append(found, is.Number)
		if len(found) == 4 {
			break
		}
	}
	if len(found) < 4 {
		return answerFixtures{}, fmt.Errorf("the seed has %d open unlocked issues without dependencies past #100, want 4", len(found))
	}
	return answerFixtures{rereadPair: [2]int{found[0], found[1]}, directPair: [2]int{found[2], found[3]}}, nil
}

func widgets(extra map[string]any) map[string]any {
	m := map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func answerTasks() []answerTask {
	link := func(pair [2]int) call {
		return call{"github_link_issues", widgets(map[string]any{"issue_number": pair[0], "relation": "blocked_by",
			"action": "add", "target_issue_number": pair[1]})}
	}
	// "area: ux" is a misspelling of the seed's "area: ui".
	misspelled := call{"github_search_issues", widgets(map[string]any{"labels": []string{"area: ux"}})}
	return []answerTask{
		{name: "link a dependency and learn which way it points",
			reread: func(f answerFixtures) []call {
				return []call{link(f.rereadPair), {"github_list_issue_items", widgets(map[string]any{"issue_number": f.rereadPair[0], "collection": "blocked_by"})}}
			},
			direct: func(f answerFixtures) []call { return []call{link(f.directPair)} },
			says: func(f answerFixtures, text string, isErr bool) error {
				var got struct {
					Relation struct {
						Issue     string `json:"issue"`
						BlockedBy string `json:"blocked_by"`
						Linked    bool   `json:"linked"`
					} `json:"relation"`
				}
				if err := json.Unmarshal([]byte(text), &got); err != nil || isErr {
					return fmt.Errorf("link answered %s", truncate(text, 200))
				}
				want := fmt.Sprintf("%s/%s#%d", emulator.DemoOrg, emulator.DemoWidgetsRepo, f.directPair[1])
				if got.Relation.BlockedBy != want || !got.Relation.Linked {
					return fmt.Errorf("relation %+v, want blocked_by %s, linked", got.Relation, want)
				}
				return nil
			}},
		{name: "search by a misspelled label",
			reread: func(answerFixtures) []call {
				return []call{misspelled, {"github_list_repo_metadata", widgets(map[string]any{"kind": "labels"})}}
			},
			direct: func(answerFixtures) []call { return []call{misspelled} },
			says: func(_ answerFixtures, text string, isErr bool) error {
				if !isErr || !strings.Contains(text, "label_not_found") || !strings.Contains(text, "area: ui") {
					return fmt.Errorf("want label_not_found naming area: ui, got %s", truncate(text, 300))
				}
				return nil
			}},
	}
}

// Answers runs each answerTask both ways on one server and reports the
// tool calls and bytes each way took.
func Answers(ctx context.Context) ([]Figure, error) {
	r, err := newRig(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer r.close()
	fix, err := pickAnswerFixtures(r.emu.Emu)
	if err != nil {
		return nil, err
	}
	run := func(calls []call) (last string, isErr bool, bytes int, err error) {
		for _, c := range calls {
			if last, isErr, err = r.try(ctx, c.tool, c.args); err != nil {
				return "", false, 0, err
			}
			bytes += len(last)
		}
		return last, isErr, bytes, nil
	}
	var figs []Figure
	for _, t := range answerTasks() {
		reread, direct := t.reread(fix), t.direct(fix)
		_, _, rereadBytes, err := run(reread)
		if err != nil {
			return figs, fmt.Errorf("%s (reread): %w", t.name, err)
		}
		last, isErr, directBytes, err := run(direct)
		if err != nil {
			return figs, fmt.Errorf("%s: %w", t.name, err)
		}
		if err := t.says(fix, last, isErr); err != nil {
			return figs, fmt.Errorf("%s: the answer does not say it: %w", t.name, err)
		}
		figs = append(figs,
			Figure{Name: "agent calls: " + t.name, Value: float64(len(direct)), Unit: "calls",
				Note: fmt.Sprintf("%d before, when the answer did not say it (replayed on this server)", len(reread))},
			Figure{Name: "answer bytes: " + t.name, Value: float64(directBytes), Unit: "bytes",
				Note: fmt.Sprintf("%d before", rereadBytes)})
	}
	return figs, nil
}
