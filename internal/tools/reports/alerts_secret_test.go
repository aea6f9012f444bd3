package reports_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// A leaked secret's value is never returned, logged or audited. The
// report runs behind the credential broker (whose audit log and server
// log are real), over the organization's lists and a repository's, and
// truncated; every frame on the socket, every result, the log and the
// audit file are scanned for seed.SecretCanary, which every secret the
// emulator planted holds, and which it serves to any client that does not
// ask hide_secret=true.
func TestReportSecurityAlertsNeverShowSecrets(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{FleetRepos: 12, Tools: `toolsets = ["reports"]`})
	st := d.Up.Emu.State()
	st.Lock()
	// The broker's credential acts as alice (the fleet's owner) through a
	// classic token, so the organization lists answer it, and as an admin
	// of each repository, so their secret lists do.
	tok := st.Token(d.Canary.Value)
	tok.Scopes = []string{"repo", "read:org"}
	for _, r := range st.Repos() {
		if r.Owner.Login == emulator.FleetOrg {
			tok.Perms[strings.ToLower(r.FullName())] = state.PermAdmin
		}
	}
	st.Unlock()

	secret := brokertest.CanaryOf(emulator.SecretCanary)
	// The emulator does hold the secrets, and hands them to a client that
	// asks plainly: the report has something to leak.
	for _, path := range []string{"/orgs/fleet/secret-scanning/alerts", "/repos/fleet/" + emulator.Fleet(0).Name + "/secret-scanning/alerts"} {
		req, _ := http.NewRequest(http.MethodGet, d.Up.URL+path, nil)
		req.Header.Set("Authorization", "token "+d.Canary.Value)
		resp, err := d.Up.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: status = %d, want %d", path, resp.StatusCode, http.StatusOK)
		}
		if !strings.Contains(string(body), emulator.SecretCanary) {
			t.Fatalf("GET %s: canary in the body = false, want true: the emulator planted no secret to keep back", path)
		}
	}

	cs := brokertest.Connect(t, secret, d.Socket.Path())
	secrets := 0
	for _, args := range []map[string]any{
		{"owner": "fleet", "alert_limit": 1000},
		{"owner": "fleet", "repos": []string{emulator.Fleet(0).Name, emulator.Fleet(3).Name}},
		{"owner": "fleet", "types": []string{"secret_scanning"}, "alert_limit": 2},
	} {
		res := brokertest.MustCall(t, secret, cs, alertsTool, args)
		text := brokertest.ResultText(res)
		secret.Scan("a result", []byte(text))
		var out reports.AlertsOut
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			t.Fatal(err)
		}
		for _, r := range out.Alerts {
			if r.Type == reports.SecretScanning {
				secrets++
			}
		}
		if out.NextCall != nil {
			b, _ := json.Marshal(out.NextCall.Arguments)
			secret.Scan("a next_call", b)
		}
	}
	if secrets == 0 {
		t.Fatal("no secret scanning alert was reported: the scan proves nothing")
	}
	if err := d.Stop(); err != nil {
		t.Fatal(err)
	}
	secret.Scan("the broker's log", []byte(d.Log.String()))
	brokertest.ScanAuditFiles(t, secret, d.Files.Dir)
	lines := brokertest.AuditLines(t, d.Files.Audit)
	if !slices.ContainsFunc(lines, func(a broker.AuditLine) bool { return a.Tool == alertsTool }) {
		t.Errorf("audit lines for %s = 0, want one", alertsTool)
	}
	if secret.BytesScanned("frames from the broker") == 0 {
		t.Error("frame bytes scanned = 0, want some")
	}
	if d.Log.String() == "" {
		t.Error("broker log = \"\", want some to scan")
	}
	secret.Check(t)
}
