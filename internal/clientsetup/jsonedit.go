package clientsetup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// A member is one key of an entry, in the order it is written. value is a
// string, []string, map[string]string or [json.RawMessage] (a key carried
// over from the entry being replaced).
type member struct {
	key   string
	value any
}

// jsonShape is entry e as client c's JSON expects it.
func jsonShape(c Client, e Entry) []member {
	var m []member
	if specs[c].typeStdio {
		m = append(m, member{"type", "stdio"})
	}
	m = append(m, member{"command", e.Command}, member{"args", e.Args})
	if len(e.Env) > 0 {
		m = append(m, member{"env", e.Env})
	}
	return m
}

// upsertJSON sets src's key.name to entry and returns the new file. The
// file is JSON with comments and trailing commas allowed (VS Code, Zed and
// Cursor write both); only the entry's own bytes change, plus the comma
// and indentation an added member needs. Keys of an existing entry that
// ghgate does not write ("disabled", "trust", …) are kept. existed says
// the entry was there; changed is false when it already said the same.
func upsertJSON(src []byte, key, name string, entry []member) (out []byte, existed, changed bool, err error) {
	// A byte order mark (Notepad writes one) is kept and edited around.
	if rest, ok := bytes.CutPrefix(src, utf8BOM); ok {
		out, existed, changed, err = upsertJSON(rest, key, name, entry)
		if changed {
			out = slices.Concat(utf8BOM, out)
		} else if err == nil {
			out = src
		}
		return out, existed, changed, err
	}
	if len(bytes.Trim(src, " \t\r\n")) == 0 { // empty, or JSON whitespace only
		unit := "  "
		body := quoteJSON(key) + ": {\n" + unit + unit + quoteJSON(name) + ": " + renderObject(entry, unit+unit, unit) + "\n" + unit + "}"
		return []byte("{\n" + unit + body + "\n}\n"), false, true, nil
	}
	v, err := hujson.Parse(src)
	if err != nil {
		return nil, false, false, fmt.Errorf("not valid JSON (comments and trailing commas allowed): %w", err)
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, false, false, errors.New("the top level is not a JSON object")
	}
	unit := indentUnit(src, root)
	servers := lastMember(root, key)
	if servers == nil {
		ind := memberIndent(src, v, root, unit)
		text := quoteJSON(key) + ": {\n" + ind + unit + quoteJSON(name) + ": " + renderObject(entry, ind+unit, unit) + "\n" + ind + "}"
		return insertMember(src, v, root, withEOL(src, text), ind), false, true, nil
	}
	obj, ok := servers.Value.Value.(*hujson.Object)
	if !ok {
		return nil, false, false, fmt.Errorf("%q is not an object", key)
	}
	ind := memberIndent(src, servers.Value, obj, unit)
	old := lastMember(obj, name)
	if old == nil {
		text := quoteJSON(name) + ": " + renderObject(entry, ind, unit)
		return insertMember(src, servers.Value, obj, withEOL(src, text), ind), false, true, nil
	}
	merged, same, err := mergeEntry(src, old.Value, entry)
	if err != nil {
		return nil, true, false, fmt.Errorf("%s.%s: %w", key, name, err)
	}
	if same {
		return src, true, false, nil
	}
	text := withEOL(src, renderObject(merged, lineIndent(src, old.Name.StartOffset), unit))
	out = slices.Concat(src[:old.Value.StartOffset], []byte(text), src[old.Value.EndOffset:])
	return out, true, true, nil
}

// mergeEntry compares the existing entry with the new one: same when every
// key ghgate writes already has its value. merged is the new entry plus the
// existing entry's other keys, in their order.
func mergeEntry(src []byte, old hujson.Value, entry []member) (merged []member, same bool, err error) {
	obj, ok := old.Value.(*hujson.Object)
	if !ok {
		return entry, false, nil // not an object: replaced whole
	}
	existing := map[string]json.RawMessage{}
	var order []string
	for _, m := range obj.Members {
		lit, _ := m.Name.Value.(hujson.Literal)
		raw, err := hujson.Standardize(slices.Clone(src[m.Value.StartOffset:m.Value.EndOffset]))
		if err != nil {
			return nil, false, err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, false, err
		}
		k := lit.String()
		if _, dup := existing[k]; !dup {
			order = append(order, k)
		}
		existing[k] = buf.Bytes()
	}
	same = true
	written := map[string]bool{}
	for _, m := range entry {
		written[m.key] = true
		raw, ok := existing[m.key]
		if !ok || !jsonEqual(raw, m.value) {
			same = false
		}
	}
	merged = slices.Clone(entry)
	for _, k := range order {
		if !written[k] {
			merged = append(merged, member{k, existing[k]})
		}
	}
	return merged, same, nil
}

func jsonEqual(raw json.RawMessage, v any) bool {
	var a, b any
	enc, err := json.Marshal(v)
	if err != nil || json.Unmarshal(raw, &a) != nil || json.Unmarshal(enc, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func lastMember(obj *hujson.Object, name string) *hujson.ObjectMember {
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return &obj.Members[i]
		}
	}
	return nil
}

// insertMember adds text as obj's last member, indented by ind: a comma
// after the last member when it has none, the member on a line of its own
// before the closing brace. Nothing else moves.
func insertMember(src []byte, objVal hujson.Value, obj *hujson.Object, text, ind string) []byte {
	closing := objVal.EndOffset - 1 // the '}'
	type edit struct {
		at   int
		text string
	}
	var edits []edit
	if n := len(obj.Members); n > 0 {
		last := obj.Members[n-1].Value
		if p := skipExtra(src, last.EndOffset); p >= len(src) || src[p] != ',' {
			edits = append(edits, edit{last.EndOffset, ","})
		}
	}
	nl := withEOL(src, "\n")
	start := lineStart(src, closing)
	if start > objVal.StartOffset && len(bytes.TrimSpace(src[start:closing])) == 0 {
		edits = append(edits, edit{start, ind + text + nl})
	} else {
		edits = append(edits, edit{closing, nl + ind + text + nl + lineIndent(src, closing)})
	}
	out := slices.Clone(src)
	for i := len(edits) - 1; i >= 0; i-- {
		out = slices.Insert(out, edits[i].at, []byte(edits[i].text)...)
	}
	return out
}

var utf8BOM = []byte("\xef\xbb\xbf")

// withEOL gives text the line endings src uses: a file written on Windows
// with CRLF gets no bare LF lines.
func withEOL(src []byte, text string) string {
	if !bytes.Contains(src, []byte("\r\n")) {
		return text
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
}

// skipExtra returns the offset of the first byte at or after p that is not
// whitespace or a comment.
func skipExtra(src []byte, p int) int {
	for p < len(src) {
		switch {
		case src[p] == ' ' || src[p] == '\t' || src[p] == '\n' || src[p] == '\r':
			p++
		case bytes.HasPrefix(src[p:], []byte("//")):
			if i := bytes.IndexByte(src[p:], '\n'); i >= 0 {
				p += i + 1
			} else {
				p = len(src)
			}
		case bytes.HasPrefix(src[p:], []byte("/*")):
			if i := bytes.Index(src[p+2:], []byte("*/")); i >= 0 {
				p += i + 4
			} else {
				p = len(src)
			}
		default:
			return p
		}
	}
	return p
}

func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineIndent is the whitespace that starts the line holding off.
func lineIndent(src []byte, off int) string {
	s := lineStart(src, off)
	e := s
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	return string(src[s:e])
}

// memberIndent is how obj's members are indented: as its first member is
// when that starts a line, else one unit deeper than the line obj opens on.
func memberIndent(src []byte, objVal hujson.Value, obj *hujson.Object, unit string) string {
	if len(obj.Members) > 0 {
		first := obj.Members[0].Name.StartOffset
		if ind := lineIndent(src, first); lineStart(src, first)+len(ind) == first {
			return ind
		}
	}
	return lineIndent(src, objVal.StartOffset) + unit
}

// indentUnit is one level of the file's indentation, judged by the top
// level's first member; two spaces when that tells nothing.
func indentUnit(src []byte, root *hujson.Object) string {
	if len(root.Members) > 0 {
		first := root.Members[0].Name.StartOffset
		if ind := lineIndent(src, first); ind != "" && lineStart(src, first)+len(ind) == first {
			return ind
		}
	}
	return "  "
}

// renderObject writes members as an indented object whose closing brace
// sits at ind; arrays of strings stay on one line.
func renderObject(members []member, ind, unit string) string {
	var b strings.Builder
	b.WriteString("{\n")
	for i, m := range members {
		b.WriteString(ind + unit + quoteJSON(m.key) + ": ")
		switch v := m.value.(type) {
		case string:
			b.WriteString(quoteJSON(v))
		case []string:
			b.WriteString("[")
			for j, s := range v {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(quoteJSON(s))
			}
			b.WriteString("]")
		case map[string]string:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			var sub []member
			for _, k := range keys {
				sub = append(sub, member{k, v[k]})
			}
			b.WriteString(renderObject(sub, ind+unit, unit))
		case json.RawMessage:
			var buf bytes.Buffer
			if json.Indent(&buf, v, ind+unit, unit) != nil {
				buf.Reset()
				buf.Write(v)
			}
			b.Write(buf.Bytes())
		}
		if i < len(members)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(ind + "}")
	return b.String()
}

// quoteJSON encodes s as a JSON string without escaping <, > and & (a
// path or a URL reads as typed).
func quoteJSON(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}
