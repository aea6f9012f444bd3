// Package reports is the reports toolset: questions that span an owner's
// repositories (what is unlabelled, ...), each answered by many GitHub
// calls made through the fan-out engine (internal/fanout) within a budget
// the caller sets. Every report returns what it found even when a bound
// stopped it, says which bound, and gives the literal call that goes on
// from there.
package reports

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// Toolset is this toolset's name.
const Toolset = "reports"

// Tools builds the report tools over a Service.
type Tools struct {
	*toolkit.Service
	// Concurrency is how many calls a report has in flight (0: the
	// engine's default, 8).
	Concurrency int
}

// Specs returns the toolset's tools in the order they are listed.
func Specs(s *toolkit.Service) []tooldef.Spec {
	t := &Tools{Service: s}
	return []tooldef.Spec{t.ReportUnlabeled(), t.ReportSecurityAlerts(), t.ReportReleasePRs(), t.ReportCIStatus()}
}

// Stop is why a report stopped early (truncated_reason).
type Stop string

// JSONSchema implements [tooldef.SelfDescribing].
func (Stop) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(fanout.Reasons()...), nil
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

// JSONSchema implements [tooldef.SelfDescribing].
func (MaxRepos) JSONSchema() (*jsonschema.Schema, error) { return upTo(200), nil }

// JSONSchema implements [tooldef.SelfDescribing].
func (PerRepoLimit) JSONSchema() (*jsonschema.Schema, error) { return upTo(1000), nil }

// JSONSchema implements [tooldef.SelfDescribing].
func (MaxAPICalls) JSONSchema() (*jsonschema.Schema, error) { return upTo(1000), nil }

// upTo is an integer from 1 to hi.
func upTo(hi int) *jsonschema.Schema {
	lo, top := 1.0, float64(hi)
	return &jsonschema.Schema{Type: "integer", Minimum: &lo, Maximum: &top}
}

// openPosition opens a report's continuation cursor into the position it
// carries (P, JSON in the signed cursor), or a fresh position without a
// cursor; a cursor minted for another report, scope or filters, or one
// too old, is cursor_invalid or cursor_expired with the literal call that
// restarts the report (restart). bound names what the cursor is bound to
// besides the report, for the message.
func openPosition[P any](s *Tools, tool, cursor, scope string, filters any, bound string, restart any) (*P, error) {
	var pos P
	if cursor == "" {
		return &pos, nil
	}
	raw, err := s.Cursors.Open(cursor, tool, scope, filters)
	if err == nil && json.Unmarshal([]byte(raw), &pos) != nil {
		err = contract.ErrCursorInvalid
	}
	if err == nil {
		return &pos, nil
	}
	code, msg := contract.CodeCursorInvalid, "the cursor was not minted for this report (another "+bound+")"
	if errors.Is(err, contract.ErrCursorExpired) {
		code, msg = contract.CodeCursorExpired, "the cursor is older than 15 minutes"
	}
	return nil, contract.Errorf(code, "%s", msg).WithField("cursor", msg).
		WithRepair(contract.Repair{NextStep: "run the report again from the start", Tool: tool, Arguments: restart})
}

// mintCursor signs pos (a report's position, as JSON) into the cursor of
// its next_call.
func (s *Tools) mintCursor(tool, scope string, filters, pos any) string {
	b, _ := json.Marshal(pos)
	return s.Cursors.Mint(tool, scope, filters, string(b))
}

// newRun starts a report's fan-out over client c with the call budget
// asked, sending progress as units (repositories, pull requests) done.
func (s *Tools) newRun(ctx context.Context, c *github.Client, maxCalls int, units string) *fanout.Run {
	progress := tooldef.ProgressFrom(ctx)
	return fanout.New(ctx, fanout.Options{Client: c, MaxCalls: maxCalls, Concurrency: s.Concurrency, Shared: s.Fanout(),
		Progress: func(done, total int) { progress(done, total, units) }})
}
