package graphql

import (
	"encoding/base64"
	"path"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Ids of the Node types the emulator derives from other state instead of
// storing (a commit's status rollup, a pending review request, the check
// suite and workflow of a check run reported without an Actions run).
// GitHub gives each an id; the emulator makes one from what identifies the
// object, in the same shape as state.NodeID, so it is stable across reads.

// derivedID is prefix's id for the object the parts identify.
func derivedID(prefix string, parts ...string) string {
	return prefix + "_kwDO" + base64.RawURLEncoding.EncodeToString([]byte("emu:"+strings.Join(parts, ":")))
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// registerDerivedIDs serves id on the derived Node types, and url on
// Workflow (UniformResourceLocatable).
func registerDerivedIDs(r *resolvers) {
	resolve(r, "StatusCheckRollup.id", func(_ *gqlContext, ro *rollup) (any, error) {
		return derivedID("SCR", itoa(ro.repo.ID), ro.sha), nil
	})
	resolve(r, "ReviewRequest.id", func(_ *gqlContext, rr *reviewRequest) (any, error) {
		switch v := rr.reviewer.(type) {
		case *state.Account:
			return derivedID("RR", itoa(rr.pull.ID), v.NodeID), nil
		case *state.Team:
			return derivedID("RR", itoa(rr.pull.ID), v.NodeID), nil
		}
		return derivedID("RR", itoa(rr.pull.ID)), nil
	})
	// An Actions job's suite and run are the run's own; a check run
	// reported without a run stands for a suite and run of its own.
	resolve(r, "CheckSuite.id", func(_ *gqlContext, s *checkSuite) (any, error) {
		if s.run.Run != nil {
			return s.run.Run.CheckSuiteNodeID, nil
		}
		return state.NodeID("CS", s.run.ID), nil
	})
	resolve(r, "WorkflowRun.id", func(_ *gqlContext, s *checkSuite) (any, error) {
		if s.run.Run != nil {
			return s.run.Run.NodeID, nil
		}
		return state.NodeID("WFR", s.run.ID), nil
	})
	resolve(r, "Workflow.id", func(_ *gqlContext, w *workflow) (any, error) {
		if w.run != nil {
			return state.NodeID("W", w.run.WorkflowID), nil
		}
		return derivedID("W", itoa(w.repo.ID), w.name), nil
	})
	// A workflow's page is named by its file; a workflow known only by
	// name (a check run reported without a run) has no file, and the
	// repository's Actions page stands in.
	resolve(r, "Workflow.url", func(x *gqlContext, w *workflow) (any, error) {
		if w.run != nil {
			return x.webURL("/" + w.repo.FullName() + "/actions/workflows/" + path.Base(w.run.Path)), nil
		}
		return x.webURL("/" + w.repo.FullName() + "/actions"), nil
	})
}
