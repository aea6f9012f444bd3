package emulatortest

import (
	"encoding/json"
	"fmt"
)

const timelinePath = "/repos/{owner}/{repo}/issues/{issue_number}/timeline"

// timelineBranches names, per timeline event, the branch of GitHub's
// timeline-issue-events schema that describes it.
//
// timeline-issue-events is an anyOf of 33 event schemas with no
// discriminator, and most branches share the same required fields (id,
// actor, event, created_at, ...) while their "event" property is a bare
// string. kin-openapi accepts an item that matches any branch, so a
// "labeled" event without its label would pass as a state-change event.
// The harness therefore also validates each item against the one branch its
// "event" value selects, as GitHub's documentation pairs them; an event the
// table does not know fails rather than passing on the loose anyOf.
var timelineBranches = map[string]string{
	"labeled":                  "labeled-issue-event",
	"unlabeled":                "unlabeled-issue-event",
	"milestoned":               "milestoned-issue-event",
	"demilestoned":             "demilestoned-issue-event",
	"renamed":                  "renamed-issue-event",
	"review_requested":         "review-requested-issue-event",
	"review_request_removed":   "review-request-removed-issue-event",
	"review_dismissed":         "review-dismissed-issue-event",
	"locked":                   "locked-issue-event",
	"added_to_project":         "added-to-project-issue-event",
	"moved_columns_in_project": "moved-column-in-project-issue-event",
	"removed_from_project":     "removed-from-project-issue-event",
	"converted_note_to_issue":  "converted-note-to-issue-issue-event",
	"commented":                "timeline-comment-event",
	"cross-referenced":         "timeline-cross-referenced-event",
	"committed":                "timeline-committed-event",
	"reviewed":                 "timeline-reviewed-event",
	"line-commented":           "timeline-line-commented-event",
	"commit-commented":         "timeline-commit-commented-event",
	"assigned":                 "timeline-assigned-issue-event",
	"unassigned":               "timeline-unassigned-issue-event",
	"issue_type_added":         "issue-type-added-issue-event",
	"issue_type_removed":       "issue-type-removed-issue-event",
	"issue_type_changed":       "issue-type-changed-issue-event",
	"sub_issue_added":          "sub-issue-added-issue-event",
	"sub_issue_removed":        "sub-issue-removed-issue-event",
	"parent_issue_added":       "parent-issue-added-issue-event",
	"parent_issue_removed":     "parent-issue-removed-issue-event",
	"blocked_by_added":         "blocked-by-added-issue-event",
	"blocked_by_removed":       "blocked-by-removed-issue-event",
	"blocking_added":           "blocking-added-issue-event",
	"blocking_removed":         "blocking-removed-issue-event",
	// Events with no schema of their own carry the plain issue-event
	// fields, which state-change-issue-event describes (with the optional
	// state_reason a close has); GitHub's issue event types page lists
	// the pull request ones among them with the common properties only.
	"closed":                "state-change-issue-event",
	"marked_as_duplicate":   "state-change-issue-event",
	"reopened":              "state-change-issue-event",
	"unlocked":              "state-change-issue-event",
	"merged":                "state-change-issue-event",
	"head_ref_force_pushed": "state-change-issue-event",
	"head_ref_deleted":      "state-change-issue-event",
	"ready_for_review":      "state-change-issue-event",
	"convert_to_draft":      "state-change-issue-event",
}

// checkTimelineBranches validates every item of a timeline page against the
// branch its event selects.
func (s *spec) checkTimelineBranches(body []byte) error {
	var items []map[string]any
	if err := json.Unmarshal(body, &items); err != nil {
		return fmt.Errorf("timeline body is not an array of objects: %w", err)
	}
	for i, item := range items {
		ev, _ := item["event"].(string)
		name, ok := timelineBranches[ev]
		if !ok {
			return fmt.Errorf("timeline item %d: event %q has no branch in timeline-issue-events", i, ev)
		}
		schema, err := s.componentSchema(name)
		if err != nil {
			return fmt.Errorf("timeline item %d: %w", i, err)
		}
		if err := schema.VisitJSON(item, schemaOptions()...); err != nil {
			return fmt.Errorf("timeline item %d (event %q) does not match %s: %w", i, ev, name, err)
		}
	}
	return nil
}
