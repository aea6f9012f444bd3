package toolkit

import (
	"errors"
	"fmt"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// MapError turns an access-layer error into the contract's envelope.
func MapError(err error) *contract.Error {
	if e, ok := contract.AsError(err); ok {
		return e
	}
	var ge *github.Error
	if !errors.As(err, &ge) {
		return nil
	}
	code := contractCode(ge.Code)
	e := &contract.Error{Code: code, Message: ge.Message, Temporary: ge.Temporary, Settlement: ge.Settlement}
	if ge.RetryAfter > 0 {
		e.WithRetryAfter(ge.RetryAfter.Milliseconds())
	}
	if len(ge.RequiredScopes) > 0 {
		e.Details = &contract.Details{RequiredScopes: ge.RequiredScopes}
	}
	if len(ge.Fields) > 0 {
		f := ge.Fields[0]
		reason := f.Code
		if f.Message != "" {
			reason = f.Message
		}
		e.WithField(f.Field, fmt.Sprintf("GitHub refused it: %s", reason))
	}
	switch code {
	case contract.CodeRateLimited:
		e.Repair = &contract.Repair{NextStep: "wait retry_after_ms, then make the same call again"}
	case contract.CodeInvalidCredential, contract.CodeMissingCredential:
		e.Repair = &contract.Repair{NextStep: "stop: the operator must configure a valid GitHub token; retrying will not help"}
	case contract.CodeInsufficientScope:
		e.Repair = &contract.Repair{NextStep: "stop: the credential lacks a permission for this call", Alternative: "read-only tools still work"}
	case contract.CodeUpstreamUnavailable, contract.CodeMalformedResponse:
		// Tools whose writes may have happened replace this with their
		// own repair (see lostWrite, and each write tool's failure path).
		unwritten := e.Settlement == "" || e.Settlement == contract.NotStarted || e.Settlement == contract.NoRemoteSuccessKnown
		if e.Temporary && unwritten {
			e.Repair = &contract.Repair{NextStep: "wait a moment (retry_after_ms when given), then make the same call again"}
		}
	case contract.CodeGone:
		e.Repair = &contract.Repair{NextStep: "do not retry: GitHub deleted it; search for what replaced it, if anything"}
	case contract.CodeConflict:
		e.Repair = &contract.Repair{NextStep: "re-read what this call changes; if the change still applies, make the call again"}
	case contract.CodeValidationFailed:
		e.Repair = &contract.Repair{NextStep: "details.reason says what GitHub refused; change that value and call again"}
	}
	return e
}

// NotFoundIssue is the envelope for an issue that is not there, with a
// search that finds the right one.
func NotFoundIssue(err error, owner, repo string, number int) error {
	e := MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	e.Code = contract.CodeIssueNotFound
	e.Message = fmt.Sprintf("%s/%s#%d does not exist or is not visible to this credential", owner, repo, number)
	e.Repair = &contract.Repair{NextStep: "search the repository for the issue you mean",
		Tool: NameSearchIssues, Arguments: map[string]any{"owner": owner, "repo": repo, "state": "all"}}
	return e
}
