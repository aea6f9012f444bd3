package fidelity

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// A file name with a space appears in the contents URLs escaped, as GitHub
// sends it; the harness checks those URLs are URIs.
func TestContentsEscapePathsInLinks(t *testing.T) {
	srv := emulatortest.Start(t, emulator.Options{Seed: "demo"})
	st := srv.Emu.State()
	st.Lock()
	st.Repo("acme", "widgets").Files[".github/ISSUE_TEMPLATE/bug report 2.md"] = "---\nname: Bug 2\n---\nbody\n"
	st.Unlock()
	dir := srv.Do(t, "GET", "/repos/acme/widgets/contents/.github/ISSUE_TEMPLATE", emulator.DemoTokenAlice, nil)
	if dir.Status != 200 {
		t.Fatalf("listing: status %d, want 200: %s", dir.Status, dir.Body)
	}
	if !strings.Contains(string(dir.Body), "bug%20report%202.md") {
		t.Fatalf("listing: %s, want bug%%20report%%202.md in it", dir.Body)
	}
	file := srv.Do(t, "GET", "/repos/acme/widgets/contents/.github/ISSUE_TEMPLATE/bug%20report%202.md", emulator.DemoTokenAlice, nil)
	if file.Status != 200 {
		t.Fatalf("file: status %d, want %d: %s", file.Status, 200, file.Body)
	}
}
