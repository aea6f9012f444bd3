package emulator_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// Reached as api.<host>, as github.com's API is at api.github.com, the
// emulator's web URLs name <host>; its API URLs keep the host asked.
func TestWebURLsDropTheAPISubdomain(t *testing.T) {
	base := serveDemo(t)
	for _, tc := range []struct{ host, api, web string }{
		{"api.github.example", "http://api.github.example", "http://github.example"},
		{"ghe.example", "http://ghe.example", "http://ghe.example"},
	} {
		req, err := http.NewRequest(http.MethodGet, base+"/repos/acme/widgets", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = tc.host
		req.Header.Set("Authorization", "token "+emulator.DemoTokenAlice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var repo struct {
			URL     string `json:"url"`
			HTMLURL string `json:"html_url"`
		}
		err = json.NewDecoder(resp.Body).Decode(&repo)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := tc.api + "/repos/acme/widgets"; repo.URL != want {
			t.Errorf("Host %s: url %s, want %s", tc.host, repo.URL, want)
		}
		if want := tc.web + "/acme/widgets"; repo.HTMLURL != want {
			t.Errorf("Host %s: html_url %s, want %s", tc.host, repo.HTMLURL, want)
		}
	}
}
