package contract

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// Version is a content hash over a canonical form of an object's editable
// state: equal states give equal versions, any edit gives a new one. The
// canonical form is the JSON of a struct whose fields are in a fixed order
// and whose sets (labels, assignees) the caller has sorted.
func Version(canonical any) string {
	b, err := json.Marshal(canonical)
	if err != nil {
		b = []byte("unmarshalable")
	}
	sum := sha256.Sum256(b)
	return "v1." + base64.RawURLEncoding.EncodeToString(sum[:12])
}

// IsVersion reports whether s has the form Version gives ("v1." and 16
// base64url characters), so a token that was never issued is told apart
// from one that is out of date.
func IsVersion(s string) bool {
	rest, ok := strings.CutPrefix(s, "v1.")
	if !ok {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	return err == nil && len(b) == 12
}
