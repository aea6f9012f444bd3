package graphql_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// graphQLReport is the fidelity tally TestGraphQL leaves behind, printed
// after the package's tests so it shows without -v.
var graphQLReport string

func TestMain(m *testing.M) {
	code := m.Run()
	if graphQLReport != "" {
		emulatortest.Tally(graphQLReport)
	}
	if n := projectsCount.validated.Load(); n > 0 {
		emulatortest.Tally(fmt.Sprintf("projects graphql fidelity: %d documents validated against GitHub's schema (%d of them need the overlay)",
			n, projectsCount.overlay.Load()))
	}
	os.Exit(code)
}
