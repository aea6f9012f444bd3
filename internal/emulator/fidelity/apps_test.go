package fidelity

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/testutil"
)

// TestAppInstallationTokens drives an App through its JWT to installation
// tokens and checks GitHub's refusals, every answer validated against
// GitHub's description.
func TestAppInstallationTokens(t *testing.T) {
	clock := testutil.NewClock(time.Now().UTC().Truncate(time.Second))
	w := newWorld(t, emulator.Options{Now: clock.Now})
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	st := w.srv.Emu.State()
	st.Lock()
	app := st.AddApp(42, &key.PublicKey)
	app.AddInstallation(7, "acme", map[string]emulator.Permission{"acme/widgets": emulator.PermWrite})
	st.Unlock()
	sign := func(k *rsa.PrivateKey, iat, exp time.Duration) string {
		now := clock.Now()
		s, err := emulator.SignAppJWT(42, k, now.Add(iat), now.Add(exp))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const mint = "/app/installations/7/access_tokens"
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }

	// Refusals: a JWT signed by another key, expired, too long-lived; a
	// personal token; an installation the App does not have.
	for name, tc := range map[string]struct {
		jwt  string
		path string
		want int
		msg  string
	}{
		"wrong key":     {sign(other, -30*time.Second, 5*time.Minute), mint, 401, "could not be decoded"},
		"expired":       {sign(key, -20*time.Minute, -10*time.Minute), mint, 401, "'exp'"},
		"too far":       {sign(key, 0, time.Hour), mint, 401, "too far"},
		"not a jwt":     {"not.a.jwt", mint, 401, ""},
		"unknown inst.": {sign(key, -30*time.Second, 5*time.Minute), "/app/installations/8/access_tokens", 404, ""},
	} {
		res := w.srv.Do(t, "POST", tc.path, "", nil, bearer(tc.jwt))
		checkResponse(t, name, res, tc.want, tc.msg)
	}
	if res := w.do(t, "POST", mint, tokAlice, nil); res.Status != 401 {
		t.Errorf("a personal token minted an installation token: status %d, want %d", res.Status, 401)
	}

	// A good JWT mints a token that writes as the App's bot, until it
	// expires an hour later.
	res := w.srv.Do(t, "POST", mint, "", nil, bearer(sign(key, -30*time.Second, 9*time.Minute)))
	if res.Status != 201 {
		t.Fatalf("mint: status %d, want %d: %s", res.Status, 201, res.Body)
	}
	var tok struct {
		Token       string            `json:"token"`
		ExpiresAt   time.Time         `json:"expires_at"`
		Permissions map[string]string `json:"permissions"`
	}
	res.JSON(t, &tok)
	if !strings.HasPrefix(tok.Token, "ghs_") {
		t.Errorf("minted token %q, want one starting ghs_", tok.Token)
	}
	if want := clock.Now().Add(time.Hour); !tok.ExpiresAt.Equal(want) {
		t.Errorf("minted token expires_at %s, want an hour on, %s", tok.ExpiresAt, want)
	}
	if got := tok.Permissions["issues"]; got != "write" {
		t.Errorf("minted token permissions[issues] %q, want %q", got, "write")
	}
	res = w.do(t, "POST", "/repos/acme/widgets/issues", tok.Token, map[string]any{"title": "Filed by the App"})
	checkResponse(t, "write with the installation token", res, 201, `"login":"app-42[bot]"`)
	if res := w.do(t, "GET", "/repos/acme/widgets", tok.Token+"x", nil); res.Status != 401 {
		t.Errorf("a wrong installation token: status %d, want %d", res.Status, 401)
	}
	clock.Advance(time.Hour)
	if res := w.do(t, "GET", "/repos/acme/widgets", tok.Token, nil); res.Status != 401 {
		t.Errorf("an expired installation token: status %d, want %d", res.Status, 401)
	}

	// Narrowed to read on issues, the token cannot write.
	res = w.srv.Do(t, "POST", mint, "", map[string]any{"repositories": []string{"widgets"}, "permissions": map[string]string{"issues": "read"}},
		bearer(sign(key, -30*time.Second, 5*time.Minute)))
	res.JSON(t, &tok)
	if res.Status != 201 {
		t.Fatalf("narrowed mint: status %d, want 201: %s", res.Status, res.Body)
	}
	if got := tok.Permissions["issues"]; got != "read" {
		t.Fatalf("narrowed mint: permissions[issues] %q, want %q", got, "read")
	}
	if res := w.do(t, "POST", "/repos/acme/widgets/issues/1/labels", tok.Token, map[string]any{"labels": []string{"bug"}}); res.Status != 403 {
		t.Errorf("write with a read-only installation token: status %d, want %d", res.Status, 403)
	}
	res = w.srv.Do(t, "POST", mint, "", map[string]any{"repositories": []string{"vault"}}, bearer(sign(key, -30*time.Second, 5*time.Minute)))
	if res.Status != 422 {
		t.Errorf("a repository outside the installation: status %d, want %d: %s", res.Status, 422, res.Body)
	}
}

// An App's bot account is typed "Bot" in REST user objects, with GitHub's
// escaped API URL and the App's page as its html_url; people stay "User".
func TestAppBotIsABot(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	st := w.srv.Emu.State()
	st.Lock()
	bot := st.AddApp(42, nil).Bot
	st.AddToken(&emulator.Token{Value: "t-bot", Login: bot.Login,
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermWrite}})
	st.Unlock()

	type user struct {
		Login   string `json:"login"`
		Type    string `json:"type"`
		URL     string `json:"url"`
		HTMLURL string `json:"html_url"`
		NodeID  string `json:"node_id"`
	}
	want := user{Login: "app-42[bot]", Type: "Bot", URL: w.srv.URL + "/users/app-42%5Bbot%5D",
		HTMLURL: w.srv.URL + "/apps/app-42", NodeID: bot.NodeID}
	var issue struct {
		Number int  `json:"number"`
		User   user `json:"user"`
	}
	res := w.do(t, "POST", "/repos/acme/widgets/issues", "t-bot", map[string]any{"title": "Filed by the App"})
	res.JSON(t, &issue)
	if res.Status != 201 {
		t.Errorf("create issue as the bot: status %d, want 201", res.Status)
	}
	if diff := cmp.Diff(want, issue.User); diff != "" {
		t.Errorf("issue author mismatch (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(want.NodeID, "BOT_") {
		t.Errorf("bot node id %q, want GitHub's BOT_ prefix", want.NodeID)
	}
	var comment struct {
		User user `json:"user"`
	}
	w.do(t, "POST", "/repos/acme/widgets/issues/"+strconv.Itoa(issue.Number)+"/comments", "t-bot",
		map[string]any{"body": "And commented on"}).JSON(t, &comment)
	if comment.User != want {
		t.Errorf("comment author %+v, want %+v", comment.User, want)
	}
	var profile user
	w.do(t, "GET", "/users/app-42%5Bbot%5D", tokCarol, nil).JSON(t, &profile)
	if profile != want {
		t.Errorf("GET /users/app-42[bot]: %+v, want %+v", profile, want)
	}
	var person user
	w.do(t, "GET", "/users/carol", tokCarol, nil).JSON(t, &person)
	if person.Type != "User" {
		t.Errorf("GET /users/carol: type %q, want %q", person.Type, "User")
	}
	if want := w.srv.URL + "/carol"; person.HTMLURL != want {
		t.Errorf("GET /users/carol: html_url %q, want %q", person.HTMLURL, want)
	}
}
