package seed

import (
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// seedReleases tags each release of the demo repositories on main as it
// was that day and publishes it with notes listing the pull requests
// merged since the previous one, as GitHub's generated notes do.
func (sd *seeder) seedReleases(w *world) {
	for _, r := range []*state.Repo{w.widgets, w.gadgets} {
		l := layoutOf(r)
		main := r.Git.Branches[state.RepoDefaultBranch]
		var prev time.Time
		for _, rel := range l.vocab.releases {
			sd.s.Tag(r, rel.version, state.TipAt(main, rel.at))
			var notes strings.Builder
			notes.WriteString("## What's Changed\n")
			for _, is := range r.Issues {
				if p := is.Pull; p != nil && p.MergedAt != nil && p.MergedAt.After(prev) && !p.MergedAt.After(rel.at) {
					fmt.Fprintf(&notes, "* %s by @%s in #%d\n", is.Title, is.User.Login, is.Number)
				}
			}
			if prev.IsZero() {
				notes.WriteString("\nFirst release tracked here.\n")
			}
			sd.s.AddRelease(r, rel.version, notes.String(), w.alice, rel.at.Add(9*time.Hour))
			prev = rel.at
		}
	}
}
