// Package reports is the reports toolset: questions that span an owner's
// repositories (what is unlabelled, ...), each answered by many GitHub
// calls made through the fan-out engine (internal/fanout) within a budget
// the caller sets. Every report returns what it found even when a bound
// stopped it, says which bound, and gives the literal call that goes on
// from there.
package reports

import (
	"errors"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/core"
	"github.com/google/jsonschema-go/jsonschema"
)

// Toolset is this toolset's name.
const Toolset = "reports"

// Tools builds the report tools over a Service.
type Tools struct {
	*core.Service
	// Concurrency is how many calls a report has in flight (0: the
	// engine's default, 8).
	Concurrency int
}

// Specs returns the toolset's tools in the order they are listed.
func Specs(s *core.Service) []tooldef.Spec {
	t := &Tools{Service: s}
	return []tooldef.Spec{t.ReportUnlabeled(), t.ReportCIStatus()}
}

// Stop is why a report stopped early (truncated_reason).
type Stop string

// JSONSchema implements tooldef.SelfDescribing.
func (Stop) JSONSchema() (*jsonschema.Schema, error) {
	return core.Enum(fanout.Reasons()...), nil
}

// NextCall is the literal call that continues a truncated report.
type NextCall struct {
	Tool      string `json:"tool"`
	Arguments any    `json:"arguments"`
}

// The caps of a report's bounds: each argument type states its range.
type (
	// MaxRepos bounds the repositories one call scans (cap 200).
	MaxRepos int
	// PerRepoLimit bounds the items read from one repository (cap 1000).
	PerRepoLimit int
	// MaxAPICalls is the hard budget of GitHub calls (cap 1000).
	MaxAPICalls int
)

// JSONSchema implements tooldef.SelfDescribing.
func (MaxRepos) JSONSchema() (*jsonschema.Schema, error) { return upTo(200), nil }

// JSONSchema implements tooldef.SelfDescribing.
func (PerRepoLimit) JSONSchema() (*jsonschema.Schema, error) { return upTo(1000), nil }

// JSONSchema implements tooldef.SelfDescribing.
func (MaxAPICalls) JSONSchema() (*jsonschema.Schema, error) { return upTo(1000), nil }

// upTo is an integer from 1 to hi.
func upTo(hi int) *jsonschema.Schema {
	lo, top := 1.0, float64(hi)
	return &jsonschema.Schema{Type: "integer", Minimum: &lo, Maximum: &top}
}

// openCursor opens a report's continuation cursor: the position it
// carries, or cursor_invalid / cursor_expired with the literal call that
// restarts the report (restart). bound names what the cursor is bound to
// besides the report, for the message.
func (s *Tools) openCursor(tool, cursor, scope string, filters any, bound string, restart any) (string, error) {
	raw, err := s.Cursors.Open(cursor, tool, scope, filters)
	if err != nil {
		return "", s.cursorFailure(tool, err, bound, restart)
	}
	return raw, nil
}

// cursorFailure is the envelope for a cursor that cannot be used.
func (s *Tools) cursorFailure(tool string, err error, bound string, restart any) error {
	code, msg := contract.CodeCursorInvalid, "the cursor was not minted for this report (another "+bound+")"
	if errors.Is(err, contract.ErrCursorExpired) {
		code, msg = contract.CodeCursorExpired, "the cursor is older than 15 minutes"
	}
	return contract.Errorf(code, "%s", msg).WithField("cursor", msg).
		WithRepair(contract.Repair{NextStep: "run the report again from the start", Tool: tool, Arguments: restart})
}
