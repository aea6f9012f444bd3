package emulator_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

func postForm(t *testing.T, target, token string, form url.Values, accept string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if token != "" {
		req.Header.Set("Authorization", "token "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// GitHub's OAuth endpoints answer form-encoded unless asked for JSON,
// send the token endpoint's errors with status 200, and need the user
// signed in to enter a code.
func TestDeviceFlowEndpoints(t *testing.T) {
	t.Parallel()
	base := serveDemo(t)
	status, ctype, body := postForm(t, base+"/login/device/code", "", url.Values{"client_id": {emulator.DeviceFlowClientID}, "scope": {"repo read:org"}}, "")
	if status != http.StatusOK {
		t.Fatalf("device code: status %d, want %d", status, http.StatusOK)
	}
	if !strings.HasPrefix(ctype, "application/x-www-form-urlencoded") {
		t.Fatalf("device code: Content-Type %q, want application/x-www-form-urlencoded", ctype)
	}
	v, err := url.ParseQuery(body)
	if err != nil {
		t.Fatalf("device code answer %q: %v", body, err)
	}
	for _, key := range []string{"device_code", "user_code"} {
		if v.Get(key) == "" {
			t.Fatalf("device code answer %q: no %s, want one", body, key)
		}
	}
	if got := v.Get("expires_in"); got != "900" {
		t.Fatalf("device code answer: expires_in %q, want \"900\"", got)
	}
	if got := v.Get("interval"); got != "5" {
		t.Fatalf("device code answer: interval %q, want \"5\"", got)
	}
	tokenURL := base + "/login/oauth/access_token"
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"client_id": {emulator.DeviceFlowClientID}, "device_code": {v.Get("device_code")}, "grant_type": {"authorization_code"}}, `"error":"unsupported_grant_type"`},
		{url.Values{"client_id": {emulator.DeviceFlowClientID}, "device_code": {"nope"}, "grant_type": {"urn:ietf:params:oauth:grant-type:device_code"}}, `"error":"incorrect_device_code"`},
		{url.Values{"client_id": {"other"}, "device_code": {v.Get("device_code")}, "grant_type": {"urn:ietf:params:oauth:grant-type:device_code"}}, `"error":"incorrect_client_credentials"`},
		{url.Values{"client_id": {emulator.DeviceFlowClientID}, "device_code": {v.Get("device_code")}, "grant_type": {"urn:ietf:params:oauth:grant-type:device_code"}}, `"error":"authorization_pending"`},
	} {
		status, _, body := postForm(t, tokenURL, "", tc.form, "application/json")
		if status != http.StatusOK {
			t.Errorf("poll %v: status %d, want %d: %s", tc.form, status, http.StatusOK, body)
		}
		if !strings.Contains(body, tc.want) {
			t.Errorf("poll %v: body %s, want one with %s", tc.form, body, tc.want)
		}
	}
	if status, _, _ := postForm(t, base+"/login/device", "", url.Values{"user_code": {v.Get("user_code")}}, ""); status != http.StatusUnauthorized {
		t.Errorf("entering the code signed out: %d, want 401", status)
	}
	if status, _, _ := postForm(t, base+"/login/device", emulator.DemoTokenAlice, url.Values{"user_code": {"BBBB-BBBB"}}, ""); status != http.StatusNotFound {
		t.Errorf("entering a wrong code: %d, want 404", status)
	}
	status, _, body = postForm(t, base+"/login/device", emulator.DemoTokenAlice, url.Values{"user_code": {strings.ToLower(v.Get("user_code"))}}, "")
	if status != http.StatusOK {
		t.Errorf("entering the code as alice: status %d, want %d: %s", status, http.StatusOK, body)
	}
	if !strings.Contains(body, `"login":"alice"`) {
		t.Errorf("entering the code as alice: body %s, want one naming alice", body)
	}
	if status, _, _ := postForm(t, base+"/login/oauth/access_token", "", url.Values{}, ""); status != http.StatusOK {
		t.Errorf("empty poll: %d, want 200 with an error", status)
	}
}
