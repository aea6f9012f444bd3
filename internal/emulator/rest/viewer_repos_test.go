package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
)

func TestViewerReposListsOwnedAndCollaborations(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	defer srv.Close()
	names := func(token string) []string {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/user/repos", nil)
		req.Header.Set("Authorization", "token "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var repos []struct {
			FullName string `json:"full_name"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&repos); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range repos {
			out = append(out, r.FullName)
		}
		return out
	}
	if got := names(seed.DemoTokenAlice); len(got) != 3 || got[0] != "acme/gadgets" || got[2] != "alice/notes" {
		t.Fatalf("alice: %v", got)
	}
	if got := names(seed.DemoTokenCarol); len(got) != 2 {
		t.Fatalf("carol collaborates on both acme repositories: %v", got)
	}
	if got := names(seed.DemoTokenDave); len(got) != 1 || got[0] != "dave/widgets" {
		t.Fatalf("dave collaborates on nothing and owns his fork of acme/widgets: %v", got)
	}
}
