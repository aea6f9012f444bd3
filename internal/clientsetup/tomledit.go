package clientsetup

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// tomlShape is entry e as Codex's [mcp_servers.NAME] table: the keys
// ghgate writes, in order.
func tomlShape(e Entry) []member {
	m := []member{{"command", e.Command}, {"args", e.Args}}
	if len(e.EnvVars) > 0 {
		m = append(m, member{"env_vars", e.EnvVars})
	}
	return m
}

// upsertTOML sets [mcp_servers.NAME] in a Codex config.toml. The edit is
// textual: the lines from the entry's table header to the next table that
// is not one of its sub-tables are replaced, or a new table is appended;
// every other line (other servers, comments) is kept as it was. Keys of an
// existing entry that ghgate does not write are carried over, re-encoded.
func upsertTOML(src []byte, key, name string, entry []member) (out []byte, existed, changed bool, err error) {
	var doc map[string]any
	if _, err := toml.Decode(string(src), &doc); err != nil {
		return nil, false, false, fmt.Errorf("not valid TOML: %w", err)
	}
	var old map[string]any
	if servers, ok := doc[key]; ok {
		sm, ok := servers.(map[string]any)
		if !ok {
			return nil, false, false, fmt.Errorf("%s is not a table", key)
		}
		if o, ok := sm[name]; ok {
			if old, ok = o.(map[string]any); !ok {
				return nil, true, false, fmt.Errorf("%s.%s is not a table", key, name)
			}
		}
	}
	existed = old != nil
	extra := map[string]any{}
	if existed {
		same := true
		written := map[string]bool{}
		for _, m := range entry {
			written[m.key] = true
			if !tomlEqual(old[m.key], m.value) {
				same = false
			}
		}
		if same {
			return src, true, false, nil
		}
		for k, v := range old {
			if !written[k] {
				extra[k] = v
			}
		}
	}
	block, err := renderTable([]string{key, name}, entry, extra)
	if err != nil {
		return nil, existed, false, fmt.Errorf("%s.%s: %w", key, name, err)
	}
	block = withEOL(src, block)
	nl := withEOL(src, "\n")
	lines := splitLines(src)
	spans := tableSpans(lines, []string{key, name})
	mainAt := slices.IndexFunc(spans, func(s span) bool { return s.main })
	if existed && mainAt < 0 {
		return nil, true, false, fmt.Errorf("%s.%s is defined without its own [%s.%s] table (inline or dotted keys); edit or remove it by hand",
			key, name, key, name)
	}
	var b bytes.Buffer
	if len(spans) == 0 {
		b.Write(src)
		if len(src) > 0 && !bytes.HasSuffix(src, []byte("\n")) {
			b.WriteString(nl)
		}
		if len(bytes.TrimSpace(src)) > 0 {
			b.WriteString(nl)
		}
		b.WriteString(block)
	} else {
		next := 0
		for i, sp := range spans {
			for _, l := range lines[next:sp.start] {
				b.WriteString(l)
			}
			if i == mainAt {
				b.WriteString(block)
			}
			next = sp.end
		}
		for _, l := range lines[next:] {
			b.WriteString(l)
		}
	}
	out = b.Bytes()
	if err := checkTOML(out, key, name, entry); err != nil {
		return nil, existed, false, err
	}
	return out, existed, true, nil
}

// checkTOML decodes the edited file and reads the entry back: an edit that
// broke the file, or did not say what was meant, is never written.
func checkTOML(out []byte, key, name string, entry []member) error {
	var doc map[string]any
	if _, err := toml.Decode(string(out), &doc); err != nil {
		return fmt.Errorf("the edited file would not parse (nothing written): %w", err)
	}
	servers, _ := doc[key].(map[string]any)
	got, _ := servers[name].(map[string]any)
	for _, m := range entry {
		if !tomlEqual(got[m.key], m.value) {
			return fmt.Errorf("the edited file would not hold %s.%s.%s as written (nothing written)", key, name, m.key)
		}
	}
	return nil
}

func tomlEqual(got, want any) bool {
	switch w := want.(type) {
	case string:
		return got == w
	case []string:
		arr, ok := got.([]any)
		if !ok || len(arr) != len(w) {
			return false
		}
		for i := range w {
			if arr[i] != w[i] {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

// A span is lines [start, end) of a table under the entry: its own table
// (main) or one of its sub-tables, up to the next header that is neither.
type span struct {
	start, end int
	main       bool
}

var headerLine = regexp.MustCompile(`^\s*(\[\[?)\s*(.*?)\s*\]\]?\s*(#.*)?$`)

// tableSpans finds the tables whose header path starts with prefix. A
// span's end is pulled back over the blank and comment lines that lead
// into the next table: those belong to what follows.
func tableSpans(lines []string, prefix []string) []span {
	var spans []span
	cur := -1
	closeAt := func(i int) {
		if cur < 0 {
			return
		}
		end := i
		for end > spans[cur].start+1 {
			t := strings.TrimSpace(lines[end-1])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			end--
		}
		spans[cur].end = end
		cur = -1
	}
	for i, l := range lines {
		m := headerLine.FindStringSubmatch(strings.TrimRight(l, "\r\n"))
		if m == nil {
			continue
		}
		path, ok := parseDottedKey(m[2])
		if !ok {
			continue
		}
		under := len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
		if under && cur >= 0 {
			continue // a sub-table following the entry: same span
		}
		closeAt(i)
		if under {
			spans = append(spans, span{start: i, main: m[1] == "[" && len(path) == len(prefix)})
			cur = len(spans) - 1
		}
	}
	closeAt(len(lines))
	return spans
}

// parseDottedKey splits a TOML key (bare, "basic" or 'literal' parts
// joined by dots) into its parts.
func parseDottedKey(s string) ([]string, bool) {
	var parts []string
	for {
		s = strings.TrimLeft(s, " \t")
		var part string
		switch {
		case strings.HasPrefix(s, `"`):
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, false
			}
			u, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil, false
			}
			part, s = u, s[end+1:]
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, false
			}
			part, s = s[1:end+1], s[end+2:]
		default:
			end := 0
			for end < len(s) && isBareKeyByte(s[end]) {
				end++
			}
			if end == 0 {
				return nil, false
			}
			part, s = s[:end], s[end:]
		}
		parts = append(parts, part)
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return parts, true
		}
		if s[0] != '.' {
			return nil, false
		}
		s = s[1:]
	}
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func tomlKey(k string) string {
	for i := 0; i < len(k); i++ {
		if !isBareKeyByte(k[i]) {
			return quoteTOML(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

func dottedKey(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = tomlKey(p)
	}
	return strings.Join(parts, ".")
}

// quoteTOML writes s as a TOML basic string.
func quoteTOML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// renderTable writes [path] with entry's keys, then the carried-over keys
// (values re-encoded by the toml package, tables as [path.key]).
func renderTable(path []string, entry []member, extra map[string]any) (string, error) {
	var b strings.Builder
	b.WriteString("[" + dottedKey(path) + "]\n")
	for _, m := range entry {
		b.WriteString(tomlKey(m.key) + " = ")
		switch v := m.value.(type) {
		case string:
			b.WriteString(quoteTOML(v))
		case []string:
			b.WriteString("[")
			for i, s := range v {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(quoteTOML(s))
			}
			b.WriteString("]")
		default:
			return "", fmt.Errorf("cannot write %s as TOML", m.key)
		}
		b.WriteString("\n")
	}
	if err := writeExtra(&b, path, extra); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeExtra(b *strings.Builder, path []string, extra map[string]any) error {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var tables []string
	for _, k := range keys {
		switch v := extra[k].(type) {
		case map[string]any:
			tables = append(tables, k)
		case []map[string]any:
			return fmt.Errorf("cannot carry over the array of tables %q: edit the entry by hand", k)
		default:
			var buf bytes.Buffer
			if err := toml.NewEncoder(&buf).Encode(map[string]any{k: v}); err != nil {
				return fmt.Errorf("carrying over %q: %w", k, err)
			}
			b.Write(buf.Bytes())
		}
	}
	for _, k := range tables {
		sub := append(slices.Clone(path), k)
		b.WriteString("\n[" + dottedKey(sub) + "]\n")
		if err := writeExtra(b, sub, extra[k].(map[string]any)); err != nil {
			return err
		}
	}
	return nil
}

// splitLines splits src after each newline, keeping it.
func splitLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	return strings.SplitAfter(string(src), "\n")
}
