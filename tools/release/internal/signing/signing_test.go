package signing

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func testKey(t *testing.T) (PrivateKey, []byte) {
	t.Helper()
	privPEM, pubPEM, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.pem")
	if err := os.WriteFile(path, privPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	priv, err := LoadPrivate(path)
	if err != nil {
		t.Fatal(err)
	}
	return priv, pubPEM
}

// One key signs one input to the same bytes every time: the snapshot's two
// builds, signed with one key, compare equal.
func TestSignaturesAreDeterministic(t *testing.T) {
	t.Parallel()
	priv, pubPEM := testKey(t)
	data := []byte("checksums\n")
	if a, b := SignBlob(priv, data), SignBlob(priv, data); !bytes.Equal(a, b) {
		t.Errorf("SignBlob twice = %q and %q, want the same bytes", a, b)
	}
	e1, err := SignEnvelope(priv, InTotoPayloadType, data)
	if err != nil {
		t.Fatal(err)
	}
	e2, _ := SignEnvelope(priv, InTotoPayloadType, data)
	if !bytes.Equal(e1, e2) {
		t.Errorf("SignEnvelope twice differs:\n%s\n%s", e1, e2)
	}
	pub, err := ParsePublic(pubPEM)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyBlob(pub, data, SignBlob(priv, data)); err != nil {
		t.Errorf("VerifyBlob(own signature) = %v, want nil", err)
	}
	if err := VerifyBlob(pub, []byte("checksumz\n"), SignBlob(priv, data)); err == nil {
		t.Errorf("VerifyBlob(other data) = nil, want an error")
	}
	got, err := OpenEnvelope(pub, InTotoPayloadType, e1)
	if err != nil {
		t.Errorf("OpenEnvelope: %v", err)
	} else if !bytes.Equal(got, data) {
		t.Errorf("OpenEnvelope = %q, want the payload %q", got, data)
	}
}

// A key of another kind or form is refused, not used.
func TestLoadRefusesOtherKeys(t *testing.T) {
	t.Parallel()
	_, pubPEM := testKey(t)
	path := filepath.Join(t.TempDir(), "pub-as-private.pem")
	os.WriteFile(path, pubPEM, 0o600)
	if _, err := LoadPrivate(path); err == nil {
		t.Errorf("LoadPrivate(a public key) = nil error, want refusal")
	}
	if _, err := ParsePublic([]byte("not pem")); err == nil {
		t.Errorf("ParsePublic(garbage) = nil error, want refusal")
	}
}
