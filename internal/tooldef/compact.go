package tooldef

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"unicode/utf8"
)

// Compact renders v as the compact JSON agents receive: nulls, empty
// strings, empty arrays and empty objects are dropped at every depth, and
// nothing is HTML-escaped (an issue body's `a<b` stays `a<b`). keep names
// keys kept even when empty, for contract fields that must always be
// present: a path of keys joined by dots, with [] for each element of an
// array ("retry_after_ms", "issue.labels", "items[].milestone"). A kept
// empty list is written [], any other kept empty value null. Elements of
// an array stay even when empty (dropping one would shift positions), an
// object's keys are in byte order, and numbers are written as encoded.
//
// v is encoded once, and that encoding is pruned in a single pass that
// copies what it keeps: no tree of maps is built and nothing is decoded
// and encoded again, except a string the encoder did not write in its own
// form ([json.RawMessage] or a MarshalJSON can hand it any). The answer is
// byte for byte what decoding into a map, pruning and encoding the map
// again would give (compactRef in the tests).
func Compact(v any, keep ...string) ([]byte, error) {
	w := workspaces.Get().(*workspace)
	defer w.release()
	enc := json.NewEncoder(&w.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	raw := bytes.TrimRight(w.buf.Bytes(), "\n")
	// dst is the answer and outlives the call; the rest goes back to the
	// pool (nothing in dst points into it).
	c := compactor{src: raw, dst: make([]byte, 0, len(raw)), members: w.members[:0], scratch: w.scratch[:0], path: w.path[:0],
		lastKeys: w.keys[:0], lastOrder: w.order[:0]}
	defer func() {
		w.members, w.scratch, w.path, w.keys, w.order = c.members[:0], c.scratch[:0], c.path[:0], c.lastKeys[:0], c.lastOrder[:0]
	}()
	if len(keep) > 0 {
		c.kept = make(map[string]bool, len(keep))
		for _, k := range keep {
			c.kept[k] = true
		}
	}
	kind, err := c.value()
	if err != nil {
		return nil, err
	}
	if c.skipSpace(); c.pos != len(c.src) {
		return nil, errCompactSyntax
	}
	switch kind {
	case full:
		return c.dst, nil
	case emptyObject:
		return []byte("{}"), nil // an object stays one, even when empty
	default:
		return []byte("null"), nil
	}
}

// emptiness is what a value pruned to: full (written), or the empty
// value it was (nothing written).
type emptiness uint8

const (
	full emptiness = iota
	emptyNull
	emptyString
	emptyArray
	emptyObject
)

// errCompactSyntax is JSON the encoder cannot have written; Compact
// reports it rather than guess.
var errCompactSyntax = errors.New("compact: malformed JSON from the encoder")

// member is one key of the object being pruned.
type member struct {
	key        []byte // decoded: the sort order and the keep path
	start, end int    // `"key":value` in dst, without the comma
	present    bool   // false: dropped as empty
}

// compactor prunes src, the encoder's compact output, into dst.
type compactor struct {
	src  []byte
	pos  int
	dst  []byte
	kept map[string]bool
	// path is where the value being read sits, as keep names it; kept
	// only when keep is not empty.
	path []byte
	// members is a stack: each open object's members above the index
	// where it started.
	members []member
	scratch []byte
	// lastKeys and lastOrder are the keys of the last object put in
	// order, as written, and that order (sortedOrder).
	lastKeys  [][]byte
	lastOrder []int
}

func (c *compactor) skipSpace() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *compactor) peek() byte {
	if c.pos < len(c.src) {
		return c.src[c.pos]
	}
	return 0
}

// value prunes the value at pos into dst; an empty value leaves dst as
// it was and says which empty value it was.
func (c *compactor) value() (emptiness, error) {
	c.skipSpace()
	switch c.peek() {
	case '{':
		return c.object()
	case '[':
		return c.array()
	case '"':
		lit, canonical, _, err := c.stringLit()
		if err != nil {
			return full, err
		}
		if len(lit) == 2 {
			return emptyString, nil
		}
		if canonical {
			c.dst = append(c.dst, lit...)
			return full, nil
		}
		c.dst, err = appendRecoded(c.dst, lit)
		return full, err
	case 'n':
		if !bytes.HasPrefix(c.src[c.pos:], []byte("null")) {
			return full, errCompactSyntax
		}
		c.pos += len("null")
		return emptyNull, nil
	case 0:
		return full, errCompactSyntax
	}
	// A number, true or false: never empty, copied as written (a number
	// keeps every digit).
	start := c.pos
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			c.dst = append(c.dst, c.src[start:c.pos]...)
			return full, nil
		}
		c.pos++
	}
	c.dst = append(c.dst, c.src[start:]...)
	return full, nil
}

// stringLit reads the string literal at pos. canonical reports that it
// is as the encoder writes the string it stands for, so it can be copied;
// plain that it has no escapes, so it is also that string's bytes.
func (c *compactor) stringLit() (lit []byte, canonical, plain bool, err error) {
	start := c.pos
	canonical, plain = true, true
	for i := start + 1; i < len(c.src); {
		if i += plainRun(c.src[i:]); i >= len(c.src) {
			break
		}
		b := c.src[i]
		switch {
		case b == '"':
			c.pos = i + 1
			return c.src[start:c.pos], canonical, plain && canonical, nil
		case b == '\\':
			plain = false
			if i+1 < len(c.src) {
				switch c.src[i+1] {
				case '"', '\\', 'n', 'r', 't':
				default:
					// \u, \/, \b, \f: decoded and encoded again (the
					// encoder writes invalid UTF-8 as \ufffd, which
					// decodes to a character it writes as it is).
					canonical = false
				}
			}
			i += 2
		case b < 0x20:
			canonical = false // not JSON; the decode reports it
			i++
		case b < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(c.src[i:])
			if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
				canonical = false
			}
			i += size
		}
	}
	return nil, false, false, errCompactSyntax
}

// plainRun is how many bytes at the start of b are printable ASCII other
// than " and \: what a string literal holds as it is, most of an issue's
// body. Eight bytes are looked at together while none of them is one
// that needs a closer look.
func plainRun(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		// A byte below 0x20, a zero byte of quote or backslash (a " or
		// a \), or one with its high bit set (not ASCII).
		special := (x-ones*0x20)&^x | (quote-ones)&^quote | (backslash-ones)&^backslash | x
		if special&highs != 0 {
			break
		}
	}
	for i < len(b) && b[i] >= 0x20 && b[i] < utf8.RuneSelf && b[i] != '"' && b[i] != '\\' {
		i++
	}
	return i
}

// appendRecoded appends the string literal lit as the encoder writes the
// string it stands for.
func appendRecoded(dst, lit []byte) ([]byte, error) {
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return dst, err
	}
	enc, err := marshalNoEscape(s)
	return append(dst, enc...), err
}

func (c *compactor) object() (emptiness, error) {
	c.pos++ // {
	objStart, base, pathLen := len(c.dst), len(c.members), len(c.path)
	c.dst = append(c.dst, '{')
	if c.skipSpace(); c.peek() == '}' {
		c.pos++
		c.dst = c.dst[:objStart]
		return emptyObject, nil
	}
	written := false
	for {
		if c.skipSpace(); c.peek() != '"' {
			return full, errCompactSyntax
		}
		key, keyOut, err := c.key()
		if err != nil {
			return full, err
		}
		if c.skipSpace(); c.peek() != ':' {
			return full, errCompactSyntax
		}
		c.pos++
		mark := len(c.dst)
		if written {
			c.dst = append(c.dst, ',')
		}
		pieceStart := len(c.dst)
		c.dst = append(append(c.dst, keyOut...), ':')
		if c.kept != nil {
			c.path = c.path[:pathLen]
			if pathLen > 0 {
				c.path = append(c.path, '.')
			}
			c.path = append(c.path, key...)
		}
		kind, err := c.value()
		if err != nil {
			return full, err
		}
		present := true
		if kind != full {
			switch {
			case c.kept != nil && c.kept[string(c.path)] && kind == emptyArray:
				c.dst = append(c.dst, "[]"...)
			case c.kept != nil && c.kept[string(c.path)]:
				c.dst = append(c.dst, "null"...)
			default:
				c.dst, present = c.dst[:mark], false
			}
		}
		written = written || present
		c.members = append(c.members, member{key: key, start: pieceStart, end: len(c.dst), present: present})
		c.skipSpace()
		if c.peek() == ',' {
			c.pos++
			continue
		}
		if c.peek() != '}' {
			return full, errCompactSyntax
		}
		c.pos++
		break
	}
	c.path = c.path[:pathLen]
	kind := c.closeObject(objStart, base, written)
	c.members = c.members[:base]
	return kind, nil
}

// key reads an object's key: its decoded bytes, and the literal to write.
func (c *compactor) key() (key, out []byte, err error) {
	lit, canonical, plain, err := c.stringLit()
	if err != nil {
		return nil, nil, err
	}
	if plain {
		return lit[1 : len(lit)-1 : len(lit)-1], lit, nil
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return nil, nil, err
	}
	if canonical {
		return []byte(s), lit, nil
	}
	out, err = marshalNoEscape(s)
	return []byte(s), out, err
}

// closeObject ends the object whose members were written from objStart
// (members above base): in byte order of their keys, each key once (the
// last written wins, as when the object is decoded into a map).
func (c *compactor) closeObject(objStart, base int, written bool) emptiness {
	if !written {
		c.dst = c.dst[:objStart]
		return emptyObject
	}
	ms := c.members[base:]
	sorted := true
	for i := 1; i < len(ms) && sorted; i++ {
		sorted = bytes.Compare(ms[i-1].key, ms[i].key) < 0
	}
	if sorted {
		c.dst = append(c.dst, '}')
		return full
	}
	order := c.sortedOrder(ms)
	c.scratch = append(c.scratch[:0], c.dst[objStart:]...)
	c.dst = append(c.dst[:objStart], '{')
	n := 0
	for i, j := range order {
		m := ms[j]
		if !m.present || (i+1 < len(order) && bytes.Equal(ms[order[i+1]].key, m.key)) {
			continue
		}
		if n > 0 {
			c.dst = append(c.dst, ',')
		}
		c.dst = append(c.dst, c.scratch[m.start-objStart:m.end-objStart]...)
		n++
	}
	if n == 0 {
		// Every key present was repeated later with an empty value.
		c.dst = c.dst[:objStart]
		return emptyObject
	}
	c.dst = append(c.dst, '}')
	return full
}

// sortedOrder is the order of ms by key, ties in the order written. The
// rows of a list have the same keys in the same order, so the order found
// for one object is kept and used again for the next with the same keys.
func (c *compactor) sortedOrder(ms []member) []int {
	if len(ms) == len(c.lastKeys) {
		same := true
		for i := range ms {
			if !bytes.Equal(ms[i].key, c.lastKeys[i]) {
				same = false
				break
			}
		}
		if same {
			return c.lastOrder
		}
	}
	c.lastKeys, c.lastOrder = c.lastKeys[:0], c.lastOrder[:0]
	for i := range ms {
		c.lastKeys = append(c.lastKeys, ms[i].key)
		c.lastOrder = append(c.lastOrder, i)
	}
	slices.SortStableFunc(c.lastOrder, func(a, b int) int { return bytes.Compare(ms[a].key, ms[b].key) })
	return c.lastOrder
}

func (c *compactor) array() (emptiness, error) {
	c.pos++ // [
	start, pathLen := len(c.dst), len(c.path)
	if c.kept != nil {
		c.path = append(c.path, "[]"...)
	}
	defer func() { c.path = c.path[:pathLen] }()
	if c.skipSpace(); c.peek() == ']' {
		c.pos++
		return emptyArray, nil
	}
	c.dst = append(c.dst, '[')
	for first := true; ; first = false {
		if !first {
			c.dst = append(c.dst, ',')
		}
		kind, err := c.value()
		if err != nil {
			return full, err
		}
		// An empty element stays, as it was: removing it would shift
		// the positions after it.
		switch kind {
		case emptyNull:
			c.dst = append(c.dst, "null"...)
		case emptyString:
			c.dst = append(c.dst, `""`...)
		case emptyArray:
			c.dst = append(c.dst, "[]"...)
		case emptyObject:
			c.dst = append(c.dst, "{}"...)
		}
		c.skipSpace()
		switch c.peek() {
		case ',':
			c.pos++
			continue
		case ']':
			c.pos++
			c.dst = append(c.dst, ']')
			return full, nil
		}
		c.dst = c.dst[:start]
		return full, errCompactSyntax
	}
}

// workspace is what Compact needs only while it runs: the encoder's
// output and the compactor's stacks. Growing fresh ones to the size of a
// 30-row answer was most of what Compact allocated, so they are pooled.
type workspace struct {
	buf     bytes.Buffer
	scratch []byte
	members []member
	path    []byte
	keys    [][]byte
	order   []int
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// maxPooled bounds what the pool keeps: one answer far larger than the
// rest (a report) is not held for the life of the process.
const maxPooled = 1 << 20

func (w *workspace) release() {
	if w.buf.Cap() > maxPooled || cap(w.scratch) > maxPooled {
		return
	}
	w.buf.Reset()
	// Keys point into the buffer, or were decoded for one answer.
	clear(w.members[:cap(w.members)])
	clear(w.keys[:cap(w.keys)])
	workspaces.Put(w)
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
