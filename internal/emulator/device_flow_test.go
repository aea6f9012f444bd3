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
	if status != http.StatusOK || !strings.HasPrefix(ctype, "application/x-www-form-urlencoded") {
		t.Fatalf("device code: %d %s, want 200 form-encoded", status, ctype)
	}
	v, err := url.ParseQuery(body)
	if err != nil || v.Get("device_code") == "" || v.Get("user_code") == "" || v.Get("expires_in") != "900" || v.Get("interval") != "5" {
		t.Fatalf("device code answer %q: want device_code, user_code, expires_in=900, interval=5", body)
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
		if status != http.StatusOK || !strings.Contains(body, tc.want) {
			t.Errorf("poll %v: %d %s, want 200 with %s", tc.form, status, body, tc.want)
		}
	}
	if status, _, _ := postForm(t, base+"/login/device", "", url.Values{"user_code": {v.Get("user_code")}}, ""); status != http.StatusUnauthorized {
		t.Errorf("entering the code signed out: %d, want 401", status)
	}
	if status, _, _ := postForm(t, base+"/login/device", emulator.DemoTokenAlice, url.Values{"user_code": {"BBBB-BBBB"}}, ""); status != http.StatusNotFound {
		t.Errorf("entering a wrong code: %d, want 404", status)
	}
	if status, _, body := postForm(t, base+"/login/device", emulator.DemoTokenAlice, url.Values{"user_code": {strings.ToLower(v.Get("user_code"))}}, ""); status != http.StatusOK || !strings.Contains(body, `"login":"alice"`) {
		t.Errorf("entering the code as alice: %d %s, want 200 naming alice", status, body)
	}
	if status, _, _ := postForm(t, base+"/login/oauth/access_token", "", url.Values{}, ""); status != http.StatusOK {
		t.Errorf("empty poll: %d, want 200 with an error", status)
	}
}
