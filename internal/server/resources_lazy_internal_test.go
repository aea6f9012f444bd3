package server

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ghgate/ghgate/internal/tooldef"
)

// brokenSpec is a tool whose Build fails, or panics.
type brokenSpec struct {
	tooldef.Spec
	panics bool
}

func (b brokenSpec) Build(*tooldef.Env) (*mcp.Tool, mcp.ToolHandler, error) {
	if b.panics {
		panic("schema reflection failed")
	}
	return nil, nil, errors.New("input schema does not resolve")
}

// A tool behind the resources that cannot be built fails every read with
// an internal error naming nothing of the cause, says why once in the
// log, and a build that panics is such a failure too, not a nil handler
// called later.
func TestLazyHandlerBuildFailures(t *testing.T) {
	t.Parallel()
	for _, panics := range []bool{false, true} {
		var logs bytes.Buffer
		env := &tooldef.Env{Log: slog.New(slog.NewTextHandler(&logs, nil))}
		r := newResources(nil)
		tool := newLazyHandler(env, func() tooldef.Spec { return brokenSpec{panics: panics} })
		for range 3 {
			_, err := r.viaTool(context.Background(), "ghgate://issues/acme/widgets/1", tool, struct{}{})
			if err == nil || !strings.Contains(err.Error(), "could not build the tool") {
				t.Fatalf("panics=%v: read = %v, want the internal error", panics, err)
			}
			if strings.Contains(err.Error(), "schema") {
				t.Fatalf("panics=%v: the read's error tells the cause: %v", panics, err)
			}
		}
		if n := strings.Count(logs.String(), "could not be built"); n != 1 {
			t.Fatalf("panics=%v: logged %d times, want once:\n%s", panics, n, logs.String())
		}
	}
}
