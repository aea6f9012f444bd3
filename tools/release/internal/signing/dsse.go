package signing

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"encoding/json"
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// InTotoPayloadType is the DSSE payload type of an in-toto statement.
const InTotoPayloadType = "application/vnd.in-toto+json"

// key adapts an Ed25519 key to DSSE's Signer and Verifier.
type key struct {
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey
}

func (k key) Sign(_ context.Context, data []byte) ([]byte, error) {
	return ed25519.Sign(k.priv, data), nil
}

func (k key) Verify(_ context.Context, data, sig []byte) error {
	if !ed25519.Verify(k.pub, data, sig) {
		return ErrBadSignature
	}
	return nil
}

// KeyID is the key's SSH-style SHA256 fingerprint (dsse.SHA256KeyID).
func (k key) KeyID() (string, error)                { return dsse.SHA256KeyID(k.pub) }
func (k key) Public() crypto.PublicKey              { return k.pub }
func (k key) signer() (*dsse.EnvelopeSigner, error) { return dsse.NewEnvelopeSigner(k) }

// SignEnvelope wraps payload in a DSSE envelope signed by priv, as one
// JSON line (the .intoto.jsonl form).
func SignEnvelope(priv ed25519.PrivateKey, payloadType string, payload []byte) ([]byte, error) {
	s, err := key{priv: priv, pub: priv.Public().(ed25519.PublicKey)}.signer()
	if err != nil {
		return nil, err
	}
	env, err := s.SignPayload(context.Background(), payloadType, payload)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(env)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// OpenEnvelope verifies a DSSE envelope with pub and returns its payload,
// which is only trusted when this returns no error.
func OpenEnvelope(pub ed25519.PublicKey, payloadType string, data []byte) ([]byte, error) {
	var env dsse.Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("not a DSSE envelope: %w", err)
	}
	if env.PayloadType != payloadType {
		return nil, fmt.Errorf("payload type %q, want %q", env.PayloadType, payloadType)
	}
	v, err := dsse.NewEnvelopeVerifier(key{pub: pub})
	if err != nil {
		return nil, err
	}
	if _, err := v.Verify(context.Background(), &env); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	return env.DecodeB64Payload()
}
