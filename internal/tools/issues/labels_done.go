package issues

import "slices"

// LabelsDone names what a label edit did: the labels it put on the issue
// and took off it, and the repository labels create_missing made first.
// A dry run shows what the call would do. changed_fields says only that
// labels changed; this says which, so an agent need not diff the issue.
type LabelsDone struct {
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Created []string `json:"created,omitempty"`
}

// orNil is d, or nil when it names nothing (the field is then left out).
func (d *LabelsDone) orNil() *LabelsDone {
	if d == nil || len(d.Added)+len(d.Removed)+len(d.Created) == 0 {
		return nil
	}
	return d
}

// done is what the plan does to an issue holding current: for set, the
// difference between the two sets, in the spelling sent and the issue's.
func (p labelPlan) done(current []string) *LabelsDone {
	d := &LabelsDone{Added: slices.Clone(p.add), Removed: slices.Clone(p.remove), Created: slices.Clone(p.create)}
	if p.set != nil {
		for _, l := range *p.set {
			if !containsFold(current, l) {
				d.Added = append(d.Added, l)
			}
		}
		for _, l := range current {
			if !containsFold(*p.set, l) {
				d.Removed = append(d.Removed, l)
			}
		}
	}
	return d
}

// uncreated drops name from Created: another writer made the label first.
func (d *LabelsDone) uncreated(name string) {
	if d != nil {
		d.Created = slices.DeleteFunc(d.Created, func(c string) bool { return c == name })
	}
}
