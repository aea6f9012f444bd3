package issues_test

// Issues of the demo seed's acme/widgets that the tests name, beside the
// emulator's own Demo* constants (internal/emulator/seed/widgets.go plans
// the sub-issue trees these come from).
const (
	// jobsSubIssue, pdfSubIssue and docsSubIssue are sub-issues of
	// emulator.DemoParentIssue (beside emulator.DemoNestedParentIssue);
	// docsSubIssue is also blocked by DemoNestedParentIssue.
	jobsSubIssue = 13
	pdfSubIssue  = 15
	docsSubIssue = 16
	// csvSubIssue is a sub-issue of emulator.DemoNestedParentIssue, so of
	// another parent than DemoParentIssue.
	csvSubIssue = 17
	// freeIssue has no parent and no sub-issues.
	freeIssue = 60
	// fixedIssue is the issue pull request #146 fixes ("Fixes #145").
	fixedIssue = 145
	// firstIssue is #1, which acme/widgets and acme/gadgets both hold.
	firstIssue = 1
	// plainIssue is an ordinary open issue: the calls that name it are
	// refused before it is read, or do not depend on which issue it is.
	plainIssue = 2
	// missingIssue is past the last issue of every seeded repository.
	missingIssue = 9999
)
