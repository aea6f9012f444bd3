package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
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
	got := names(seed.DemoTokenAlice)
	if len(got) != 3 {
		t.Fatalf("alice's repositories %v, want 3", got)
	}
	if got[0] != "acme/gadgets" {
		t.Fatalf("alice's first repository %q, want %q (all %v)", got[0], "acme/gadgets", got)
	}
	if got[2] != "alice/notes" {
		t.Fatalf("alice's last repository %q, want %q (all %v)", got[2], "alice/notes", got)
	}
	if got := names(seed.DemoTokenCarol); len(got) != 2 {
		t.Fatalf("carol's repositories %v, want the 2 acme ones she collaborates on", got)
	}
	if got := names(seed.DemoTokenDave); !slices.Equal(got, []string{"dave/widgets"}) {
		t.Fatalf("dave's repositories %v, want only his fork [dave/widgets]", got)
	}
}
