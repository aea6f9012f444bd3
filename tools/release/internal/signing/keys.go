// Package signing signs a release with an Ed25519 key: checksums.txt with a
// detached signature, each archive's provenance statement in a DSSE
// envelope. Ed25519 signatures are deterministic, so two builds of one
// commit signed with one key are byte-identical, which the snapshot's
// comparison relies on.
//
// Keys are PEM: the private key PKCS#8 ("PRIVATE KEY"), the public key
// PKIX ("PUBLIC KEY"), the forms openssl and cosign read.
package signing

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
)

// KeyEnv names the environment variable that gives the release build the
// path of the private key. The key is never in the repository.
const KeyEnv = "GHGATE_RELEASE_KEY"

// Generate makes a new key pair, PEM-encoded.
func Generate() (private, public []byte, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, err
	}
	pubPEM, err := MarshalPublic(pub)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), pubPEM, nil
}

// MarshalPublic is the PEM form of pub.
func MarshalPublic(pub ed25519.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// LoadPrivate reads a PEM PKCS#8 Ed25519 private key.
func LoadPrivate(path string) (ed25519.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, _ := pem.Decode(data)
	if b == nil || b.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s: not a PEM PRIVATE KEY", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, want an Ed25519 key", path, k)
	}
	return priv, nil
}

// LoadPublic reads a PEM PKIX Ed25519 public key.
func LoadPublic(path string) (ed25519.PublicKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParsePublic(data)
}

// ParsePublic parses a PEM PKIX Ed25519 public key.
func ParsePublic(data []byte) (ed25519.PublicKey, error) {
	b, _ := pem.Decode(data)
	if b == nil || b.Type != "PUBLIC KEY" {
		return nil, fmt.Errorf("not a PEM PUBLIC KEY")
	}
	k, err := x509.ParsePKIXPublicKey(b.Bytes)
	if err != nil {
		return nil, err
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("a %T, want an Ed25519 key", k)
	}
	return pub, nil
}

// PrivateKey is a release signing key.
type PrivateKey = ed25519.PrivateKey
