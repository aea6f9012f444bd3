package upstream

import (
	"encoding/json"
	"strings"
	"sync"
)

// minSecretRun is the shortest piece of a token that is treated as the
// token: a fragment this long in a log line is redacted too.
const minSecretRun = 8

// maxRemembered bounds the tokens kept for redaction; refreshed App tokens
// would otherwise accumulate forever. The newest are kept.
const maxRemembered = 64

// redactor knows the tokens this proxy has handed to its upstream, and
// scrubs them from text before it is logged or returned.
type redactor struct {
	mu     sync.Mutex
	tokens []string
}

func newRedactor() *redactor { return &redactor{} }

func (r *redactor) add(token string) {
	if token == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.tokens {
		if t == token {
			return
		}
	}
	r.tokens = append(r.tokens, token)
	if len(r.tokens) > maxRemembered {
		r.tokens = r.tokens[len(r.tokens)-maxRemembered:]
	}
}

func (r *redactor) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.tokens...)
}

// clean replaces every run of s that is a token, or an 8+ character piece
// of one, with [redacted].
func (r *redactor) clean(s string) string {
	tokens := r.snapshot()
	if len(tokens) == 0 || s == "" {
		return s
	}
	var mark []bool
	for _, t := range tokens {
		n := min(minSecretRun, len(t))
		for i := 0; i+n <= len(t); i++ {
			piece := t[i : i+n]
			for from := 0; from <= len(s)-n; {
				j := strings.Index(s[from:], piece)
				if j < 0 {
					break
				}
				if mark == nil {
					mark = make([]bool, len(s))
				}
				for k := from + j; k < from+j+n; k++ {
					mark[k] = true
				}
				from += j + 1
			}
		}
	}
	if mark == nil {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !mark[i] {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString("[redacted]")
		for i < len(s) && mark[i] {
			i++
		}
	}
	return b.String()
}

// contains reports whether v, as JSON, holds a known token or an 8+
// character piece of one.
func (r *redactor) contains(v any) bool {
	raw, err := json.Marshal(v)
	if err != nil {
		return false
	}
	s := string(raw)
	return r.clean(s) != s
}
