package emulatortest

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// Every route the emulator serves outside GitHub's description has its
// own check here, and there is no check for a route it does not serve.
func TestVersionedOpsCoverUndescribedRoutes(t *testing.T) {
	e, err := emulator.New(emulator.Options{Seed: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	described := e.DescribedRoutes()
	var undescribed []string
	for _, r := range e.Routes() {
		if !slices.Contains(described, r) {
			undescribed = append(undescribed, r)
		}
	}
	var checked []string
	for _, op := range versionedOps {
		checked = append(checked, op.method+" "+op.template)
	}
	slices.Sort(undescribed)
	slices.Sort(checked)
	if !slices.Equal(undescribed, checked) {
		t.Errorf("undescribed routes %q, checked here %q", undescribed, checked)
	}
}
