package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The severity filters as GitHub's description documents them: Dependabot
// takes a comma-separated list of low, medium, high and critical; code
// scanning one value of its enum. Anything else (a comma list for code
// scanning, an unknown word) is a 422 in GitHub's validation shape, so a
// client that sends what the description does not allow is caught.
func TestAlertSeverityFilter(t *testing.T) {
	emu, err := emulator.New(emulator.Options{Now: emulator.DemoNow, FleetRepos: 8})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	repo := "/repos/fleet/" + emulator.Fleet(3).Name
	cases := []struct {
		path string
		want int
	}{
		{"/orgs/fleet/dependabot/alerts?severity=critical,high", http.StatusOK},
		{repo + "/dependabot/alerts?severity=low,medium,high,critical", http.StatusOK},
		{"/orgs/fleet/dependabot/alerts?severity=moderate", http.StatusUnprocessableEntity},
		{repo + "/dependabot/alerts?severity=high,error", http.StatusUnprocessableEntity},
		{"/orgs/fleet/code-scanning/alerts?severity=critical", http.StatusOK},
		{"/orgs/fleet/code-scanning/alerts?severity=error", http.StatusOK},
		{"/orgs/fleet/code-scanning/alerts?severity=critical,error,high,medium", http.StatusUnprocessableEntity},
		{"/orgs/fleet/code-scanning/alerts?severity=severe", http.StatusUnprocessableEntity},
		{repo + "/code-scanning/alerts?severity=high,critical", http.StatusUnprocessableEntity},
	}
	for _, tc := range cases {
		r := get(t, srv.URL+tc.path, emulator.DemoTokenAlice)
		if r.status != tc.want {
			t.Errorf("GET %s: %d, want %d: %.200s", tc.path, r.status, tc.want, r.body)
			continue
		}
		if tc.want != http.StatusUnprocessableEntity {
			continue
		}
		var e struct {
			Message          string `json:"message"`
			DocumentationURL string `json:"documentation_url"`
			Status           string `json:"status"`
		}
		if err := json.Unmarshal(r.body, &e); err != nil {
			t.Errorf("GET %s: decode %s: %v", tc.path, r.body, err)
			continue
		}
		if e.Message == "" {
			t.Errorf("GET %s: no message, want one (%s)", tc.path, r.body)
		}
		if e.DocumentationURL == "" {
			t.Errorf("GET %s: no documentation_url, want one (%s)", tc.path, r.body)
		}
		if e.Status != "" {
			t.Errorf("GET %s: status field %q, want none in GitHub's validation error", tc.path, e.Status)
		}
	}
}
