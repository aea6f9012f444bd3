package reports

// ReleaseSummary counts the release pull requests of the run by status.
//
// It covers the whole run, not the page: a call continued from a cursor
// adds what it examined to the counts the cursor carries, so the last
// call's summary counts every release pull request of every call (a
// truncated call's, those examined so far). It counts every pull request
// examined, the rows only_missing leaves out included; those skipped
// (unreadable: see skipped) have no status and are not counted.
type ReleaseSummary struct {
	// Ready: the title names a version and a changelog path at the head
	// commit holds its entry (status ready).
	Ready int `json:"ready"`
	// NeedsChangelog: the title names a version and no changelog path
	// holds an entry for it (status needs_changelog).
	NeedsChangelog int `json:"needs_changelog"`
	// UnknownVersion: the title names no version (status
	// unknown_version); nothing is looked up for it.
	UnknownVersion int `json:"unknown_version"`
}

func (s *ReleaseSummary) add(st ReleaseStatus) {
	switch st {
	case StatusReady:
		s.Ready++
	case StatusNeedsChangelog:
		s.NeedsChangelog++
	default:
		s.UnknownVersion++
	}
}

// tally adds this call's rows' verdicts to the run's (from the cursor):
// nil without analyze, when no row has one.
func tally(carried map[Verdict]int, rows []ReleaseRow) map[Verdict]int {
	var out map[Verdict]int
	add := func(v Verdict, n int) {
		if v == "" || n == 0 {
			return
		}
		if out == nil {
			out = map[Verdict]int{}
		}
		out[v] += n
	}
	for v, n := range carried {
		add(v, n)
	}
	for _, r := range rows {
		add(r.Verdict, 1)
	}
	return out
}
