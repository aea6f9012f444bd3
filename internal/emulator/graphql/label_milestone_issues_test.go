package graphql_test

import (
	"reflect"
	"testing"
)

// Label.issues and Milestone.issues count and list the issues that carry
// the label or belong to the milestone: pull requests are left out (the
// world's open pull request carries "bug"), and states filter as
// Repository.issues does.
func testGraphQLLabelAndMilestoneIssues(t *testing.T, w *gqlWorld) {
	const doc = `query($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    labels(first: 3) { nodes { name open: issues(states: OPEN) { totalCount } all: issues(first: 5) { nodes { number } } } }
    milestones(first: 5, states: OPEN) { nodes { title open: issues(states: OPEN) { totalCount } closed: issues(states: CLOSED) { totalCount } } }
  }
}`
	type count struct{ TotalCount int }
	var d struct {
		Repository struct {
			Labels struct {
				Nodes []struct {
					Name string
					Open count
					All  struct{ Nodes []struct{ Number int } }
				}
			}
			Milestones struct {
				Nodes []struct {
					Title        string
					Open, Closed count
				}
			}
		}
	}
	w.query("emu-alice", doc, map[string]any{"owner": "acme", "name": "widgets"}).ok(t, &d)
	type row struct {
		open    int
		numbers []int
	}
	got := map[string]row{}
	for _, l := range d.Repository.Labels.Nodes {
		var nums []int
		for _, n := range l.All.Nodes {
			nums = append(nums, n.Number)
		}
		got[l.Name] = row{l.Open.TotalCount, nums}
	}
	want := map[string]row{
		"bug":            {1, []int{w.bug}},
		"enhancement":    {0, []int{w.wontfix}},
		"status: triage": {1, []int{w.bug}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("label issues = %+v, want %+v", got, want)
	}
	ms := d.Repository.Milestones.Nodes
	if len(ms) != 1 {
		t.Errorf("milestones = %+v, want v1.0 alone", ms)
	} else {
		if ms[0].Title != "v1.0" {
			t.Errorf("milestone title = %q, want v1.0", ms[0].Title)
		}
		if ms[0].Open.TotalCount != 1 {
			t.Errorf("v1.0 open issues = %d, want 1", ms[0].Open.TotalCount)
		}
		if ms[0].Closed.TotalCount != 0 {
			t.Errorf("v1.0 closed issues = %d, want 0", ms[0].Closed.TotalCount)
		}
	}
}
