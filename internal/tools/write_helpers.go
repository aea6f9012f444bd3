package tools

import (
	"errors"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// notStarted maps an error met before a write was sent (a preliminary
// read, say) and records that nothing was written; the adapter would
// otherwise report an unexplained write failure as indeterminate.
func notStarted(err error) error {
	e := MapError(err)
	if e == nil {
		return err
	}
	if e.Settlement == "" {
		e.Settlement = contract.NotStarted
	}
	return e
}

// githubCode is the access layer's code for err, or "".
func githubCode(err error) github.Code {
	var ge *github.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return ""
}
