package broker

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretsConfig writes a secrets file with the given mode and lines and
// returns a config routing acme to acme-read / acme-write.
// It clears CredentialsDirEnv with t.Setenv, so the tests that call it run
// serially.
func secretsConfig(t *testing.T, mode os.FileMode, lines string) *Config {
	t.Helper()
	t.Setenv(CredentialsDirEnv, "")
	path := filepath.Join(t.TempDir(), "secrets.toml")
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // not subject to the umask
		t.Fatal(err)
	}
	return &Config{Listen: Listen{Socket: filepath.Join(t.TempDir(), "s.sock"), Mode: "0660"},
		Secrets: Secrets{File: path},
		Routes:  []Route{{Owner: "acme", Read: "acme-read", Write: "acme-write"}}}
}

// noPiece fails when text holds any 8-character piece of secret.
func noPiece(t *testing.T, where, text, secret string) {
	t.Helper()
	for i := 0; i+8 <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+8]) {
			t.Errorf("%s holds a piece of a secret: %s", where, text)
			return
		}
	}
}

func TestCheckSecretsFileMode(t *testing.T) {
	canary := rtCanaryValue(t)
	lines := fmt.Sprintf("acme-read = %q\nacme-write = %q\n", canary, canary+"w")
	for _, tc := range []struct {
		mode os.FileMode
		ok   bool
	}{
		{0o600, true}, {0o640, true}, {0o400, true}, {0o440, true},
		{0o644, false}, {0o604, false}, {0o660, false}, {0o620, false}, {0o700, false}, {0o666, false},
	} {
		cfg := secretsConfig(t, tc.mode, lines)
		err := Check(cfg)
		if tc.ok {
			if err != nil {
				t.Errorf("mode %04o refused: %v", tc.mode, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("mode %04o accepted", tc.mode)
			continue
		}
		msg := err.Error()
		for _, want := range []string{cfg.Secrets.File, fmt.Sprintf("%04o", tc.mode)} {
			if !strings.Contains(msg, want) {
				t.Errorf("mode %04o: reason = %q, want it to name %s (the file and its mode)", tc.mode, msg, want)
			}
		}
		noPiece(t, "Check error", msg, canary)
		if _, err := LoadSecrets(cfg); err == nil {
			t.Errorf("mode %04o: LoadSecrets accepted the file", tc.mode)
		}
	}
}

func TestCheckSocketMode(t *testing.T) {
	cfg := secretsConfig(t, 0o600, "acme-read = \"r-value-1234\"\nacme-write = \"w-value-1234\"\n")
	for mode, ok := range map[string]bool{"0660": true, "0600": true, "660": true, "0666": false, "0670": false, "0777": false, "rw-rw----": false} {
		cfg.Listen.Mode = mode
		err := Check(cfg)
		if ok != (err == nil) {
			t.Errorf("socket mode %s: Check = %v, want accepted %v", mode, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), mode) {
			t.Errorf("socket mode %s: reason %q does not name it", mode, err)
		}
	}
}

func TestCheckMissingSecret(t *testing.T) {
	canary := rtCanaryValue(t)
	cfg := secretsConfig(t, 0o600, fmt.Sprintf("acme-read = %q\n", canary))
	cfg.Routes = append(cfg.Routes, Route{Owner: "*", Read: "ghost"})
	err := Check(cfg)
	if err == nil {
		t.Fatal("a route naming missing secrets passed Check")
	}
	msg := err.Error()
	for _, want := range []string{`route "acme": secret "acme-write"`, `route "*": secret "ghost"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("reason %q does not say %s", msg, want)
		}
	}
	noPiece(t, "Check error", msg, canary)
	if _, err := LoadSecrets(cfg); err == nil {
		t.Error("LoadSecrets accepted a missing secret")
	}
}

func TestCheckAppKey(t *testing.T) {
	canary := rtCanaryValue(t)
	cfg := secretsConfig(t, 0o600, fmt.Sprintf("acme-read = \"r-value-1234\"\nacme-write = \"w-value-1234\"\napp-key = %q\n", canary))
	cfg.Routes = append(cfg.Routes, Route{Owner: "*", AppID: 1, InstallationID: 2, AppKey: "app-key"})
	err := Check(cfg)
	if err == nil || !strings.Contains(err.Error(), `route "*": secret "app-key": not a PEM-encoded RSA private key`) {
		t.Fatalf("Check = %v, want the App key refused by route and secret name", err)
	}
	noPiece(t, "Check error", err.Error(), canary)

	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	cfg = secretsConfig(t, 0o600, fmt.Sprintf("acme-read = \"r-value-1234\"\nacme-write = \"w-value-1234\"\napp-key = '''\n%s'''\n", pemKey))
	cfg.Routes = append(cfg.Routes, Route{Owner: "*", AppID: 1, InstallationID: 2, AppKey: "app-key"})
	if err := Check(cfg); err != nil {
		t.Errorf("a PKCS #8 RSA key was refused: %v", err)
	}
}

func TestCredentialsDirectoryBeforeFile(t *testing.T) {
	fromFile, fromDir := rtCanaryValue(t), rtCanaryValue(t)
	cfg := secretsConfig(t, 0o600, fmt.Sprintf("acme-write = %q\n", fromFile))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "acme-write"), []byte(fromDir+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "acme-read"), []byte("read-from-dir"), 0o400); err != nil {
		t.Fatal(err)
	}
	t.Setenv(CredentialsDirEnv, dir)
	s, err := LoadSecrets(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get("acme-write"); v != fromDir {
		t.Error("acme-write: the secrets file won over $CREDENTIALS_DIRECTORY")
	}
	if v, ok := s.Get("acme-read"); !ok {
		t.Error("acme-read: no value, want the one in $CREDENTIALS_DIRECTORY")
	} else if v != "read-from-dir" {
		t.Error("acme-read: the value is not the one in $CREDENTIALS_DIRECTORY")
	}
	if err := Check(cfg); err != nil {
		t.Errorf("Check: %v", err)
	}

	// With the directory lacking a name, the file still serves it.
	if err := os.Remove(filepath.Join(dir, "acme-write")); err != nil {
		t.Fatal(err)
	}
	s, err = LoadSecrets(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get("acme-write"); v != fromFile {
		t.Error("acme-write did not fall back to the secrets file")
	}
	if vals := s.Values(); len(vals) != 2 {
		t.Errorf("Values() holds %d values, want 2", len(vals))
	}
}

func TestSecretsFileErrorsHideValues(t *testing.T) {
	canary := rtCanaryValue(t)
	for name, lines := range map[string]string{
		"unquoted":   "acme-read = " + canary + "\n",
		"not string": "acme-read = 12345678901234\n",
		"broken":     fmt.Sprintf("acme-read = %q\nacme-write = \"%s\n", canary, canary),
	} {
		cfg := secretsConfig(t, 0o600, lines)
		_, err := LoadSecrets(cfg)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), cfg.Secrets.File) {
			t.Errorf("%s: %q does not name the file", name, err)
		}
		noPiece(t, name, err.Error(), canary)
		noPiece(t, name, err.Error(), "12345678901234")
	}
}
