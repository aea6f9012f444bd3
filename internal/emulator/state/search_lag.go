package state

import (
	"slices"
	"sync"
	"time"
)

// GitHub's search answers from an index that is updated after a write, not
// with it: an issue just created is missing from search for a few seconds,
// and one just labelled or closed is found by what it was. The list and
// get endpoints read the issues themselves and see every write at once.
//
// searchView keeps what the index holds when a lag is set: each issue's
// past versions, recorded as writes touch it, so search can match the
// version that was current lag ago. With no lag (the default) search
// matches the issues themselves.
type searchView struct {
	lag time.Duration

	mu sync.Mutex // searches share the state's read lock, so the view has its own
	// versions are an issue's recorded states, oldest first; versions
	// that no search can reach any more are dropped as searches pass.
	versions map[*Issue][]issueVersion
}

// issueVersion is an issue as it stood from at.
type issueVersion struct {
	at   time.Time
	snap *Issue
}

// SetSearchLag makes search trail writes by lag (0 turns the lag off).
// The world as it stands is taken as indexed, so a world seeded before
// the lag is set is searchable at once. The caller holds the write lock.
func (s *State) SetSearchLag(lag time.Duration) {
	if lag <= 0 {
		s.search = nil
		return
	}
	v := &searchView{lag: lag, versions: map[*Issue][]issueVersion{}}
	for _, r := range s.repoOrder {
		for _, is := range r.Issues {
			// Indexed long ago: as old as any search can ask for.
			v.versions[is] = []issueVersion{{at: time.Time{}, snap: snapshot(is)}}
		}
	}
	s.search = v
}

// SearchLag is how far search trails writes; 0 when it does not.
func (s *State) SearchLag() time.Duration {
	if s.search == nil {
		return 0
	}
	return s.search.lag
}

// recordVersion notes is as it stands now, after a write: search will
// find this version once the lag has passed.
func (s *State) recordVersion(is *Issue) {
	v := s.search
	if v == nil {
		return
	}
	now := s.Now()
	v.mu.Lock()
	defer v.mu.Unlock()
	vs := v.versions[is]
	// Of the versions already past the lag only the newest can still be
	// asked for: an issue written often, and never searched, keeps few.
	indexedUpTo := now.Add(-v.lag)
	first := 0
	for i := range vs {
		if !vs[i].at.After(indexedUpTo) {
			first = i
		}
	}
	v.versions[is] = append(vs[first:], issueVersion{at: now, snap: snapshot(is)})
}

// SearchVersion is is as the search index holds it now: is itself when no
// lag is set or its last write is older than the lag, an earlier version
// when it was written since, nil when it was created too recently to be
// indexed at all. The caller holds the read lock.
func (s *State) SearchVersion(is *Issue) *Issue {
	v := s.search
	if v == nil {
		return is
	}
	indexedUpTo := s.Now().Add(-v.lag)
	v.mu.Lock()
	defer v.mu.Unlock()
	vs := v.versions[is]
	if !is.UpdatedAt.After(indexedUpTo) {
		if len(vs) > 1 {
			v.versions[is] = vs[len(vs)-1:] // the last write is indexed: older versions are past asking for
		}
		return is
	}
	i := len(vs) - 1
	for i >= 0 && vs[i].at.After(indexedUpTo) {
		i--
	}
	if i < 0 {
		if is.CreatedAt.After(indexedUpTo) {
			return nil // not indexed yet
		}
		// Written since the lag was set without a recorded earlier version
		// (a write that did not go through Touch): the best known state.
		return is
	}
	// Versions before i can no longer be asked for: the clock only moves on.
	v.versions[is] = vs[i:]
	return vs[i].snap
}

// snapshot copies is deep enough that later writes to is (which replace or
// edit its slices in place) leave the copy as it was.
func snapshot(is *Issue) *Issue {
	cp := *is
	cp.Labels = slices.Clone(is.Labels)
	cp.Assignees = slices.Clone(is.Assignees)
	cp.Comments = slices.Clone(is.Comments)
	cp.SubIssues = slices.Clone(is.SubIssues)
	cp.BlockedBy = slices.Clone(is.BlockedBy)
	cp.Blocking = slices.Clone(is.Blocking)
	cp.Events = slices.Clone(is.Events)
	cp.Reactions = slices.Clone(is.Reactions)
	cp.FieldValues = slices.Clone(is.FieldValues)
	cp.LinkedBranches = slices.Clone(is.LinkedBranches)
	if is.Body != nil {
		body := *is.Body
		cp.Body = &body
	}
	return &cp
}
