package emulator

import (
	"time"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// The demo world is built by package seed; these names keep the emulator's
// users (tests, the demo, the benchmark) naming its accounts, tokens,
// repositories and notable issues through package emulator.
const (
	DemoOrg               = seed.DemoOrg
	DemoWidgetsRepo       = seed.DemoWidgetsRepo
	DemoGadgetsRepo       = seed.DemoGadgetsRepo
	DemoNotesOwner        = seed.DemoNotesOwner
	DemoNotesRepo         = seed.DemoNotesRepo
	DemoTokenAlice        = seed.DemoTokenAlice
	DemoTokenBob          = seed.DemoTokenBob
	DemoTokenCarol        = seed.DemoTokenCarol
	DemoTokenDave         = seed.DemoTokenDave
	DemoTokenAliceIssues  = seed.DemoTokenAliceIssues
	DemoWidgetsIssueCount = seed.DemoWidgetsIssueCount
	DemoFirstPull         = seed.DemoFirstPull
	DemoManyCommentsIssue = seed.DemoManyCommentsIssue
	DemoParentIssue       = seed.DemoParentIssue
	DemoNestedParentIssue = seed.DemoNestedParentIssue
	DemoLockedIssue       = seed.DemoLockedIssue
	DemoNotPlannedIssue   = seed.DemoNotPlannedIssue
	DemoBlockerIssue      = seed.DemoBlockerIssue
	DemoChainIssue        = seed.DemoChainIssue
	DemoBlockedIssue      = seed.DemoBlockedIssue
	DemoHostileIssue      = seed.DemoHostileIssue
	DemoDuplicateIssue    = seed.DemoDuplicateIssue
	DemoUntriagedFrom     = seed.DemoUntriagedFrom
	DemoTriageIssue       = seed.DemoTriageIssue
)

// DemoNow is a clock reading later than every timestamp in the demo seed.
func DemoNow() time.Time { return seed.DemoNow() }
