package rest

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

const milestoneDocs = "rest/issues/milestones"

func (c *call) milestoneFor(r *state.Repo) *state.Milestone {
	n, err := strconv.Atoi(c.Req.PathValue("milestone_number"))
	m := r.FindMilestone(n)
	if err != nil || m == nil {
		c.NotFound()
		return nil
	}
	return m
}

func listMilestones(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	q := c.Req.URL.Query()
	want := q.Get("state")
	if want == "" {
		want = "open"
	}
	var list []*state.Milestone
	for _, m := range r.Milestones {
		if want == "all" || m.State == want {
			list = append(list, m)
		}
	}
	// GitHub sorts by due_on ascending by default; completeness sorts by
	// the share of closed issues.
	sortBy, asc := q.Get("sort"), q.Get("direction") != "desc"
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		less := false
		switch sortBy {
		case "completeness":
			less = state.MilestoneCompleteness(r, a) < state.MilestoneCompleteness(r, b)
		default:
			switch {
			case a.DueOn == nil && b.DueOn == nil:
				less = a.Number < b.Number
			case a.DueOn == nil:
				less = false
			case b.DueOn == nil:
				less = true
			default:
				less = a.DueOn.Before(*b.DueOn)
			}
		}
		if asc {
			return less
		}
		return !less
	})
	out := []*milestoneJSON{}
	for _, m := range paginate(c, list) {
		out = append(out, renderMilestone(c.Links, r, m))
	}
	c.JSON(http.StatusOK, out)
}

func getMilestone(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if m := c.milestoneFor(r); m != nil {
		c.JSON(http.StatusOK, renderMilestone(c.Links, r, m))
	}
}

type milestoneWrite struct {
	Title       wire.Optional[string] `json:"title"`
	State       wire.Optional[string] `json:"state"`
	Description wire.Optional[string] `json:"description"`
	DueOn       wire.Optional[string] `json:"due_on"`
}

// apply validates and applies a milestone write; it reports whether it
// answered with an error.
func (c *call) applyMilestone(r *state.Repo, m *state.Milestone, in milestoneWrite, doc string) bool {
	if in.State.Set && !in.State.Null && in.State.Value != "open" && in.State.Value != "closed" {
		c.Invalid("", doc, wire.FieldError{Resource: "Milestone", Field: "state", Code: "invalid"})
		return false
	}
	var due *time.Time
	if in.DueOn.Set && !in.DueOn.Null {
		t, err := time.Parse(time.RFC3339, in.DueOn.Value)
		if err != nil {
			c.Invalid("", doc, wire.FieldError{Resource: "Milestone", Field: "due_on", Code: "invalid"})
			return false
		}
		t = t.UTC()
		due = &t
	}
	if in.Title.Set {
		title := strings.TrimSpace(in.Title.Value)
		if title == "" {
			c.Invalid("", doc, wire.FieldError{Resource: "Milestone", Field: "title", Code: "missing_field"})
			return false
		}
		for _, other := range r.Milestones {
			if other != m && strings.EqualFold(other.Title, title) {
				c.Invalid("", doc, wire.FieldError{Resource: "Milestone", Field: "title", Code: "already_exists"})
				return false
			}
		}
		m.Title = title
	}
	if in.Description.Set {
		if in.Description.Null {
			m.Description = nil
		} else {
			d := in.Description.Value
			m.Description = &d
		}
	}
	if in.DueOn.Set {
		m.DueOn = due
	}
	if in.State.Set && !in.State.Null && in.State.Value != m.State {
		m.State = in.State.Value
		if m.State == "closed" {
			now := c.State.Now()
			m.ClosedAt = &now
		} else {
			m.ClosedAt = nil
		}
	}
	m.UpdatedAt = c.State.Now()
	return true
}

func createMilestone(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	var in milestoneWrite
	if !c.Decode(&in) {
		return
	}
	const doc = milestoneDocs + "#create-a-milestone"
	if strings.TrimSpace(in.Title.Value) == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Milestone", Field: "title", Code: "missing_field"})
		return
	}
	probe := &state.Milestone{State: "open"}
	if !c.applyMilestone(r, probe, in, doc) {
		return
	}
	m := c.State.AddMilestone(r, probe.Title, probe.Description, probe.DueOn, c.Viewer, c.State.Now())
	m.State, m.ClosedAt = probe.State, probe.ClosedAt
	out := renderMilestone(c.Links, r, m)
	c.W.Header().Set("Location", out.URL)
	c.JSON(http.StatusCreated, out)
}

func updateMilestone(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	m := c.milestoneFor(r)
	if m == nil {
		return
	}
	var in milestoneWrite
	if !c.Decode(&in) {
		return
	}
	// Validate on a copy so a 422 changes nothing.
	probe := *m
	if !c.applyMilestone(r, &probe, in, milestoneDocs+"#update-a-milestone") {
		return
	}
	*m = probe
	c.JSON(http.StatusOK, renderMilestone(c.Links, r, m))
}

func deleteMilestone(c *call) {
	r := c.RepoFor(state.PermWrite)
	if r == nil {
		return
	}
	if m := c.milestoneFor(r); m != nil {
		c.State.DeleteMilestone(r, m)
		c.NoContent()
	}
}
