package emulator

import (
	"crypto/rsa"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The world the emulator serves (its model types and their operations)
// lives in package state. These aliases keep the emulator's handlers and
// its outside users (the demo seed's constants and tests that reach into
// State) naming them as before.
type (
	Account          = state.Account
	App              = state.App
	CheckRun         = state.CheckRun
	Comment          = state.Comment
	CommitStatus     = state.CommitStatus
	Event            = state.Event
	FileChange       = state.FileChange
	GitCommit        = state.GitCommit
	GitRepo          = state.GitRepo
	GitSignature     = state.GitSignature
	Installation     = state.Installation
	Issue            = state.Issue
	IssueField       = state.IssueField
	IssueFieldOption = state.IssueFieldOption
	IssueFieldValue  = state.IssueFieldValue
	IssueTriage      = state.IssueTriage
	IssueType        = state.IssueType
	Label            = state.Label
	LinkedBranch     = state.LinkedBranch
	MergeOptions     = state.MergeOptions
	Milestone        = state.Milestone
	Permission       = state.Permission
	PullRequest      = state.PullRequest
	Reaction         = state.Reaction
	Release          = state.Release
	Repo             = state.Repo
	Review           = state.Review
	ReviewComment    = state.ReviewComment
	ReviewThread     = state.ReviewThread
	State            = state.State
	Team             = state.Team
	Token            = state.Token
)

// A token's permission levels on a repository.
const (
	PermNone   = state.PermNone
	PermRead   = state.PermRead
	PermTriage = state.PermTriage
	PermWrite  = state.PermWrite
	PermAdmin  = state.PermAdmin
)

// NewState returns an empty world whose clock is now.
func NewState(now func() time.Time) *State { return state.NewState(now) }

// SignAppJWT signs an App JWT as an App's own code does; see
// state.SignAppJWT.
func SignAppJWT(appID int64, key *rsa.PrivateKey, iat, exp time.Time) (string, error) {
	return state.SignAppJWT(appID, key, iat, exp)
}
