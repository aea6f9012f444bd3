package reports_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/server/servertest"
)

func TestReportUnlabeledFleet(t *testing.T) {
	env := fleetEnv(t, 12, servertest.Options{})
	out := report(t, env, map[string]any{"owner": "fleet"})
	t.Logf("%+v", out)
}
