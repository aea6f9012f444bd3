package credentials

import (
	"errors"
	"fmt"
	"time"

	"github.com/zalando/go-keyring"
)

// Keyring is the OS credential store: Secret Service on Linux, the
// Keychain on macOS, the Credential Manager on Windows.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// ErrNotFound is a keyring without the entry asked for.
var ErrNotFound = keyring.ErrNotFound

// keyringTimeout bounds one keyring call: a locked Secret Service may
// wait on a prompt nobody sees (over SSH, in a container), and then the
// file or the next source must be used instead of hanging.
const keyringTimeout = 3 * time.Second

// System is the OS keyring through go-keyring (whose keyring.MockInit
// replaces it in tests), each call bounded by a timeout.
var System Keyring = systemKeyring{}

type systemKeyring struct{}

func (systemKeyring) Get(service, user string) (string, error) {
	var v string
	err := bounded("read", func() (err error) { v, err = keyring.Get(service, user); return err })
	return v, err
}

func (systemKeyring) Set(service, user, secret string) error {
	return bounded("write", func() error { return keyring.Set(service, user, secret) })
}

func (systemKeyring) Delete(service, user string) error {
	return bounded("delete", func() error { return keyring.Delete(service, user) })
}

func bounded(what string, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if errors.Is(err, keyring.ErrNotFound) {
			return ErrNotFound
		}
		return err
	case <-time.After(keyringTimeout):
		return fmt.Errorf("keyring %s: no answer within %s (a locked keyring waiting on a prompt?)", what, keyringTimeout)
	}
}
