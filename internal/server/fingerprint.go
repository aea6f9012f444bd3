package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/version"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// surface is everything an agent can be written against, as the
// fingerprint hashes it: a change to any part is a new fingerprint.
type surface struct {
	Tools     []*mcp.Tool            `json:"tools"`
	Resources []*mcp.Resource        `json:"resources"`
	Templates []mcp.ResourceTemplate `json:"templates"`
	// Completions maps each served template to the variables it completes.
	Completions map[string][]string `json:"completions"`
	Codes       []contract.CodeInfo `json:"codes"`
	// Summary is the capability summary, and Instructions the server's
	// instructions, each without its fingerprint line.
	Summary      string `json:"summary"`
	Instructions string `json:"instructions"`
}

// fingerprintOf is ghgate@<version>+<hash>: the release that serves the
// surface, and the first 8 bytes of the SHA-256 of the surface's JSON.
func fingerprintOf(tools []*mcp.Tool, r *resources, summary, instructions string) (string, error) {
	s := surface{Tools: tools, Resources: fixed(), Completions: map[string][]string{}, Codes: contract.Catalog(), Summary: summary,
		Instructions: instructions}
	for _, t := range r.servedTemplates() {
		s.Templates = append(s.Templates, t.def)
		s.Completions[t.def.URITemplate] = t.completes
	}
	b, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "ghgate@" + version.Current() + "+" + hex.EncodeToString(sum[:8]), nil
}
