package signing

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
)

// SignBlob is the detached signature over data as cosign writes one
// (`cosign sign-blob --output-signature`): the raw signature, base64, with
// a final newline.
func SignBlob(priv ed25519.PrivateKey, data []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(ed25519.Sign(priv, data)) + "\n")
}

// ErrBadSignature is a signature that does not verify with the key.
var ErrBadSignature = errors.New("signature does not verify with the release's public key")

// VerifyBlob checks a SignBlob signature over data.
func VerifyBlob(pub ed25519.PublicKey, data, sig []byte) error {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(sig)))
	if err != nil {
		return errors.Join(ErrBadSignature, err)
	}
	if !ed25519.Verify(pub, data, raw) {
		return ErrBadSignature
	}
	return nil
}
