package seed

import (
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// seedNotes fills alice/notes: a few personal issues, two of them closed.
func (sd *seeder) seedNotes(w *world) {
	a := w.alice
	base := day(2026, time.March, 2).Add(20 * time.Hour)
	note := func(n int, title, body, label string) *plan {
		p := &plan{kind: kindChore, author: a, created: base.Add(days(19 * (n - 1))).Add(hours(n * 3)), title: title, body: ptr(body)}
		p.at(p.created.Add(time.Minute), func(is *state.Issue) { sd.label(is, a, label) })
		return p
	}
	reading := note(1, "Reading list: distributed systems papers",
		"- [x] Dynamo: Amazon's Highly Available Key-value Store\n- [x] Spanner: Google's Globally-Distributed Database\n"+
			"- [ ] Viewstamped Replication Revisited\n- [ ] CRDTs: Consistency without concurrency control\n- [ ] Jepsen reports on etcd and Consul\n",
		"reading")
	roadmap := note(2, "Ideas for the widgets v2 roadmap",
		"Things to raise at the planning offsite:\n\n1. Plugin API v5 as the only plugin API\n2. Streaming exports on by default\n"+
			"3. Drop the v1 embed snippet (see acme/widgets#31, carefully this time)\n4. Per-widget refresh intervals\n\n"+
			"Open question: do we keep the PDF renderer in-process or move it to a worker?\n",
		"idea")
	talk := note(3, "Talk outline: what a year of dashboard performance work taught us",
		"Audience: frontend meetup, 25 minutes.\n\n- The 3x regression and how we bisected it\n- Fetch once, render many: keying effects on the query\n"+
			"- Streaming CSV at flat memory\n- What we would do differently\n",
		"todo")
	homelab := note(4, "Home lab: replace the NAS drives",
		"Two of the four drives report reallocated sectors. Order two 8 TB drives, replace one at a time, let each resilver finish before the next.\n",
		"todo")
	oncall := note(5, "Draft: on-call handbook improvements",
		"- Runbook links in every alert\n- Escalation path for the export workers\n- A 'first 15 minutes' checklist\n",
		"idea")
	reading.at(reading.created.Add(days(40)), func(is *state.Issue) { sd.s.Close(is, a, "completed") })
	homelab.at(homelab.created.Add(days(12)), func(is *state.Issue) {
		sd.comment(is, a, "Both drives replaced, the pool is healthy again.")
		sd.s.Close(is, a, "completed")
	})
	talk.at(talk.created.Add(days(3)), func(is *state.Issue) { sd.comment(is, a, "Submitted. Slides due two weeks before the meetup.") })
	sd.materialize(w.notes, []*plan{reading, roadmap, talk, homelab, oncall})
}
