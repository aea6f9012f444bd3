package github

import "github.com/ghgate/ghgate/internal/contract"

// Settlement says what a write did on GitHub; the type and its meaning are
// the contract's ([contract.Settlement]), so what this package decides is
// what the envelope reports, with no conversion between them.
//
// "Sent" is decided by net/http/httptrace: once the transport reports the
// request headers written, the write may have reached GitHub.
type Settlement = contract.Settlement

// The settlements, named here so the access layer reads as before.
const (
	NotStarted           = contract.NotStarted
	NoRemoteSuccessKnown = contract.NoRemoteSuccessKnown
	RemoteSuccessKnown   = contract.RemoteSuccessKnown
	Indeterminate        = contract.Indeterminate
)
