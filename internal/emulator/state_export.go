package emulator

import (
	"crypto/rsa"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The world the emulator serves (its model types and their operations)
// lives in package state. These aliases are the few its outside users
// (tests that reach into State, the broker's and the benchmark's fixtures)
// still name through package emulator.
type (
	Account        = state.Account
	AppPermissions = state.AppPermissions
	Installation   = state.Installation
	Issue          = state.Issue
	Label          = state.Label
	Permission     = state.Permission
	Repo           = state.Repo
	State          = state.State
	Token          = state.Token
	TokenRequest   = state.TokenRequest
)

// A token's permission levels on a repository.
const (
	PermRead   = state.PermRead
	PermTriage = state.PermTriage
	PermWrite  = state.PermWrite
	PermAdmin  = state.PermAdmin
)

// SignAppJWT signs an App JWT as an App's own code does; see
// [state.SignAppJWT].
func SignAppJWT(appID int64, key *rsa.PrivateKey, iat, exp time.Time) (string, error) {
	return state.SignAppJWT(appID, key, iat, exp)
}

// PullCloses reports whether a pull request's closing keywords ("Fixes
// #N", "Fixes OWNER/REPO#N") name the issue.
func PullCloses(pr, is *Issue) bool { return state.Closes(pr, is) }
