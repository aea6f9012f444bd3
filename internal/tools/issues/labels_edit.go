package issues

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// LabelsEdit changes an issue's labels by name. add, remove and swap touch
// only the labels they name, so a label another writer adds meanwhile
// survives; only set replaces the whole set.
type LabelsEdit struct {
	Add           []string      `json:"add,omitempty"`
	Remove        []string      `json:"remove,omitempty"`
	Swap          *LabelSwap    `json:"swap,omitempty" jsonschema:"drop prefix labels, add to"`
	Set           []string      `json:"set,omitempty"`
	CreateMissing CreateMissing `json:"create_missing,omitzero" jsonschema:"create unknown; true/rrggbb"`
}

// LabelSwap moves an issue from the labels of a family ("status: ...") to
// the ones named in to: every label with the prefix that to does not name
// is removed, and every label to names is added. A to label without the
// prefix is added all the same (the prefix only chooses what is dropped),
// and one named twice is added once.
type LabelSwap struct {
	Prefix string     `json:"prefix"`
	To     LabelNames `json:"to"`
}

// maxLabelNames bounds the names one edit may carry.
const maxLabelNames = 50

func (e *LabelsEdit) validate() *contract.Error {
	bad := func(field, reason string) *contract.Error {
		return contract.Errorf(contract.CodeInvalidField, "labels.%s %s", field, reason).WithField("labels."+field, reason)
	}
	if e.Set != nil {
		if len(e.Set) == 0 {
			return bad("set", "cannot clear every label; use remove").WithRepair(contract.Repair{
				NextStep: "to take every label off, name them in labels.remove: get_issue lists them", Tool: toolkit.NameUpdateIssue})
		}
		if len(e.Add) > 0 || len(e.Remove) > 0 || e.Swap != nil {
			return bad("set", "replaces every label, so it cannot be combined with add, remove or swap")
		}
	}
	if e.Set == nil && len(e.Add) == 0 && len(e.Remove) == 0 && e.Swap == nil {
		return bad("add", "or remove, swap or set is needed to change labels")
	}
	if sw := e.Swap; sw != nil {
		if strings.TrimSpace(sw.Prefix) == "" || slices.ContainsFunc(sw.To, func(n string) bool { return strings.TrimSpace(n) == "" }) {
			return bad("swap", "needs a non-empty prefix and to")
		}
		if len(sw.To) == 0 {
			return bad("swap.to", "needs at least one label name")
		}
	}
	if !e.CreateMissing.valid() {
		return bad("create_missing", "must be true or a colour of six hex digits, like d73a4a (# optional)")
	}
	for field, names := range map[string][]string{"add": e.Add, "remove": e.Remove, "set": e.Set} {
		for _, n := range names {
			if strings.TrimSpace(n) == "" {
				return bad(field, "holds an empty label name")
			}
		}
	}
	if len(e.names())+len(e.Remove) > maxLabelNames {
		return bad("add", fmt.Sprintf("and the other lists name more than %d labels", maxLabelNames))
	}
	adding := e.Add
	if e.Swap != nil {
		adding = slices.Concat(adding, e.Swap.To)
	}
	for _, r := range e.Remove {
		if containsFold(adding, r) {
			return bad("remove", "names a label that add or swap.to also names")
		}
	}
	return nil
}

// names lists the labels the edit puts on the issue, which must exist in
// the repository (or be created): add, swap.to and set.
func (e *LabelsEdit) names() []string {
	return e.lookups(false)
}

// lookups lists the names the preflight checks: names(), and with removed
// also the removed labels. Removing a label the issue lacks is a no-op, but
// one the repository lacks too is most likely a misspelling of a label the
// agent meant to take off, so it is refused rather than reported done.
func (e *LabelsEdit) lookups(removed bool) []string {
	var out []string
	more := e.Remove
	if !removed {
		more = nil
	}
	for _, n := range slices.Concat(e.Add, e.Set, more) {
		if !containsFold(out, n) {
			out = append(out, strings.TrimSpace(n))
		}
	}
	if e.Swap != nil {
		for _, n := range e.Swap.To {
			if !containsFold(out, n) {
				out = append(out, strings.TrimSpace(n))
			}
		}
	}
	return out
}

// labelPlan is what an edit does to an issue with the given labels.
type labelPlan struct {
	create []string  // repository labels to create first (create_missing)
	set    *[]string // the whole new set, for set
	add    []string  // in the spelling to send
	remove []string  // in the issue's spelling
	notes  []string
	// unknown lists names the repository lacks, when create_missing is off.
	unknown []string
	// unknownRemoved lists removed names neither the issue nor the
	// repository has.
	unknownRemoved []string
}

// planLabels resolves an edit against the issue's current labels and the
// repository's spelling of each named label (lower-cased name -> spelling;
// absent means the repository has no such label). Matching is
// case-insensitive throughout; what is sent is the spelling found.
func planLabels(e *LabelsEdit, current []string, repo map[string]string) labelPlan {
	var p labelPlan
	onIssue := func(name string) (string, bool) {
		for _, l := range current {
			if strings.EqualFold(l, strings.TrimSpace(name)) {
				return l, true
			}
		}
		return "", false
	}
	resolve := func(name string) string {
		name = strings.TrimSpace(name)
		if l, ok := onIssue(name); ok {
			return l
		}
		if l, ok := repo[strings.ToLower(name)]; ok {
			return l
		}
		if e.CreateMissing.On {
			if !containsFold(p.create, name) {
				p.create = append(p.create, name)
			}
		} else if !containsFold(p.unknown, name) {
			p.unknown = append(p.unknown, name)
		}
		return name
	}
	addOne := func(name string) {
		spelled := resolve(name)
		if _, ok := onIssue(spelled); ok {
			p.notes = append(p.notes, fmt.Sprintf("label %q was already on the issue", spelled))
			return
		}
		if !containsFold(p.add, spelled) {
			p.add = append(p.add, spelled)
		}
	}
	removeOne := func(name string) {
		l, ok := onIssue(name)
		if !ok {
			name = strings.TrimSpace(name)
			if _, exists := repo[strings.ToLower(name)]; !exists && repo != nil {
				if !containsFold(p.unknownRemoved, name) {
					p.unknownRemoved = append(p.unknownRemoved, name)
				}
				return
			}
			p.notes = append(p.notes, fmt.Sprintf("label %q was not on the issue", name))
			return
		}
		if !containsFold(p.remove, l) {
			p.remove = append(p.remove, l)
		}
	}

	if e.Set != nil {
		var target []string
		for _, n := range e.Set {
			if s := resolve(n); !containsFold(target, s) {
				target = append(target, s)
			}
		}
		if !sameFold(target, current) {
			p.set = &target
		} else {
			p.notes = append(p.notes, "the issue already had exactly these labels")
		}
		return p
	}
	for _, n := range e.Add {
		addOne(n)
	}
	if sw := e.Swap; sw != nil {
		var to []string
		for _, n := range sw.To {
			if s := resolve(n); !containsFold(to, s) {
				to = append(to, s)
			}
		}
		prefix := strings.ToLower(strings.TrimSpace(sw.Prefix))
		for _, l := range current {
			if strings.HasPrefix(strings.ToLower(l), prefix) && !containsFold(to, l) {
				removeOne(l)
			}
		}
		for _, t := range to {
			if _, ok := onIssue(t); ok {
				p.notes = append(p.notes, fmt.Sprintf("label %q was already on the issue", t))
			} else if !containsFold(p.add, t) {
				p.add = append(p.add, t)
			}
		}
	}
	for _, n := range e.Remove {
		removeOne(n)
	}
	return p
}

func containsFold(list []string, s string) bool {
	s = strings.TrimSpace(s)
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(strings.TrimSpace(x), s) })
}

// sameFold reports whether two name sets are equal, ignoring case and order.
func sameFold(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !containsFold(b, x) {
			return false
		}
	}
	return true
}
