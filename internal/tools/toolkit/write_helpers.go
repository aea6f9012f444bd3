package toolkit

import (
	"errors"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// NotStarted maps an error met before a write was sent (a preliminary
// read, say) and records that nothing was written; the adapter would
// otherwise report an unexplained write failure as indeterminate.
func NotStarted(err error) error {
	e := MapError(err)
	if e == nil {
		return err
	}
	if e.Settlement == "" {
		e.Settlement = contract.NotStarted
	}
	return e
}

// GitHubCode is the access layer's code for err, or "".
func GitHubCode(err error) github.Code {
	var ge *github.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return ""
}

// MayHaveWritten reports whether a failed write may still have made the
// comment: no answer came, the answer was a success that could not be
// read, or GitHub failed with a server error (a proxy's 502 or 504 cannot
// prove the backend did nothing). A 4xx, a rate limit, or a refusal before
// sending wrote nothing.
func MayHaveWritten(e *contract.Error) bool {
	return e.Settlement == contract.Indeterminate || e.Settlement == contract.RemoteSuccessKnown ||
		e.Settlement == contract.NoRemoteSuccessKnown && e.Code == contract.CodeUpstreamUnavailable
}
