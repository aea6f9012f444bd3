package credentials_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/credentials"
	"github.com/ghgate/ghgate/internal/emulator"
)

// clock is the emulator's clock, moved by the tests' Wait hooks instead
// of by sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// startEmulator serves a demo emulator on loopback on a clock of its own.
func startEmulator(t *testing.T) (credentials.Host, *clock) {
	t.Helper()
	clk := &clock{t: time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)}
	emu, err := emulator.New(emulator.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	host, err := credentials.ParseHost(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return host, clk
}

// approve enters userCode on the emulator's /login/device as the owner of
// asToken; authorize false denies.
func approve(t *testing.T, host credentials.Host, asToken, userCode string, authorize bool) {
	t.Helper()
	form := url.Values{"user_code": {userCode}}
	if !authorize {
		form.Set("authorize", "false")
	}
	req, _ := http.NewRequest(http.MethodPost, host.Web+"/login/device", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "token "+asToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("approving %s: status %d, want 200: %s", userCode, resp.StatusCode, b)
	}
}

var userCodeRE = regexp.MustCompile(`^[B-Z]{4}-[B-Z]{4}$`)

// waits records what a flow asked to wait, and does step(i, d) instead.
type waits struct {
	mu    sync.Mutex
	asked []time.Duration
	step  func(i int, d time.Duration)
}

func (w *waits) wait(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	i := len(w.asked)
	w.asked = append(w.asked, d)
	w.mu.Unlock()
	w.step(i, d)
	return nil
}
