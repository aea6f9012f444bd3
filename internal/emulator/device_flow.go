package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// The OAuth apps the emulator knows, by client id. GitHub's device flow
// is opt-in per app: [DeviceFlowClientID] has it enabled,
// DeviceFlowDisabledClientID does not; any other client id is unknown.
const (
	DeviceFlowClientID         = "Ov23liEmulatorDevice"
	DeviceFlowDisabledClientID = "Ov23liEmulatorNoFlow"
)

// GitHub's device flow figures: a device code lives 15 minutes, and a
// client polls no faster than every 5 seconds, 5 more after each slow_down.
const (
	deviceCodeLifetime  = 900 * time.Second
	devicePollInterval  = 5 * time.Second
	deviceSlowDownAdded = 5 * time.Second
	deviceGrantType     = "urn:ietf:params:oauth:grant-type:device_code"
)

// deviceGrant is one device authorization: what the client asked for,
// and what the user said.
type deviceGrant struct {
	deviceCode, userCode, clientID string
	scopes                         []string
	expires                        time.Time
	interval                       time.Duration
	lastPoll                       time.Time
	approvedBy                     *state.Token // the approving user's own credential
	denied                         bool
}

// deviceFlows holds the pending authorizations, by device and user code.
type deviceFlows struct {
	mu       sync.Mutex
	byDevice map[string]*deviceGrant
	byUser   map[string]*deviceGrant
}

// login serves GitHub's web-host OAuth endpoints: POST /login/device/code
// and POST /login/oauth/access_token as GitHub documents them, and POST
// /login/device, the emulator's stand-in for the page where a signed-in
// user enters the user code (authenticated with that user's token).
func (e *Emulator) login(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "Not Found"})
		return
	}
	form, ok := readOAuthForm(r)
	if !ok {
		writeOAuth(w, r, http.StatusBadRequest, url.Values{"error": {"bad_request"}, "error_description": {"The request body could not be read."}})
		return
	}
	switch r.URL.Path {
	case "/login/device/code":
		e.deviceCode(w, r, form)
	case "/login/oauth/access_token":
		e.deviceToken(w, r, form)
	case "/login/device":
		e.deviceApprove(w, r, form)
	default:
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "Not Found"})
	}
}

// deviceCode starts an authorization: GitHub answers an unknown client
// with 401 and an app without the device flow with 400 device_flow_disabled.
func (e *Emulator) deviceCode(w http.ResponseWriter, r *http.Request, form url.Values) {
	switch form.Get("client_id") {
	case DeviceFlowClientID:
	case DeviceFlowDisabledClientID:
		writeOAuth(w, r, http.StatusBadRequest, oauthError("device_flow_disabled", "Device Flow must be explicitly enabled for this App"))
		return
	default:
		writeOAuth(w, r, http.StatusUnauthorized, oauthError("incorrect_client_credentials", "The client_id passed is incorrect."))
		return
	}
	g := &deviceGrant{deviceCode: randomHex(20), userCode: newUserCode(), clientID: form.Get("client_id"),
		scopes: strings.Fields(strings.ReplaceAll(form.Get("scope"), ",", " ")), interval: devicePollInterval,
		expires: e.state.Clock().Add(deviceCodeLifetime)}
	f := &e.devices
	f.mu.Lock()
	if f.byDevice == nil {
		f.byDevice, f.byUser = map[string]*deviceGrant{}, map[string]*deviceGrant{}
	}
	f.byDevice[g.deviceCode], f.byUser[g.userCode] = g, g
	f.mu.Unlock()
	writeOAuth(w, r, http.StatusOK, url.Values{
		"device_code": {g.deviceCode}, "user_code": {g.userCode}, "verification_uri": {webRoot(r) + "/login/device"},
		"expires_in": {strconv.Itoa(int(deviceCodeLifetime.Seconds()))}, "interval": {strconv.Itoa(int(g.interval.Seconds()))},
	})
}

// deviceToken answers a poll. GitHub sends its errors here with status
// 200; slow_down comes when a poll arrives sooner than the interval after
// the last one, and raises the interval by five seconds for good.
func (e *Emulator) deviceToken(w http.ResponseWriter, r *http.Request, form url.Values) {
	if form.Get("grant_type") != deviceGrantType {
		writeOAuth(w, r, http.StatusOK, oauthError("unsupported_grant_type", "The grant type must be "+deviceGrantType+"."))
		return
	}
	f := &e.devices
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.byDevice[form.Get("device_code")]
	switch {
	case form.Get("client_id") != DeviceFlowClientID || (g != nil && g.clientID != form.Get("client_id")):
		writeOAuth(w, r, http.StatusOK, oauthError("incorrect_client_credentials", "The client_id passed is incorrect."))
		return
	case g == nil:
		writeOAuth(w, r, http.StatusOK, oauthError("incorrect_device_code", "The device_code provided is not valid."))
		return
	}
	now := e.state.Clock()
	if !now.Before(g.expires) {
		writeOAuth(w, r, http.StatusOK, oauthError("expired_token", "The device_code has expired."))
		return
	}
	if g.denied {
		delete(f.byDevice, g.deviceCode)
		delete(f.byUser, g.userCode)
		writeOAuth(w, r, http.StatusOK, oauthError("access_denied", "The user has denied your application access."))
		return
	}
	early := !g.lastPoll.IsZero() && now.Sub(g.lastPoll) < g.interval
	g.lastPoll = now
	if early {
		g.interval += deviceSlowDownAdded
		v := oauthError("slow_down", "Too many requests have been made in the same timeframe.")
		v.Set("interval", strconv.Itoa(int(g.interval.Seconds())))
		writeOAuth(w, r, http.StatusOK, v)
		return
	}
	if g.approvedBy == nil {
		writeOAuth(w, r, http.StatusOK, oauthError("authorization_pending", "The authorization request is still pending."))
		return
	}
	// The code is spent: the token is handed out once.
	delete(f.byDevice, g.deviceCode)
	delete(f.byUser, g.userCode)
	tok := &state.Token{Value: "gho_" + randomHex(18), Login: g.approvedBy.Login, Scopes: g.scopes, Perms: g.approvedBy.Perms}
	e.state.Lock()
	e.state.AddToken(tok)
	e.state.Unlock()
	writeOAuth(w, r, http.StatusOK, url.Values{"access_token": {tok.Value}, "token_type": {"bearer"}, "scope": {strings.Join(g.scopes, ",")}})
}

// deviceApprove is the user entering the code on /login/device while
// signed in: the request carries that user's token, the form the
// user_code and, to deny, authorize=false.
func (e *Emulator) deviceApprove(w http.ResponseWriter, r *http.Request, form url.Values) {
	tok, authErr := e.authenticate(r)
	if authErr != "" {
		wire.WriteJSON(w, http.StatusUnauthorized, wire.ErrorBody{Message: authErr, Status: "401"})
		return
	}
	f := &e.devices
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.byUser[strings.ToUpper(strings.TrimSpace(form.Get("user_code")))]
	if g == nil || !e.state.Clock().Before(g.expires) {
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "The code you entered is invalid or has expired.", Status: "404"})
		return
	}
	if form.Get("authorize") == "false" {
		g.denied = true
	} else {
		g.approvedBy = tok
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"user_code": g.userCode, "login": tok.Login, "authorized": !g.denied})
}

// readOAuthForm reads a form-encoded or JSON body, as GitHub accepts both.
func readOAuthForm(r *http.Request) (url.Values, bool) {
	r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/json" {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			return nil, false
		}
		v := url.Values{}
		for k, x := range body {
			switch x := x.(type) {
			case string:
				v.Set(k, x)
			case bool:
				v.Set(k, strconv.FormatBool(x))
			}
		}
		return v, true
	}
	if err := r.ParseForm(); err != nil {
		return nil, false
	}
	return r.Form, true
}

// writeOAuth answers in JSON when the client asks for it and form-encoded
// otherwise, as GitHub's OAuth endpoints do.
func writeOAuth(w http.ResponseWriter, r *http.Request, status int, v url.Values) {
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		body := make(map[string]any, len(v))
		for k := range v {
			body[k] = v.Get(k)
			if n, err := strconv.Atoi(v.Get(k)); err == nil && (k == "expires_in" || k == "interval") {
				body[k] = n
			}
		}
		wire.WriteJSON(w, status, body)
		return
	}
	w.Header().Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(v.Encode()))
}

func oauthError(code, description string) url.Values {
	return url.Values{"error": {code}, "error_description": {description},
		"error_uri": {"https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow"}}
}

// webRoot is the web host's origin: the request's, less an "api." prefix.
func webRoot(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if web, ok := strings.CutPrefix(host, "api."); ok && web != "" {
		host = web
	}
	return scheme + "://" + host
}

// newUserCode makes a code like GitHub's: eight letters in two groups of
// four (WDJB-MJHT), from an alphabet without vowels so no word is spelled.
func newUserCode() string {
	const alphabet = "BCDFGHJKLMNPQRSTVWXZ"
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	out := make([]byte, 0, 9)
	for i, c := range b {
		if i == 4 {
			out = append(out, '-')
		}
		out = append(out, alphabet[int(c)%len(alphabet)])
	}
	return string(out)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
