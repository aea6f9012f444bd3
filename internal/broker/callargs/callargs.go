// Package callargs reads a tool call's arguments once, the same way for
// every reader: the broker that chooses the credential, the audit line
// that records the owner, and the upstream MCP server the call is
// forwarded to. Readers that disagree about which key is "owner" let a
// call act on one owner with another's credential, so the reading is
// strict: a JSON object, each key once under any case folding, owner and
// repo strings with GitHub's name shapes, and (where the tool declares its
// arguments) no undeclared key.
//
// [Read] reads ghgate's own tools' vocabulary (owner, repo, the other
// issue of a link, a board, a report's repos, a search query).
// [ReadUpstream] reads an upstream tool's arguments, which are untyped:
// beside that vocabulary it finds every argument that can name an owner
// or repository, at any depth (see [Upstream]).
//
// A one-line gh or git command in a value is read as it runs: its words
// as a POSIX shell makes them, its wrappers (env, sudo, timeout, …)
// looked through, its owner flags (--owner, --org, -o, joined -oOWNER)
// and gh repo list's OWNER argument read as owners. Where the text does
// not say what gh or git will be given, the call is refused rather than
// read by a guess: a word the shell expands ($NAME, $(…), `…`, and bash's
// brace expansion {a,b}, which makes several words of one), env's split
// string (env -S '…', split by env's own rules), gh api's q read from a
// file, and gh's GraphQL call. A script (more than one command, or a
// command of another program, such as sh -c '…') is not read.
package callargs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/contract"
)

// Args is a call's arguments read once.
type Args struct {
	Target Target
	// Named is every owner and repository named anywhere in the
	// arguments, in the order found; ReadUpstream fills it, Read leaves
	// it nil (ghgate's own tools name their targets through Target).
	Named []Name
	// Canonical is the arguments object re-encoded with every key once, in
	// the order sent: what is forwarded, so the receiver reads what was
	// checked. Nil when the call had no arguments.
	Canonical json.RawMessage
}

// Declared says which argument names a tool accepts; nil accepts any name
// (the tool checks its own), an empty set accepts none.
type Declared map[string]bool

// DeclaredBy returns the property names an input schema declares (an
// upstream's tool definition, as its JSON), or an empty set when it
// declares none: a tool without properties takes no arguments.
func DeclaredBy(inputSchema any) Declared {
	out := Declared{}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	raw, err := json.Marshal(inputSchema)
	if err != nil || json.Unmarshal(raw, &s) != nil {
		return out
	}
	for k := range s.Properties {
		out[k] = true
	}
	return out
}

// maxKeys bounds the keys of one arguments object; no tool takes more than
// a few dozen.
const maxKeys = 256

// Read reads raw (a tools/call's arguments). It refuses, before anything
// is routed: a value that is not an object, a key given twice (exactly or
// under Unicode case folding, which decides what encoding/json and many
// other decoders treat as the same field), a key the tool does not declare
// (when declared is not nil), and an owner or repo that is not a string
// of GitHub's name shape.
func Read(raw json.RawMessage, declared Declared) (Args, *contract.Error) {
	ms, e := readMembers(raw, declared)
	if e != nil || ms == nil {
		return Args{}, e
	}
	t, e := readTarget(ms, false)
	if e != nil {
		return Args{}, e
	}
	return Args{Target: t, Canonical: ms.canonical()}, nil
}

// ReadUpstream reads an upstream tool's arguments as Read does, and also
// finds every owner and repository they name, at any depth (Args.Named).
// A value it cannot read as a name where one is expected is refused: the
// upstream could read an owner from it that nobody checked.
func ReadUpstream(raw json.RawMessage, u Upstream) (Args, *contract.Error) {
	ms, e := readMembers(raw, u.Declared)
	if e != nil || ms == nil {
		return Args{}, e
	}
	t, e := readTarget(ms, true)
	if e != nil {
		return Args{}, e
	}
	named, e := u.rules().scan(ms)
	if e != nil {
		return Args{}, e
	}
	return Args{Target: t, Named: named, Canonical: ms.canonical()}, nil
}

// member is one key of the arguments object and its value as sent.
type member struct {
	key   string
	value json.RawMessage
}

type members []member

// readMembers splits raw into its members, refusing what Read refuses
// before it looks at any value. Nil arguments (absent, or JSON null) are
// no members and no error.
func readMembers(raw json.RawMessage, declared Declared) (members, *contract.Error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil, nil
	}
	if trimmed[0] != '{' {
		return nil, invalid("", "arguments must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, notJSON("")
	}
	ms := members{}
	keys := keySet{}
	for dec.More() {
		m, e := nextMember(dec)
		if e != nil {
			return nil, e
		}
		if len(ms) == maxKeys {
			return nil, invalid("", fmt.Sprintf("more than %d arguments", maxKeys))
		}
		if e := keys.add(m.key, m.key); e != nil {
			return nil, e
		}
		if declared != nil && !declared[m.key] {
			return nil, invalid(shown(m.key), "is not an argument of this tool (names are case-sensitive)")
		}
		ms = append(ms, m)
	}
	if _, err := dec.Token(); err != nil {
		return nil, notJSON("")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalid("", "arguments must be one JSON object")
	}
	return ms, nil
}

// nextMember reads one key and its value.
func nextMember(dec *json.Decoder) (member, *contract.Error) {
	tok, err := dec.Token()
	if err != nil {
		return member{}, notJSON("")
	}
	key, ok := tok.(string)
	if !ok {
		return member{}, notJSON("")
	}
	var value json.RawMessage
	if err := dec.Decode(&value); err != nil {
		return member{}, notJSON(shown(key))
	}
	return member{key, value}, nil
}

// keySet holds the keys of one object, folded, to refuse a key given
// twice.
type keySet map[string]string // folded -> key as sent

// add records key, shown in an error as field; a key already given,
// exactly or under case folding, is refused.
func (s keySet) add(key, field string) *contract.Error {
	folded := Fold(key)
	prev, dup := s[folded]
	switch {
	case !dup:
		s[folded] = key
		return nil
	case prev == key:
		return invalid(shown(field), "is given twice; give each argument once")
	}
	return invalid(shown(field), fmt.Sprintf("is the same name as %q under case folding; give each argument once, spelled as the tool declares it", shown(prev)))
}

// canonical re-encodes the members as one object, each key once, in the
// order sent.
func (ms members) canonical() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// Fold maps s to a canonical form under Unicode simple case folding: two
// names fold alike exactly when [strings.EqualFold] holds for them (so
// "Owner", "OWNER" and "owner" are one name, as encoding/json reads them).
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune is the smallest rune in r's case-folding orbit.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// maxShown bounds a key quoted back in an error: the key is the caller's
// own text, and an error must stay small.
const maxShown = 64

func shown(key string) string {
	if len(key) <= maxShown {
		return key
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(key[cut]) {
		cut--
	}
	return key[:cut] + "…"
}

// refused is an envelope for a call refused before anything was sent.
func refused(code contract.Code, format string, args ...any) *contract.Error {
	e := contract.Errorf(code, format, args...)
	e.Settlement = contract.NotStarted
	return e
}

// invalid is the invalid_field refusal of field for reason.
func invalid(field, reason string) *contract.Error {
	msg := reason
	if field != "" {
		msg = "`" + field + "` " + reason
	}
	return refused(contract.CodeInvalidField, "%s; nothing was sent", msg).WithField(field, reason)
}

func notJSON(field string) *contract.Error {
	return invalid(field, "arguments are not valid JSON")
}

type argsKey struct{}

// With attaches a call's arguments, read once, to its context, for the
// handler that forwards them.
func With(ctx context.Context, a Args) context.Context {
	return context.WithValue(ctx, argsKey{}, a)
}

// From returns the arguments With attached; ok is false when none were.
func From(ctx context.Context) (a Args, ok bool) {
	a, ok = ctx.Value(argsKey{}).(Args)
	return a, ok
}
