package broker

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strconv"

	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// maxSocketMode is the widest mode the socket may have: the broker's user
// and the bridge group, nobody else.
const maxSocketMode = 0o660

// Check refuses a config that would be unsafe to serve, with every reason
// it finds: a secrets file others can read or the group can write, a
// socket mode wider than 0660, a route naming a secret that exists
// nowhere, an App key that is not a PEM RSA private key, a sync_root that
// anyone but the broker's user and root could change
// ([toolkit.CheckSyncRoot]). Reasons name files, routes and secret names,
// never a secret's value.
func Check(cfg *Config) error {
	var errs []error
	if err := checkSocketMode(cfg.Listen.Mode); err != nil {
		errs = append(errs, err)
	}
	if cfg.Tools.SyncRoot != "" {
		if err := toolkit.CheckSyncRoot(cfg.Tools.SyncRoot); err != nil {
			errs = append(errs, fmt.Errorf("[tools] %w", err))
		}
	}
	secrets, err := LoadSecrets(cfg)
	if err != nil {
		errs = append(errs, err)
	} else {
		for _, r := range cfg.Routes {
			if !r.IsApp() {
				continue
			}
			key, _ := secrets.Get(r.AppKey)
			if _, err := parseAppKey(key); err != nil {
				errs = append(errs, fmt.Errorf("route %q: secret %q: %w", r.Owner, r.AppKey, err))
			}
		}
	}
	return errors.Join(errs...)
}

// SocketMode parses [listen] mode ("" is 0660) and refuses anything wider
// than 0660.
func SocketMode(mode string) (uint32, error) {
	if mode == "" {
		return maxSocketMode, nil
	}
	m, err := strconv.ParseUint(mode, 8, 32)
	if err != nil || m > 0o7777 {
		return 0, fmt.Errorf("[listen] mode %q is not an octal file mode such as \"0660\"", mode)
	}
	if m&^maxSocketMode != 0 {
		return 0, fmt.Errorf("[listen] mode %s is wider than 0660: only the broker's user and the bridge group may open the socket", mode)
	}
	return uint32(m), nil
}

func checkSocketMode(mode string) error {
	_, err := SocketMode(mode)
	return err
}

// parseAppKey reads a GitHub App's private key: PEM, RSA, in PKCS #1 (as
// GitHub downloads it) or PKCS #8. Errors never quote the key.
func parseAppKey(key string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(key))
	if block == nil {
		return nil, errors.New("not a PEM-encoded RSA private key")
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, errors.New("not a PEM-encoded RSA private key")
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("a PEM private key, but not RSA (GitHub App keys are RSA)")
	}
	return rk, nil
}
