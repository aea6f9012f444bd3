package servertest

import (
	"encoding/json"
	"strings"
	"testing"
)

// freeTextKeys are the arguments that carry free-form text: a title, a
// body, a description or search text. An error never quotes them (the
// capability summary's "Values echoed" says so): an agent that read a
// hostile issue must not get that text handed back as if ghgate said it,
// and a credential pasted into a body must not come back in an error.
var freeTextKeys = map[string]bool{"title": true, "body": true, "description": true, "query": true, "q": true, "text": true}

// namesIn are, per tool, the keys of freeTextKeys that there name
// something, as an identifier: github_manage_milestones finds a milestone
// by its title.
var namesIn = map[string]map[string]bool{"github_manage_milestones": {"title": true}}

// minEchoLen is the shortest free-form value looked for: a shorter one
// ("bug", "v1") can appear in a message by coincidence.
const minEchoLen = 12

// checkEcho fails the test when an error envelope's message, reason or
// details quote a free-form argument the call sent. A repair's and a
// follow-up's arguments are a literal call and may repeat them.
func checkEcho(t testing.TB, tool string, args json.RawMessage, envelope json.RawMessage) {
	t.Helper()
	var sent any
	if json.Unmarshal(args, &sent) != nil {
		return
	}
	var texts []string
	collectFreeText(sent, "", namesIn[tool], &texts)
	if len(texts) == 0 {
		return
	}
	var e struct {
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	}
	if json.Unmarshal(envelope, &e) != nil {
		return
	}
	said := e.Message + "\n" + string(e.Details)
	for _, v := range texts {
		if strings.Contains(said, v) || strings.Contains(said, jsonQuoted(v)) {
			t.Errorf("%s: the error quotes free-form text the call sent (%q):\n%s", tool, v, envelope)
		}
	}
}

// collectFreeText gathers the free-form string values under freeTextKeys,
// at any depth. Search text is its words: a qualifier (label:bug,
// repo:acme/widgets) names things, and an error may name it.
func collectFreeText(v any, key string, names map[string]bool, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, vv := range x {
			collectFreeText(vv, k, names, out)
		}
	case []any:
		for _, vv := range x {
			collectFreeText(vv, key, names, out)
		}
	case string:
		if !freeTextKeys[key] || names[key] {
			return
		}
		text := strings.TrimSpace(x)
		if key == "query" || key == "q" {
			var words []string
			for _, w := range strings.Fields(text) {
				if !strings.Contains(w, ":") {
					words = append(words, w)
				}
			}
			text = strings.Join(words, " ")
		}
		if len(text) >= minEchoLen {
			*out = append(*out, text)
		}
	}
}

// jsonQuoted is s as it appears inside a JSON string (details are
// compared as JSON text).
func jsonQuoted(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}
