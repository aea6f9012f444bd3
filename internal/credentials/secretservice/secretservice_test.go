package secretservice_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/credentials"
	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"
)

// secretServiceReachable says whether the session bus has a Secret
// Service (running, or one D-Bus can start), and if not, why.
func secretServiceReachable() (bool, string) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return false, "DBUS_SESSION_BUS_ADDRESS is not set"
	}
	conn, err := dbus.SessionBusPrivate()
	if err != nil {
		return false, "cannot reach the session bus: " + err.Error()
	}
	defer conn.Close()
	if err := conn.Auth(nil); err != nil {
		return false, "session bus refused authentication: " + err.Error()
	}
	if err := conn.Hello(); err != nil {
		return false, "session bus hello: " + err.Error()
	}
	var names []string
	if err := conn.BusObject().Call("org.freedesktop.DBus.ListActivatableNames", 0).Store(&names); err != nil {
		return false, "listing activatable names: " + err.Error()
	}
	var running []string
	if err := conn.BusObject().Call("org.freedesktop.DBus.ListNames", 0).Store(&running); err != nil {
		return false, "listing names: " + err.Error()
	}
	if !slices.Contains(names, "org.freedesktop.secrets") && !slices.Contains(running, "org.freedesktop.secrets") {
		return false, "no org.freedesktop.secrets on the session bus"
	}
	return true, ""
}

// The store writes, reads and deletes a token in a real Secret Service
// under service ghgate:HOST, writes no file while doing so, and what it
// wrote is what go-keyring (and so gh, which uses it too) reads back.
func TestStoreInRealSecretService(t *testing.T) {
	ok, why := secretServiceReachable()
	if !ok {
		if os.Getenv("GHGATE_REQUIRE_SECRET_SERVICE") != "" {
			t.Fatalf("GHGATE_REQUIRE_SECRET_SERVICE is set but no Secret Service is reachable: %s", why)
		}
		t.Skipf("no Secret Service (%s); `make secret-service-test` runs this under dbus-run-session with gnome-keyring", why)
	}
	const host = "secret-service.example.com"
	const token = "gho_REALSECRETSERVICE0123456789"
	file := filepath.Join(t.TempDir(), "ghgate", "credentials.toml")
	s := credentials.Store{Keyring: credentials.System, File: file}
	t.Cleanup(func() { _, _ = s.Delete(host) })

	loc, note, err := s.Save(host, "alice", token)
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	if loc.Kind != credentials.InKeyring {
		t.Fatalf("Save went to %s, want the Secret Service (%s)", loc, credentials.InKeyring)
	}
	if note != "" {
		t.Fatalf("Save note = %q, want none", note)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a credentials file was written beside the keyring: %v", err)
	}
	if got, err := keyring.Get(credentials.KeyringService(host), ""); err != nil {
		t.Errorf("go-keyring Get ghgate:%s: %v", host, err)
	} else if got != token {
		t.Errorf("go-keyring's token under ghgate:%s differs from the one saved", host)
	}
	got, loc, err := s.Load(host)
	if err != nil {
		t.Errorf("Load: %v", err)
	} else {
		if got != token {
			t.Errorf("Load: token differs from the one saved")
		}
		if loc.Kind != credentials.InKeyring {
			t.Errorf("Load: location = %s, want the Secret Service (%s)", loc, credentials.InKeyring)
		}
	}
	removed, err := s.Delete(host)
	if err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if len(removed) != 1 {
		t.Fatalf("Delete removed %v, want the keyring entry", removed)
	}
	if _, err := keyring.Get(credentials.KeyringService(host), ""); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("entry still in the Secret Service after Delete: %v", err)
	}
}
