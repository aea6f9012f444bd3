package issues

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/core"
)

// LabelsEdit changes an issue's labels by name. add, remove and swap touch
// only the labels they name, so a label another writer adds meanwhile
// survives; only set replaces the whole set.
type LabelsEdit struct {
	Add           []string   `json:"add,omitempty"`
	Remove        []string   `json:"remove,omitempty"`
	Swap          *LabelSwap `json:"swap,omitempty" jsonschema:"drop prefix labels, add to"`
	Set           []string   `json:"set,omitempty"`
	CreateMissing bool       `json:"create_missing,omitempty" jsonschema:"create unknown labels"`
}

// LabelSwap moves an issue from one label of a family ("status: ...") to
// another.
type LabelSwap struct {
	Prefix string `json:"prefix"`
	To     string `json:"to"`
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
				NextStep: "to take every label off, name them in labels.remove: get_issue lists them", Tool: core.NameUpdateIssue})
		}
		if len(e.Add) > 0 || len(e.Remove) > 0 || e.Swap != nil {
			return bad("set", "replaces every label, so it cannot be combined with add, remove or swap")
		}
	}
	if e.Set == nil && len(e.Add) == 0 && len(e.Remove) == 0 && e.Swap == nil {
		return bad("add", "or remove, swap or set is needed to change labels")
	}
	if e.Swap != nil && (strings.TrimSpace(e.Swap.Prefix) == "" || strings.TrimSpace(e.Swap.To) == "") {
		return bad("swap", "needs a non-empty prefix and to")
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
		adding = append(slices.Clone(adding), e.Swap.To)
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
	if e.Swap != nil && !containsFold(out, e.Swap.To) {
		out = append(out, strings.TrimSpace(e.Swap.To))
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
		if e.CreateMissing {
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
		to := resolve(sw.To)
		prefix := strings.ToLower(strings.TrimSpace(sw.Prefix))
		for _, l := range current {
			if strings.HasPrefix(strings.ToLower(l), prefix) && !strings.EqualFold(l, to) {
				removeOne(l)
			}
		}
		if _, ok := onIssue(to); ok {
			p.notes = append(p.notes, fmt.Sprintf("label %q was already on the issue", to))
		} else if !containsFold(p.add, to) {
			p.add = append(p.add, to)
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
