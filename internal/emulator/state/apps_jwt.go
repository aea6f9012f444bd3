package state

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// GitHub's answers to App JWTs it will not accept.
const (
	JWTUndecodable = "A JSON web token could not be decoded"
	jwtExpired     = "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires"
	jwtTooFar      = "'Expiration time' claim ('exp') is too far in the future"
	jwtIssuedAt    = "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued"
	jwtNoApp       = "Integration not found"
)

// maxJWTLifetime is GitHub's bound on an App JWT: exp at most ten minutes
// ahead; clockSkew is the drift it tolerates on iat.
const (
	maxJWTLifetime = 10 * time.Minute
	clockSkew      = 60 * time.Second
)

// AppIdentity checks an App JWT (RS256, iss = the App id, iat and exp
// within GitHub's bounds, signed by the App's registered key) and returns
// the identity it authenticates, or the message of GitHub's 401. The
// caller holds the state lock.
func (s *State) AppIdentity(raw string) (*Token, string) {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return nil, "Bad credentials"
	}
	var header struct {
		Alg string `json:"alg"`
	}
	var claims struct {
		Iss json.RawMessage `json:"iss"`
		Iat json.Number     `json:"iat"`
		Exp json.Number     `json:"exp"`
	}
	if !decodeSegment(parts[0], &header) || header.Alg != "RS256" || !decodeSegment(parts[1], &claims) {
		return nil, JWTUndecodable
	}
	id, ok := issuer(claims.Iss)
	if !ok {
		return nil, JWTUndecodable
	}
	app := s.apps[id]
	if app == nil || app.PublicKey == nil {
		return nil, jwtNoApp
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return nil, JWTUndecodable
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(app.PublicKey, crypto.SHA256, sum[:], sig) != nil {
		return nil, JWTUndecodable
	}
	iat, err := claims.Iat.Int64()
	if err != nil {
		return nil, jwtIssuedAt
	}
	exp, err := claims.Exp.Int64()
	if err != nil {
		return nil, jwtExpired
	}
	now := s.now()
	issued, expires := time.Unix(iat, 0), time.Unix(exp, 0)
	switch {
	case issued.After(now.Add(clockSkew)):
		return nil, jwtIssuedAt
	case !expires.After(now):
		return nil, jwtExpired
	case expires.After(now.Add(maxJWTLifetime+clockSkew)) || expires.Sub(issued) > maxJWTLifetime+clockSkew:
		return nil, jwtTooFar
	}
	return app.jwt, ""
}

// issuer reads iss, which GitHub takes as the App id in a string or a
// number.
func issuer(raw json.RawMessage) (int64, bool) {
	s := strings.Trim(string(bytes.TrimSpace(raw)), `"`)
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}

func decodeSegment(seg string, v any) bool {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v) == nil
}

// SignAppJWT makes the JWT an App authenticates to /app endpoints with, as
// GitHub documents it: RS256, iss = the App id, iat and exp as given. For
// tests that talk to the emulator without an App client library.
func SignAppJWT(appID int64, key *rsa.PrivateKey, iat, exp time.Time) (string, error) {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`))
	claims, err := json.Marshal(map[string]any{"iss": strconv.FormatInt(appID, 10), "iat": iat.Unix(), "exp": exp.Unix()})
	if err != nil {
		return "", err
	}
	signing := header + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signing))
	sig, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signing + "." + enc.EncodeToString(sig), nil
}
