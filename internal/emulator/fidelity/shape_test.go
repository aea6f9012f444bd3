package fidelity

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// shapeReport collects how an emulator body differs from a recorded one.
// Failures are differences the emulator must not have; specWins are places
// where today's OpenAPI description and the 2022 recording disagree, which
// the description settles.
type shapeReport struct {
	failures []string
	specWins []string
	// quirks are recorded values the emulator does not reproduce on
	// purpose, by folded path, with the reason.
	quirks map[string]string
}

// valueKeys are fields whose values the scenarios determine (names the
// request chose, numbers in creation order, counts), compared literally.
// Everything else (ids, node ids, URLs, timestamps) differs by nature.
var valueKeys = []string{"name", "color", "default", "description", "title", "number", "state", "locked",
	"total_count", "incomplete_results", "message", "resource", "field", "code", "body", "author_association"}

// compareShape walks a recorded body and the emulator's together under the
// schema GitHub's description gives for it (nil where it gives none).
func compareShape(path string, recorded, got any, schema *openapi3.Schema, key string, r *shapeReport) {
	if recorded == nil || got == nil {
		if (recorded == nil) != (got == nil) {
			r.failures = append(r.failures, fmt.Sprintf("%s: recorded %s, emulator %s", path, kindOf(recorded), kindOf(got)))
		}
		return
	}
	if kindOf(recorded) != kindOf(got) {
		r.failures = append(r.failures, fmt.Sprintf("%s: recorded a %s, emulator sent a %s", path, kindOf(recorded), kindOf(got)))
		return
	}
	switch rec := recorded.(type) {
	case map[string]any:
		g := got.(map[string]any)
		props := declared(schema, 0)
		for _, k := range unionKeys(rec, g) {
			rv, inRec := rec[k]
			gv, inGot := g[k]
			_, inSpec := props[k]
			where := path + "." + k
			switch {
			case inRec && inGot:
				compareShape(where, rv, gv, props[k], k, r)
			case inRec && inSpec:
				r.failures = append(r.failures, where+": GitHub recorded it and its description has it, the emulator omits it")
			case inRec:
				r.specWins = append(r.specWins, where+": in the 2022 recording, not in today's description; the emulator follows the description")
			case inSpec:
				r.specWins = append(r.specWins, where+": in today's description, not in the 2022 recording; the emulator follows the description")
			default:
				r.failures = append(r.failures, where+": the emulator sends it, but neither the recording nor the description has it")
			}
		}
	case []any:
		g := got.([]any)
		if len(rec) != len(g) {
			r.failures = append(r.failures, fmt.Sprintf("%s: %d items recorded, %d from the emulator", path, len(rec), len(g)))
		}
		var items *openapi3.Schema
		if schema != nil && schema.Items != nil {
			items = schema.Items.Value
		}
		for i := 0; i < len(rec) && i < len(g); i++ {
			compareShape(fmt.Sprintf("%s[%d]", path, i), rec[i], g[i], items, "", r)
		}
	default:
		if slices.Contains(valueKeys, key) && recorded != got {
			r.failures = append(r.failures, fmt.Sprintf("%s: recorded %v, emulator %v", path, recorded, got))
		}
	}
}

// declared is every property a schema allows by name, through allOf,
// anyOf and oneOf, with the schema of each.
func declared(s *openapi3.Schema, depth int) map[string]*openapi3.Schema {
	out := map[string]*openapi3.Schema{}
	if s == nil || depth > 8 { // GitHub's schemas nest combinators two deep at most
		return out
	}
	for name, p := range s.Properties {
		if p != nil {
			out[name] = p.Value
		}
	}
	for _, group := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, ref := range group {
			if ref == nil {
				continue
			}
			for name, p := range declared(ref.Value, depth+1) {
				if _, ok := out[name]; !ok {
					out[name] = p
				}
			}
		}
	}
	return out
}

func unionKeys(a, b map[string]any) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return fmt.Sprintf("%T", v)
}

// report fails the test for each failure and logs each place the
// description settled a disagreement with the recording.
// Array indices are folded ("$[]") so a difference shared by every item of
// a list is reported once.
func (r *shapeReport) report(t *testing.T, where string) {
	t.Helper()
	for _, f := range fold(r.failures) {
		path, _, _ := strings.Cut(f, ":")
		if why, ok := r.quirks[path]; ok {
			t.Logf("%s: recording quirk not reproduced: %s (%s)", where, f, why)
			continue
		}
		t.Errorf("%s: %s", where, f)
	}
	for _, s := range fold(r.specWins) {
		t.Logf("%s: spec wins: %s", where, s)
	}
}

var index = regexp.MustCompile(`\[\d+\]`)

func fold(msgs []string) []string {
	var out []string
	for _, m := range msgs {
		m = index.ReplaceAllString(m, "[]")
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}
