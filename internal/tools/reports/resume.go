package reports

import (
	"slices"
	"strings"
)

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
// The prefix moves only when order is whole (every page of the owner's
// listing was read): GitHub's name order may differ from this one at a
// page boundary, so a name on a page not read could sort below the
// prefix and be taken as done; without the whole order the finished are
// kept by name.
func (r *resume) advance(order []string, finished map[string]bool, pages map[string]int, whole bool) {
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
	if !whole {
		order = nil // the names past the listing read are unknown: the prefix stays
	}
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
