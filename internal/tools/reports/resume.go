package reports

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
)

// openCursor opens a report's continuation cursor, minted by tool for
// scope and filters, and hands what it carries to decode. A cursor that
// was not (filterNames names the arguments it is bound to), does not
// decode, or has expired is refused with the literal call that starts the
// report again (restart).
func (s *Tools) openCursor(tool, cursor, scope string, filters, restart any, filterNames string, decode func(string) error) error {
	raw, err := s.Cursors.Open(cursor, tool, scope, filters)
	if err == nil {
		err = decode(raw)
	}
	if err == nil {
		return nil
	}
	code, msg := contract.CodeCursorInvalid, "the cursor was not minted for this report (another owner, repository, "+filterNames+")"
	if errors.Is(err, contract.ErrCursorExpired) {
		code, msg = contract.CodeCursorExpired, "the cursor is older than 15 minutes"
	}
	return contract.Errorf(code, "%s", msg).WithField("cursor", msg).
		WithRepair(contract.Repair{NextStep: "run the report again from the start", Tool: tool, Arguments: restart})
}

// resume is where a truncated report goes on, carried in its signed
// cursor. Repositories are taken in name order, so what is done is a
// prefix (every name up to After) plus the few finished out of order
// while the calls before them were in flight (Done), and the repositories
// stopped part way, with the page each goes on from (Pages).
type resume struct {
	After string         `json:"a,omitempty"`
	Done  []string       `json:"d,omitempty"`
	Pages map[string]int `json:"p,omitempty"`
}

func (r *resume) encode() string {
	b, _ := json.Marshal(r)
	return string(b)
}

func decodeResume(s string) (*resume, error) {
	var r resume
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return nil, contract.ErrCursorInvalid
	}
	return &r, nil
}

// done reports whether repo was finished by an earlier call.
func (r *resume) done(repo string) bool {
	key := strings.ToLower(repo)
	return r.After != "" && key <= r.After || slices.Contains(r.Done, key)
}

// page is the page repo goes on from: 1 unless it stopped part way.
func (r *resume) page(repo string) int {
	if p := r.Pages[strings.ToLower(repo)]; p > 1 {
		return p
	}
	return 1
}

// advance records this call's outcome: finished repositories join the
// done set, stopped ones keep their page (as do those stopped by an
// earlier call and not reached by this one), and the prefix moves up over
// order (every eligible repository, in name order) as far as it is done.
func (r *resume) advance(order []string, finished map[string]bool, pages map[string]int) {
	done := map[string]bool{}
	for _, d := range r.Done {
		done[d] = true
	}
	for name := range finished {
		done[strings.ToLower(name)] = true
	}
	// A repository stopped part way by an earlier call and not reached by
	// this one keeps its page: it goes on from there, not from page 1
	// (which would return the rows of the pages before again).
	kept := map[string]int{}
	for name, p := range r.Pages {
		if !done[name] {
			kept[name] = p
		}
	}
	for name, p := range pages {
		kept[strings.ToLower(name)] = p
	}
	r.Pages = kept
	for _, name := range order {
		key := strings.ToLower(name)
		if r.After != "" && key <= r.After {
			continue
		}
		if !done[key] {
			break
		}
		r.After = key
	}
	r.Done = r.Done[:0]
	for d := range done {
		if d > r.After {
			r.Done = append(r.Done, d)
		}
	}
	slices.Sort(r.Done)
	if len(r.Pages) == 0 {
		r.Pages = nil
	}
}
