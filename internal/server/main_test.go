package server_test

import (
	"os"
	"testing"

	"github.com/ghgate/ghgate/internal/tooldef"
)

// TestMain turns the output check on for every server these tests build,
// through servertest or with server.New directly: each tool result is
// validated against its output schema before it is sent.
func TestMain(m *testing.M) {
	if err := os.Setenv(tooldef.CheckOutputsEnv, "1"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
