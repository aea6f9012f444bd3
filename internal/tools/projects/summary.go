package projects

import "github.com/ghgate/ghgate/internal/tools/toolkit"

// Summarize is the projects toolset's part of the capability summary.
func Summarize(served toolkit.Served) toolkit.Summary {
	if !served(NameUpdateProjectItem) && !served(NameListProjectItems) {
		return toolkit.Summary{DoesNot: []string{"Projects boards (the projects toolset does them, and gives create_issue and update_issue a project argument)"}}
	}
	s := toolkit.Summary{
		Does: []string{"- projects toolset: an org's or user's Projects v2 boards with each field's type, options and iterations; " +
			"a board's items (GitHub's filter syntax) with values by field name, issues, pull requests and drafts counted apart; " +
			"add an issue, set or clear fields by name (checked against the board first: project_field_not_found, project_option_not_found), " +
			"archive, move, remove (confirm: true); boards by number, fields and options by name, items by issue\n"},
		DoesNot: []string{"create or edit Projects boards, fields, views or draft issues"},
	}
	// The issue writes' project is gated on the board write tool
	// (tooldef.Tool's Gated), so it is named only where that is served.
	if served(NameUpdateProjectItem) {
		s.Does = append(s.Does, "- create_issue and update_issue take project {owner, project_number, fields} (bulk_update_issues: changes.project): the issue lands on its owner's board with its fields in the same call\n")
	}
	return s
}
