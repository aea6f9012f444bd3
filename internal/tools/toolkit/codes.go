package toolkit

import (
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// contractCodes is the one translation from the access layer's codes to
// the contract's. Every [github.Code] has an entry (codes_test.go reads the
// const block and fails on one without), so a new access-layer code is a
// decision here, not a string that happens to match.
var contractCodes = map[github.Code]contract.Code{
	github.MissingCredential:   contract.CodeMissingCredential,
	github.InvalidCredential:   contract.CodeInvalidCredential,
	github.InsufficientScope:   contract.CodeInsufficientScope,
	github.NotFound:            contract.CodeNotFound,
	github.Gone:                contract.CodeGone,
	github.ValidationFailed:    contract.CodeValidationFailed,
	github.Conflict:            contract.CodeConflict,
	github.BadRequest:          contract.CodeBadRequest,
	github.RateLimited:         contract.CodeRateLimited,
	github.UpstreamUnavailable: contract.CodeUpstreamUnavailable,
	github.MalformedResponse:   contract.CodeMalformedResponse,
	// ghgate's own pre-flight refusal is about an argument the agent sent.
	github.InvalidArgument: contract.CodeInvalidField,
	// A cancelled call is, to the agent, an answer that did not come.
	github.Cancelled: contract.CodeUpstreamUnavailable,
	// A write the policy did not admit is ghgate's own fault, never the
	// agent's: the tool wrote what it had not declared.
	github.Unadmitted: contract.CodeInternal,
}

// contractCode maps an access-layer code; one outside the table (an error
// built by hand with an empty code, say) reads as an answer that did not
// come.
func contractCode(c github.Code) contract.Code {
	if code, ok := contractCodes[c]; ok {
		return code
	}
	return contract.CodeUpstreamUnavailable
}
