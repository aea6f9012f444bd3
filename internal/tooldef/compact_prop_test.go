package tooldef

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The single-pass Compact is held to compactRef, byte for byte, on
// generated values: nested structs, maps and slices, every kind of empty
// value, strings the encoder escapes or rewrites, numbers at the edges
// of float64 and beyond, JSON handed over raw in forms the encoder does
// not write itself, and keep paths drawn from each value's own keys.

var compactStrings = []string{
	"", "a", "b", "A", "a.b", "[]", "a[]", "x y", "é", "日本", "☃", "\u2028", "\u2029", "line\u2028sep",
	"<>&", "a<b && c", `"quoted"`, `back\slash`, "tab\tnew\nline\r", "\x00\x01\x1f", "\x7f", "\b\f",
	"bad\xffutf8", "\xe2\x80", "\ufffd", "emoji 😀", strings.Repeat("long body ", 20), "0", "null", "false",
}

var compactNumbers = []any{
	0, 1, -1, int64(math.MaxInt64), int64(math.MinInt64), uint64(math.MaxUint64), 9007199254740993,
	0.0, 0.5, -0.25, 1e21, 1e20, 1e-7, 1e-6, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64,
	float32(3.4e38), float32(0.1), json.Number("12345678901234567890123456789"), json.Number("1e400"),
	json.Number("-0"), json.Number("1E+2"), json.Number("0.000"),
}

type propLeaf struct {
	Name   string   `json:"name"`
	Note   string   `json:"note,omitempty"`
	Tags   []string `json:"tags"`
	Count  int      `json:"count"`
	Ptr    *string  `json:"ptr"`
	Nested *propLeaf
}

type propEmbedded struct {
	Z string `json:"z"`
	A string `json:"a"`
}

type propRow struct {
	propEmbedded
	Title  string            `json:"title"`
	Leaves []propLeaf        `json:"leaves"`
	Extra  map[string]any    `json:"extra"`
	Raw    json.RawMessage   `json:"raw,omitempty"`
	Any    any               `json:"any"`
	Labels map[string]string `json:"labels"`
	Flag   bool              `json:"flag"`
	Items  [][]string        `json:"items"`
}

type propGen struct{ r *rand.Rand }

func (g propGen) str() string { return compactStrings[g.r.IntN(len(compactStrings))] }

func (g propGen) value(depth int) any {
	n := 12
	if depth <= 0 {
		n = 6 // scalars only
	}
	switch g.r.IntN(n) {
	case 0:
		return nil
	case 1, 2:
		return g.str()
	case 3:
		return g.r.IntN(2) == 0
	case 4:
		return compactNumbers[g.r.IntN(len(compactNumbers))]
	case 5:
		return []string{}
	case 6, 7:
		m := map[string]any{}
		for range g.r.IntN(5) {
			m[g.str()] = g.value(depth - 1)
		}
		return m
	case 8:
		s := make([]any, g.r.IntN(4))
		for i := range s {
			s[i] = g.value(depth - 1)
		}
		return s
	case 9:
		return g.row(depth - 1)
	case 10:
		return json.RawMessage(g.raw(depth - 1))
	default:
		l := g.leaf(depth - 1)
		return &l
	}
}

func (g propGen) leaf(depth int) propLeaf {
	l := propLeaf{Name: g.str(), Note: g.str(), Count: g.r.IntN(3)}
	if g.r.IntN(2) == 0 {
		l.Tags = []string{}
		for range g.r.IntN(3) {
			l.Tags = append(l.Tags, g.str())
		}
	}
	if g.r.IntN(3) == 0 {
		s := g.str()
		l.Ptr = &s
	}
	if depth > 0 && g.r.IntN(3) == 0 {
		n := g.leaf(depth - 1)
		l.Nested = &n
	}
	return l
}

func (g propGen) row(depth int) propRow {
	r := propRow{propEmbedded: propEmbedded{Z: g.str(), A: g.str()}, Title: g.str(), Flag: g.r.IntN(2) == 0}
	for range g.r.IntN(3) {
		r.Leaves = append(r.Leaves, g.leaf(depth))
	}
	if g.r.IntN(2) == 0 {
		r.Extra = map[string]any{}
		for range g.r.IntN(4) {
			r.Extra[g.str()] = g.value(depth)
		}
	}
	if g.r.IntN(3) == 0 {
		r.Raw = json.RawMessage(g.raw(depth))
	}
	r.Any = g.value(depth)
	if g.r.IntN(2) == 0 {
		r.Labels = map[string]string{g.str(): g.str(), g.str(): g.str()}
	}
	if g.r.IntN(2) == 0 {
		r.Items = [][]string{{}, nil, {g.str()}}
	}
	return r
}

// raw writes JSON as a hand-written MarshalJSON might: spaces, escapes
// the encoder would not write (\u0041, \/), raw U+2028 and invalid
// UTF-8, and keys repeated (the last one wins).
func (g propGen) raw(depth int) string {
	var b strings.Builder
	g.rawValue(&b, depth)
	return b.String()
}

func (g propGen) rawValue(b *strings.Builder, depth int) {
	sp := func() {
		if g.r.IntN(4) == 0 {
			b.WriteString([]string{" ", "\n", "\t ", "\r\n"}[g.r.IntN(4)])
		}
	}
	sp()
	k := g.r.IntN(10)
	if depth <= 0 && k >= 6 {
		k = g.r.IntN(6)
	}
	switch k {
	case 0:
		b.WriteString("null")
	case 1:
		b.WriteString([]string{"true", "false", "0", "-0", "1e21", "1E-7", "12345678901234567890", "3.0"}[g.r.IntN(8)])
	case 2, 3, 4, 5:
		g.rawString(b)
	case 6, 7:
		b.WriteByte('{')
		n := g.r.IntN(4)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			sp()
			if i > 0 && g.r.IntN(4) == 0 {
				b.WriteString(`"a"`) // a repeated key
			} else {
				g.rawString(b)
			}
			sp()
			b.WriteByte(':')
			g.rawValue(b, depth-1)
		}
		sp()
		b.WriteByte('}')
	default:
		b.WriteByte('[')
		for i := range g.r.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			g.rawValue(b, depth-1)
		}
		b.WriteByte(']')
	}
	sp()
}

func (g propGen) rawString(b *strings.Builder) {
	parts := []string{"", "a", `\u0041`, `\/`, `\"`, `\\`, `\n`, `\u2028`, "\u2028", `\ufffd`, "\xff", `\b`, `\f`,
		`\u00e9`, "é", `\ud83d\ude00`, `\ud800`, "<&>", `\u003c`, "b", "a.b", "[]", `\u0000`}
	b.WriteByte('"')
	for range g.r.IntN(4) {
		b.WriteString(parts[g.r.IntN(len(parts))])
	}
	b.WriteByte('"')
}

// pathsOf lists every keep path in v's encoding, as Compact names them.
func pathsOf(t testing.TB, v any) []string {
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	var out []string
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				at := k
				if path != "" {
					at = path + "." + k
				}
				out = append(out, at)
				walk(val, at)
			}
		case []any:
			for _, val := range x {
				walk(val, path+"[]")
			}
		}
	}
	walk(tree, "")
	slices.Sort(out)
	return slices.Compact(out)
}

func checkCompactSame(t *testing.T, v any, keep []string) bool {
	t.Helper()
	want, wantErr := compactRef(v, keep...)
	got, gotErr := Compact(v, keep...)
	if (wantErr != nil) != (gotErr != nil) {
		t.Errorf("Compact(%#v, %q): error %v, want error %v", v, keep, gotErr, wantErr)
		return false
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Compact(%#v, %q):\ngot  %s\nwant %s", v, keep, got, want)
		return false
	}
	return true
}

func TestCompactMatchesRef(t *testing.T) {
	t.Parallel()
	cases := 0
	for seed := range uint64(20000) {
		g := propGen{r: rand.New(rand.NewPCG(seed, 34))}
		v := g.value(4)
		if seed%3 == 0 {
			v = g.row(3) // the shape of a tool's answer: an object at the top
		}
		paths := pathsOf(t, v)
		var keep []string
		for _, p := range paths {
			if g.r.IntN(3) == 0 {
				keep = append(keep, p)
			}
		}
		if g.r.IntN(4) == 0 {
			keep = append(keep, "[]", "a", "leaves[].tags", "extra.a.b", "any[]")
		}
		if !checkCompactSame(t, v, keep) {
			t.Fatalf("seed %d differs; stopping", seed)
		}
		cases++
	}
	t.Logf("%d generated values: Compact and compactRef byte-identical", cases)
}

// Values at the edges, each named.
func TestCompactMatchesRefEdges(t *testing.T) {
	t.Parallel()
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	for i, c := range []struct {
		v    any
		keep []string
	}{
		{nil, nil}, {"", nil}, {[]any{}, nil}, {map[string]any{}, nil}, {[]any{[]any{}, map[string]any{}, "", nil}, nil},
		{map[string]any{"a": map[string]any{}}, []string{"a"}}, {map[string]any{"a": []any{}}, []string{"a"}},
		{map[string]any{"a": map[string]any{"b": ""}}, []string{"a.b"}}, {[]any{map[string]any{"k": nil}}, []string{"[].k"}},
		{map[string]any{"": map[string]any{"x": ""}}, []string{"x"}}, {map[string]any{"a.b": ""}, []string{"a.b"}},
		{raw(`{"b":1,"a":2,"b":""}`), nil}, {raw(`{"a":1,"a":null}`), nil}, {raw(`{"a":null,"a":1}`), nil},
		{raw(`{"a":"x","a":""}`), []string{"a"}}, {raw(` { "\u0062" : "\u0041\/" , "a" : [ ] } `), []string{"b"}},
		{raw(`{"\n":1,"\t":2," ":3}`), nil}, {raw(`{"é":1,"\u00e9":2}`), nil}, {raw(`"\ud800"`), nil},
		{raw(`{"a":"` + "\xff\u2028" + `"}`), nil}, {raw(`[1e21,-0,1E400,0.1e-7]`), nil},
		{map[string]any{"bad\xff": "x", "bad\xfe": ""}, nil}, {map[string]any{"bad\xff": "", "bad\xfe": "x"}, nil},
		{struct {
			B string `json:"b"`
			A string `json:"a"`
		}{"<b>", "&"}, nil},
		{raw(`{}`), nil}, {raw(`[]`), nil}, {raw(`""`), nil}, {raw(`{"a":{"b":{}}}`), []string{"a.b"}},
		// Rows with the same keys share an order; rows with other keys do not.
		{raw(`[{"b":1,"a":2},{"a":3,"b":4},{"b":5,"a":6},{"c":7,"a":8},{"b":9,"a":""}]`), nil},
		{raw(`[{"c":1,"a":2,"b":3},{"c":4,"a":5,"b":6},{"b":7,"c":8,"a":9}]`), nil},
		{[]any{map[string]any{"x": 1, "y": 2}, map[string]any{"y": 1, "z": 2}, map[string]any{"x": ""}}, nil},
	} {
		if !checkCompactSame(t, c.v, c.keep) {
			t.Logf("case %d", i)
		}
	}
}

// plainRun's eight-bytes-at-a-time scan stops where a byte-by-byte one
// does, wherever the first byte that needs a look falls.
func TestPlainRun(t *testing.T) {
	t.Parallel()
	naive := func(b []byte) int {
		for i, c := range b {
			if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
				return i
			}
		}
		return len(b)
	}
	r := rand.New(rand.NewPCG(1, 2))
	specials := []byte{0, 0x1f, '"', '\\', 0x80, 0xe2, 0xff, 0x7f, 0x20, '!', '#', '[', ']'}
	for n := range 5000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(0x20 + r.IntN(0x5f))
		}
		for range r.IntN(3) {
			if len(b) > 0 {
				b[r.IntN(len(b))] = specials[r.IntN(len(specials))]
			}
		}
		if got, want := plainRun(b), naive(b); got != want {
			t.Fatalf("case %d: plainRun(%q) = %d, want %d", n, b, got, want)
		}
	}
}
