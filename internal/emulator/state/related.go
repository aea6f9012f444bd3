package state

import "slices"

// Related issues: the "Relates to" link of an issue's Relationships panel.
// The link is symmetric: it shows on both issues, and removing it from
// either removes it from both. GitHub serves it over REST in API version
// 2026-03-10 ("List issues related to an issue", "Add a related issue",
// "Remove a related issue" under REST API endpoints for issues).

// AddRelated records that a and b are related.
func (s *State) AddRelated(a, b *Issue) error {
	switch {
	case a == b:
		return ErrSelfLink
	case slices.Contains(a.Related, b):
		return ErrAlreadyLinked
	}
	a.Related = append(a.Related, b)
	b.Related = append(b.Related, a)
	s.Touch(a)
	s.Touch(b)
	return nil
}

// RemoveRelated removes the link from both issues.
func (s *State) RemoveRelated(a, b *Issue) error {
	i := slices.Index(a.Related, b)
	if i < 0 {
		return ErrNotLinked
	}
	a.Related = slices.Delete(a.Related, i, i+1)
	b.Related = slices.DeleteFunc(b.Related, func(x *Issue) bool { return x == a })
	s.Touch(a)
	s.Touch(b)
	return nil
}

// dropRelated removes a deleted issue from the lists of those related to it.
func dropRelated(is *Issue) {
	for _, r := range is.Related {
		r.Related = slices.DeleteFunc(r.Related, func(x *Issue) bool { return x == is })
	}
	is.Related = nil
}
