// Package redact removes credentials from text that leaves ghgate: job
// logs, upstream MCP results and error messages. A [Registry] holds the
// secrets the process knows (the configured token, a broker's route
// secrets, the installation tokens it minted); [Registry.Clean] replaces
// each of them with [Marker] in every form a program commonly prints one
// (literal, base64 at any alignment in either alphabet, hex, percent-encoded,
// reversed, broken across lines, and any piece of minRun bytes of those),
// and with them anything shaped like a credential, known or not: the value
// of an Authorization header or of an x-access-token user, and GitHub's
// token formats.
//
// What it cannot catch is a secret cut into pieces shorter than minRun
// with other text between them, or encoded some other way: text written
// by code that holds a secret and wants it out can always carry it. It
// stops the accidents and the encodings logs and tools print.
package redact

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Marker replaces each redacted run of text.
const Marker = "[redacted]"

// minSecret is the shortest secret a Registry takes: anything shorter
// would match ordinary words.
const minSecret = 4

// maxMinted bounds the short-lived tokens kept (see
// [Registry.AddMinted]): a refreshed installation token is minted every
// hour, so they would otherwise accumulate forever. The newest are kept.
const maxMinted = 64

// A Registry is the set of secrets one process holds, shared by every
// place that lets text out. It is safe for concurrent use; the nil
// Registry knows no secret and still redacts credential-shaped text.
type Registry struct {
	mu      sync.Mutex
	kept    []string            // configured secrets, never dropped
	minted  []string            // short-lived tokens, oldest first
	needles map[string][]string // per secret, computed once
	idx     atomic.Pointer[index]
}

// NewRegistry returns a Registry holding secrets.
func NewRegistry(secrets ...string) *Registry {
	r := &Registry{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add registers a secret the process holds for as long as it runs: a
// configured token, a route's secret, an App's private key (in PEM, whose
// body is what is registered). Empty and very short values are ignored.
func (r *Registry) Add(secret string) { r.add(secret, false) }

// AddMinted registers a short-lived token the process obtained, such as
// a GitHub App installation token; only the newest maxMinted are kept.
func (r *Registry) AddMinted(secret string) { r.add(secret, true) }

func (r *Registry) add(secret string, minted bool) {
	secret = normalize(secret)
	if r == nil || len(secret) < minSecret {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.kept, secret) || slices.Contains(r.minted, secret) {
		return
	}
	if r.needles == nil {
		r.needles = map[string][]string{}
	}
	r.needles[secret] = needlesFor(secret)
	if !minted {
		r.kept = append(r.kept, secret)
	} else if r.minted = append(r.minted, secret); len(r.minted) > maxMinted {
		for _, old := range r.minted[:len(r.minted)-maxMinted] {
			delete(r.needles, old)
		}
		r.minted = slices.Clone(r.minted[len(r.minted)-maxMinted:])
	}
	r.idx.Store(buildIndex(append(slices.Clone(r.kept), r.minted...), r.needles))
}

// normalize trims a secret and reduces a PEM block to its base64 body
// without line breaks: its armour lines are public, and the body, printed
// over lines, is found by the joined view.
func normalize(secret string) string {
	secret = strings.TrimSpace(secret)
	if !strings.HasPrefix(secret, "-----BEGIN ") {
		return secret
	}
	var body strings.Builder
	for line := range strings.Lines(secret) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "-----") || strings.Contains(line, ":") {
			continue // armour, or a header line of an encrypted key
		}
		body.WriteString(line)
	}
	return body.String()
}

func (r *Registry) index() *index {
	if r == nil {
		return nil
	}
	return r.idx.Load()
}

// Clean returns s with every credential replaced by [Marker], and how many
// markers it put in: overlapping and touching finds make one.
func (r *Registry) Clean(s string) (string, int) {
	var found spans
	x := r.index()
	if x != nil {
		eachNeedleView(s, func(v *view) bool {
			x.scan(v.text, func(a, b int) bool {
				found = append(found, v.orig(a, b))
				return true
			})
			return true
		})
	}
	eachPatternView(s, func(v *view) bool {
		scanShapes(v.text, func(a, b int) {
			found = append(found, v.orig(a, b))
		})
		return true
	})
	return found.apply(s)
}

// String is [Registry.Clean] without the count, for error messages.
func (r *Registry) String(s string) string {
	out, _ := r.Clean(s)
	return out
}

// Holds reports whether s carries a registered secret in any form Clean
// redacts. Credential-shaped text that is no registered secret does not
// count: Holds answers whether this process's own secrets got out.
func (r *Registry) Holds(s string) bool {
	x := r.index()
	if x == nil {
		return false
	}
	held := false
	eachNeedleView(s, func(v *view) bool {
		x.scan(v.text, func(int, int) bool { held = true; return false })
		return !held
	})
	return held
}

// span is a half-open byte range of the original text.
type span struct{ start, end int }

type spans []span

// apply replaces every run covered by sp (overlapping or touching spans
// merged) with Marker, and counts the runs.
func (sp spans) apply(s string) (string, int) {
	if len(sp) == 0 {
		return s, 0
	}
	slices.SortFunc(sp, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(s))
	n, at := 0, 0
	for i := 0; i < len(sp); {
		start, end := sp[i].start, sp[i].end
		for i++; i < len(sp) && sp[i].start <= end; i++ {
			end = max(end, sp[i].end)
		}
		b.WriteString(s[at:start])
		b.WriteString(Marker)
		at = end
		n++
	}
	b.WriteString(s[at:])
	return b.String(), n
}
