package broker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzUpstreamRouting sends upstream calls whose arguments name owners in
// every shape an agent can give them: nested objects and arrays, keys in
// any letter case, OWNER/REPO strings where an owner is expected, values
// of other types. Whatever is sent, a call either is refused before it
// reaches the upstream, or reaches it with a credential that covers every
// owner the upstream could read from the arguments, and its audit line
// lists each of them. The owners are found by an oracle of its own
// (ownerOracle), not by the broker's reader.
//
// shape is either the arguments as JSON (when it starts with '{': the
// seeds are written so) or a program that builds them (genArgs), using s1
// and s2 as two of its strings.
func FuzzUpstreamRouting(f *testing.F) {
	for _, s := range []struct {
		args  string
		write bool
	}{
		{`{"org":"fleet"}`, false},
		{`{"org":"alice"}`, false},
		{`{"repositories":["fleet/x"]}`, false},
		{`{"repositories":["acme/widgets","alice/notes"]}`, false},
		{`{"filter":{"repo":"fleet/x"}}`, false},
		{`{"filter":{"Repo":"alice/notes"}}`, false},
		{`{"owner":"acme","repo":"widgets","organization":"alice"}`, true},
		{`{"organization":"alice","name":"x"}`, true},
		{`{"organization":"ACME","name":"x"}`, true},
		{`{"target":{"login":"fleet"}}`, false},
		{`{"account":"alice"}`, false},
		{`{"filter":{"items":[{"repository":{"owner":"fleet","name":"x"}}]}}`, false},
		{`{"owner":"acme","filter":{"uſer":"alice"}}`, false},
		{`{"filter":{"repo":"acme/x","REPO":"fleet/y"}}`, false},
		{`{"items":[{"full_name":"fleet/x"}],"title":"t"}`, false},
		{`{"repository":"ALICE/notes"}`, false},
		{`{"user":"alice/notes"}`, false},
		{`{"items":[[{"username":"fleet"}]]}`, true},
		{`{"filter":{"org":7}}`, false},
		{`{"title":"fleet/x","name":"fleet"}`, false},
		{`{"target":"alice/notes"}`, false},
		{`{"filter":{"state":"fleet/x"}}`, true},
		{`{"title":7}`, true},
		{`{"target":"alice/notes#12"}`, false},
		{`{"filter":{"state":"fleet/x@main"}}`, true},
		{`{"items":[{"state":"acme/widgets/"}]}`, false},
	} {
		f.Add([]byte(s.args), "acme", "alice", s.write)
	}
	f.Add([]byte("\x03\x02\x05\x03\x01\x00\x09\x02\x07"), "fleet/x", "alice", false)
	f.Add([]byte("\x04\x03\x0e\x03\x01\x10\x00\x04"), "acme", "fleet", true)
	bd := startBoundary(f, `[tools]
toolsets = ["issues"]`)
	audit := &auditTail{path: bd.audit}
	f.Fuzz(func(t *testing.T, shape []byte, s1, s2 string, write bool) {
		tool, mode := "deep_read", "read"
		if write {
			tool, mode = "deep_write", "write"
		}
		var args *argNode
		if len(shape) > 0 && shape[0] == '{' {
			if !json.Valid(shape) {
				return // no client can send it
			}
			var err error
			if args, err = parseArgs(shape); err != nil {
				t.Fatalf("%s: %v", shape, err)
			}
		} else {
			args = genArgs(&genInput{b: shape, strs: []string{s1, s2}})
		}
		raw := args.encode()
		before := len(bd.up.seen())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := bd.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(raw)})
		if err != nil {
			t.Fatalf("%s %s: a protocol error: %v", tool, raw, err)
		}
		seen := bd.up.seen()
		lines := audit.next(t)
		if len(lines) != 1 {
			t.Fatalf("%s %s: %d audit lines, want 1", tool, raw, len(lines))
		}
		line := lines[0]
		if len(seen) == before {
			if !res.IsError {
				t.Fatalf("%s %s: succeeded without reaching the upstream", tool, raw)
			}
			if line.Outcome != "error" {
				t.Fatalf("%s %s: refused, but audited outcome %q", tool, raw, line.Outcome)
			}
			return
		}
		if got := len(seen) - before; got != 1 {
			t.Fatalf("%s %s: reached the upstream %d times, want 1", tool, raw, got)
		}
		secret := bd.tokens[seen[len(seen)-1].Token]
		o := &ownerOracle{}
		o.walk(args, plainArg, nil)
		if o.unmodelled {
			// A URL, a remote or a search qualifier: what it names is
			// for the reader's own tests (callargs) to say.
			return
		}
		if o.unreadable != "" {
			t.Fatalf("%s %s: forwarded with %q, but %s", tool, raw, secret, o.unreadable)
		}
		if len(o.owners) == 0 {
			// A call naming no owner takes the upstream's configured owner.
			if want := routeOf("acme", mode); secret != want {
				t.Fatalf("%s %s: names no owner, forwarded with %q, want %q", tool, raw, secret, want)
			}
		}
		for _, owner := range o.owners {
			if want := routeOf(owner, mode); secret != want {
				t.Fatalf("%s %s: names %q, forwarded with %q, want %q", tool, raw, owner, secret, want)
			}
			if !slices.ContainsFunc(line.Owners, func(s string) bool { return strings.EqualFold(s, owner) }) {
				t.Fatalf("%s %s: names %q, audited owners %q", tool, raw, owner, line.Owners)
			}
		}
		if line.Credential != secret {
			t.Fatalf("%s %s: forwarded with %q, audited credential %q", tool, raw, secret, line.Credential)
		}
	})
}

// argNode is one JSON value of a call's arguments, kept as sent: an
// object's keys in order, repeats included.
type argNode struct {
	kind  byte // '{' object, '[' array, '"' string, '0' number, 't' boolean, 'n' null
	str   string
	keys  []string
	items []*argNode
}

func (n *argNode) encode() []byte {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

func (n *argNode) write(b *bytes.Buffer) {
	switch n.kind {
	case '{', '[':
		open, close := byte('{'), byte('}')
		if n.kind == '[' {
			open, close = '[', ']'
		}
		b.WriteByte(open)
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			if n.kind == '{' {
				k, _ := json.Marshal(n.keys[i])
				b.Write(k)
				b.WriteByte(':')
			}
			it.write(b)
		}
		b.WriteByte(close)
	case '"':
		s, _ := json.Marshal(n.str)
		b.Write(s)
	case '0':
		b.WriteString("7")
	case 't':
		b.WriteString("true")
	default:
		b.WriteString("null")
	}
}

// parseArgs reads JSON into an argNode tree, repeated keys kept.
func parseArgs(raw []byte) (*argNode, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one JSON value")
	}
	return n, nil
}

func parseNode(dec *json.Decoder) (*argNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		n := &argNode{kind: byte(v)}
		for dec.More() {
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			it, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, it)
		}
		_, err := dec.Token()
		return n, err
	case string:
		return &argNode{kind: '"', str: v}, nil
	case json.Number:
		return &argNode{kind: '0'}, nil
	case bool:
		return &argNode{kind: 't'}, nil
	}
	return &argNode{kind: 'n'}, nil
}

// genInput is the byte program genArgs reads; past its end it reads
// zeros, which build leaves.
type genInput struct {
	b    []byte
	strs []string
}

func (g *genInput) next() int {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return int(c)
}

// genKeys are the keys genArgs builds objects from: names that can name an
// owner in several letter cases (ſ folds to s), and names that cannot.
var genKeys = []string{"owner", "Owner", "org", "ORG", "organization", "user", "uſer", "username", "UserName",
	"repo", "Repo", "repository", "repositories", "Repositories", "full_name", "FULL_NAME",
	"filter", "target", "login", "LOGIN", "account", "Account", "title", "items", "name", "state"}

// genStrings are the strings it uses beside the fuzzer's two.
var genStrings = []string{"acme", "alice", "fleet", "ALICE", "acme/widgets", "alice/notes", "fleet/x", "Alice/Notes",
	"widgets", "", "a/b/c", "../fleet", "@me", "acme/", "/x"}

// genArgs builds an arguments object: its top-level keys are ones the
// tool declares, so the call reaches the reading that matters.
func genArgs(g *genInput) *argNode {
	n := &argNode{kind: '{'}
	for range 1 + g.next()%4 {
		n.keys = append(n.keys, deepArgs[g.next()%len(deepArgs)])
		n.items = append(n.items, genValue(g, 1))
	}
	return n
}

func genValue(g *genInput, depth int) *argNode {
	c := g.next()
	if depth >= 4 && c%8 >= 3 && c%8 <= 4 {
		c = 0 // deep enough: a leaf
	}
	switch c % 8 {
	case 0, 1, 2:
		all := append(append([]string(nil), g.strs...), genStrings...)
		return &argNode{kind: '"', str: all[g.next()%len(all)]}
	case 3:
		n := &argNode{kind: '{'}
		for range g.next() % 4 {
			n.keys = append(n.keys, genKeys[g.next()%len(genKeys)])
			n.items = append(n.items, genValue(g, depth+1))
		}
		return n
	case 4:
		n := &argNode{kind: '['}
		for range g.next() % 4 {
			n.items = append(n.items, genValue(g, depth+1))
		}
		return n
	case 5:
		return &argNode{kind: '0'}
	case 6:
		return &argNode{kind: 't'}
	}
	return &argNode{kind: 'n'}
}

// argKind is what the oracle takes a string under a key to name.
type argKind int

const (
	plainArg argKind = iota
	ownerArg
	repoArg
	proseArg // a title or a name: text, never read as naming an owner
)

var (
	oracleOwner = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,38}$`)
	oracleRepo  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
)

// ownerOracle collects the owners an upstream could read from arguments:
// every string under a key that names an owner (owner, org, organization,
// user, username, login, and the boundary's owner_args: account) or a repository (repo, repository,
// repositories, full_name), at any depth, keys compared without case; the
// nearest such key above a string says which. An OWNER/REPO string names
// its OWNER wherever it is. It also notes a value the upstream could read
// an owner from in some way the broker cannot check, which must not be
// forwarded.
type ownerOracle struct {
	owners     []string
	unreadable string
	// unmodelled is set by a text the oracle does not read (see
	// unmodelledText).
	unmodelled bool
}

func (o *ownerOracle) walk(n *argNode, k argKind, path []string) {
	switch n.kind {
	case '{':
		for i, key := range n.keys {
			p := append(slices.Clone(path), key)
			o.walk(n.items[i], oracleKind(p, k), p)
		}
	case '[':
		for _, it := range n.items {
			o.walk(it, k, path)
		}
	case '"':
		o.leaf(n.str, k, path)
	case '0', 't':
		if k == ownerArg || k == repoArg {
			o.unreadable = strings.Join(path, ".") + " is not a string"
		}
	}
}

// unmodelledText reports whether the oracle leaves s to the reader's own
// tests: a text that may be a URL, a remote, an API path, a gh flag, a
// search qualifier, JSON or an encoded value, anything but name
// characters, '/', '#' and '@'.
func unmodelledText(s string) bool {
	if strings.ContainsFunc(s, func(r rune) bool {
		return !(r < 0x80 && (r == '/' || r == '#' || r == '@' || r == '.' || r == '_' || r == '-' ||
			'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'))
	}) {
		return true
	}
	first, _, _ := strings.Cut(s, "/")
	switch strings.ToLower(first) {
	case "repos", "orgs", "users", "search", "enterprises", "api", "scim":
		return true
	}
	return strings.HasPrefix(s, "-") || strings.Contains(first, ".") || strings.Contains(strings.ToLower(s), "github")
}

func oracleKind(path []string, inherited argKind) argKind {
	key := path[len(path)-1]
	if inherited == proseArg {
		// An object below text is read afresh, key by key.
		inherited = plainArg
	}
	for _, name := range []string{"owner", "org", "organization", "user", "username", "account", "login"} {
		if strings.EqualFold(key, name) {
			return ownerArg
		}
	}
	for _, name := range []string{"repo", "repository", "repositories", "full_name"} {
		if strings.EqualFold(key, name) {
			return repoArg
		}
	}
	if inherited == plainArg && (strings.EqualFold(key, "title") || strings.EqualFold(key, "name")) {
		return proseArg
	}
	return inherited
}

func (o *ownerOracle) leaf(s string, k argKind, path []string) {
	if k == proseArg || s == "" {
		return
	}
	if k == plainArg {
		if unmodelledText(s) {
			o.unmodelled = true
			return
		}
		// OWNER/REPO names its owner wherever it stands, whatever follows
		// it: GitHub's references (OWNER/REPO#12, OWNER/REPO@SHA), a path
		// below the repository (OWNER/REPO/issues/1).
		if i := strings.IndexAny(s, "#@"); i > 0 {
			s = s[:i]
		}
		segs := strings.Split(strings.TrimSuffix(s, "/"), "/")
		if len(segs) >= 2 && oracleOwner.MatchString(segs[0]) &&
			oracleRepo.MatchString(segs[1]) && segs[1] != "." && segs[1] != ".." {
			o.owners = append(o.owners, segs[0])
		}
		return
	}
	where := strings.Join(path, ".")
	parts := strings.Split(s, "/")
	o.owners = append(o.owners, parts[0])
	switch {
	case len(parts) == 1 && k == repoArg:
		// A repository's name alone names no owner.
		o.owners = o.owners[:len(o.owners)-1]
		if !oracleRepo.MatchString(s) || s == "." || s == ".." {
			o.unreadable = where + " is not a repository name"
		}
	case len(parts) == 1:
		if !oracleOwner.MatchString(s) {
			o.unreadable = where + " is not an owner name"
		}
	case len(parts) > 2 || k == ownerArg:
		o.unreadable = where + " is not " + map[argKind]string{ownerArg: "an owner", repoArg: "OWNER/REPO"}[k]
	case !oracleOwner.MatchString(parts[0]) || !oracleRepo.MatchString(parts[1]) || parts[1] == "." || parts[1] == "..":
		o.unreadable = where + " is not OWNER/REPO"
	}
}
