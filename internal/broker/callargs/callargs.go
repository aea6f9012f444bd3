// Package callargs reads a tool call's arguments once, the same way for
// every reader: the broker that chooses the credential, the audit line
// that records the owner, and the upstream MCP server the call is
// forwarded to. Readers that disagree about which key is "owner" let a
// call act on one owner with another's credential, so the reading is
// strict: a JSON object, each key once under any case folding, owner and
// repo strings with GitHub's name shapes, and (where the tool declares its
// arguments) no undeclared key.
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
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/searchquery"
)

// Target is where a call acts, as its arguments say: the owner and
// repository named by the keys "owner" and "repo" exactly, or "" where a
// key is absent (or an empty string, which every reader takes as absent).
type Target struct {
	Owner string
	Repo  string
	// Query is the "query" argument when it is a string: a search whose
	// scope qualifiers can reach other owners.
	Query string
	// Also are the other repositories the call acts on, as the keys
	// "target_owner"/"target_repo" (a link's other issue) and
	// "duplicate_of_repo" ("owner/name", the original of a duplicate) name
	// them, each completed with the named owner or repo where it leaves
	// one out. A reader that checked only Owner and Repo would let a call
	// write beyond them.
	Also []Repo
	// Board is the owner of the project board a call writes beside its
	// issue, as "project" (github_create_issue, github_update_issue) or
	// "changes"."project" (github_bulk_update_issues) names it; nil when
	// neither is given. Such a call does github_update_project_item's
	// work on that owner's board, so it needs what that tool needs.
	Board *Board
}

// Board is the board a call's project argument names: its owner ("" when
// the argument names none, which no grant short of "*" covers).
type Board struct {
	Owner string
}

// placement is the part of a project argument a reader needs; the tool
// reads the rest.
type placement struct {
	Owner string `json:"owner"`
}

// readBoard reads a project argument. A value that is no object names no
// board (ghgate's tools refuse it; another server's tool may take a
// project of another shape); an object whose owner is no string is
// refused, as the tool would refuse it.
func readBoard(field string, value json.RawMessage) (*Board, *contract.Error) {
	if len(value) == 0 || value[0] != '{' {
		return nil, nil
	}
	var pl placement
	if json.Unmarshal(value, &pl) != nil {
		return nil, invalid(field, "must be an object {owner, project_number, fields}")
	}
	return &Board{Owner: pl.Owner}, nil
}

// Repo is one repository a call names.
type Repo struct {
	Owner, Repo string
}

// Args is a call's arguments read once.
type Args struct {
	Target Target
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
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return Args{}, nil
	}
	if trimmed[0] != '{' {
		return Args{}, invalid("", "arguments must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return Args{}, invalid("", "arguments are not valid JSON")
	}
	type member struct {
		key   string
		value json.RawMessage
	}
	var (
		members []member
		seen    = map[string]string{} // folded -> key as sent
		target  Target
		others  = map[string]string{} // target_owner, target_repo, duplicate_of_repo as sent
		repos   []string              // a report's "repos", names of owner's repositories
	)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Args{}, invalid("", "arguments are not valid JSON")
		}
		key, ok := tok.(string)
		if !ok {
			return Args{}, invalid("", "arguments are not valid JSON")
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return Args{}, invalid(shown(key), "arguments are not valid JSON")
		}
		if len(members) == maxKeys {
			return Args{}, invalid("", fmt.Sprintf("more than %d arguments", maxKeys))
		}
		folded := Fold(key)
		if prev, dup := seen[folded]; dup {
			if prev == key {
				return Args{}, invalid(shown(key), "is given twice; give each argument once")
			}
			return Args{}, invalid(shown(key), fmt.Sprintf("is the same name as %q under case folding; give each argument once, spelled as the tool declares it", shown(prev)))
		}
		seen[folded] = key
		if declared != nil && !declared[key] {
			return Args{}, invalid(shown(key), "is not an argument of this tool (names are case-sensitive)")
		}
		if key == "query" && len(value) > 0 && value[0] == '"' {
			_ = json.Unmarshal(value, &target.Query)
		}
		// A board is read under any spelling of its key: a decoder that
		// matches names without case must not carry one past the check.
		switch {
		case strings.EqualFold(key, "project"):
			b, e := readBoard("project", value)
			if e != nil {
				return Args{}, e
			}
			target.Board = b
		case strings.EqualFold(key, "changes"):
			// Only the project inside a bulk edit's changes matters here;
			// the tool checks the rest.
			var ch struct {
				Project json.RawMessage `json:"project"`
			}
			if len(value) > 0 && value[0] == '{' && json.Unmarshal(value, &ch) == nil && len(ch.Project) > 0 {
				b, e := readBoard("changes.project", ch.Project)
				if e != nil {
					return Args{}, e
				}
				target.Board = b
			}
		}
		if key == "repos" {
			// A report's repositories of the owner, each read as if named
			// by repo: a reader that checked only repo would let the call
			// read every other one listed.
			var names []string
			if len(value) == 0 || value[0] != '[' || json.Unmarshal(value, &names) != nil {
				return Args{}, invalid(key, "must be an array of repository names")
			}
			repos = names
		}
		switch key {
		case "owner", "repo", "target_owner", "target_repo", "duplicate_of_repo":
			// null decodes into a string without error; only a JSON
			// string is one.
			var s string
			if len(value) == 0 || value[0] != '"' || json.Unmarshal(value, &s) != nil {
				return Args{}, invalid(key, "must be a string")
			}
			switch key {
			case "owner":
				target.Owner = s
			case "repo":
				target.Repo = s
			default:
				others[key] = s
			}
		}
		members = append(members, member{key, value})
	}
	if _, err := dec.Token(); err != nil {
		return Args{}, invalid("", "arguments are not valid JSON")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Args{}, invalid("", "arguments must be one JSON object")
	}
	also, e := alsoTargets(target, others)
	if e != nil {
		return Args{}, e
	}
	for _, name := range repos {
		if target.Owner == "" || github.CheckRepo(target.Owner, name) != nil {
			return Args{}, invalid("repos", "must name repositories of owner as GitHub spells names (letters, digits, '.', '-', '_')")
		}
		also = append(also, Repo{target.Owner, name})
	}
	target.Also = also
	if e := checkTarget(target); e != nil {
		return Args{}, e
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return Args{Target: target, Canonical: b.Bytes()}, nil
}

// RouteOwner is the owner whose credential serves the call: the owner it
// names, else the one owner its query's scope qualifiers name, else
// fallback. A query scope reaching past the named owner (and repository),
// or naming two owners, is refused: GitHub ORs such scopes together, so
// they would be searched with the named owner's credential.
func (a Args) RouteOwner(fallback string) (string, *contract.Error) {
	refs := searchquery.Refs(searchquery.Tokens(a.Target.Query))
	if a.Target.Owner != "" {
		for _, r := range refs {
			if !r.Within(a.Target.Owner, a.Target.Repo) {
				where := a.Target.Owner
				if a.Target.Repo != "" {
					where += "/" + a.Target.Repo
				}
				e := contract.Errorf(contract.CodeInvalidField, "query's %s:%s reaches past %s, the owner this call is routed and authorized by; nothing was sent",
					r.Name, shown(r.Value), where).WithField("query", "must not name repositories outside "+where)
				e.Settlement = contract.NotStarted
				return "", e.WithRepair(contract.Repair{NextStep: "call again without the " + r.Name + ": qualifier, or with owner set to the owner it names"})
			}
		}
		if e := a.OtherOwner(); e != nil {
			return "", e
		}
		return a.Target.Owner, nil
	}
	// Without an owner the query's scope routes the call: one owner, or
	// none; @me, the credential's own account whichever route's it is,
	// counts as an owner beside a named one.
	switch owners := searchquery.Owners(refs); {
	case len(owners) > 1:
		e := contract.Errorf(contract.CodeInvalidField, "query names repositories of more than one owner (%s, %s); a call is routed by one owner's credential; nothing was sent",
			shown(owners[0]), shown(owners[1])).WithField("query", "must name repositories of one owner only")
		e.Settlement = contract.NotStarted
		return "", e.WithRepair(contract.Repair{NextStep: "search one owner at a time, with owner set to it"})
	case len(owners) == 1 && owners[0] != searchquery.ViewerLogin:
		return owners[0], nil
	}
	return fallback, nil
}

// alsoTargets are the other repositories others name, completed with the
// call's own owner and repo where a part is left out.
func alsoTargets(t Target, others map[string]string) ([]Repo, *contract.Error) {
	var out []Repo
	if o, r := others["target_owner"], others["target_repo"]; o != "" || r != "" {
		if o == "" {
			o = t.Owner
		}
		if r == "" {
			r = t.Repo
		}
		out = append(out, Repo{o, r})
	}
	if d := others["duplicate_of_repo"]; d != "" {
		o, r, ok := strings.Cut(d, "/")
		if !ok || o == "" || r == "" {
			return nil, invalid("duplicate_of_repo", "must be owner/name")
		}
		out = append(out, Repo{o, r})
	}
	for _, a := range out {
		if a.Owner == "" || github.CheckOwner(a.Owner) != nil || a.Repo == "" || github.CheckRepo(a.Owner, a.Repo) != nil {
			return nil, invalid("target_owner", "target_owner, target_repo and duplicate_of_repo must name a repository as GitHub spells names (letters, digits, '.', '-', '_'), beside an owner and repo")
		}
	}
	return out, nil
}

// OtherOwner refuses a call whose other repositories (Target.Also) belong
// to another owner than the one it names: the call is routed, and
// authorized, by that owner's credential, which must not act elsewhere.
func (a Args) OtherOwner() *contract.Error {
	for _, r := range a.Target.Also {
		if !strings.EqualFold(r.Owner, a.Target.Owner) {
			e := contract.Errorf(contract.CodeInvalidField, "the call names %s/%s, of another owner than %s, whose credential this call is routed and authorized by; nothing was sent",
				shown(r.Owner), shown(r.Repo), shown(a.Target.Owner)).WithField("target_owner", "must be the call's owner, "+shown(a.Target.Owner))
			e.Settlement = contract.NotStarted
			return e.WithRepair(contract.Repair{NextStep: "name issues of one owner per call: call again with target_owner (or duplicate_of_repo's owner) equal to owner"})
		}
	}
	return nil
}

// checkTarget applies the name check ghgate's own tools apply: a name of
// another shape would change the path of the request it is put in.
func checkTarget(t Target) *contract.Error {
	if t.Owner != "" {
		if err := github.CheckOwner(t.Owner); err != nil {
			return invalid("owner", "must be a GitHub user or organization name (letters, digits, hyphens)")
		}
	}
	if t.Repo != "" {
		if t.Owner == "" {
			// A repository name is only checkable beside its owner; any
			// owner of the right shape will do for the shape check.
			if err := github.CheckRepo("x", t.Repo); err != nil {
				return invalid("repo", "must be a repository name (letters, digits, '.', '-', '_'), without the owner")
			}
		} else if err := github.CheckRepo(t.Owner, t.Repo); err != nil {
			return invalid("repo", "must be a repository name (letters, digits, '.', '-', '_'), without the owner")
		}
	}
	return nil
}

// Fold maps s to a canonical form under Unicode simple case folding: two
// names fold alike exactly when strings.EqualFold holds for them (so
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

func invalid(field, reason string) *contract.Error {
	msg := reason
	if field != "" {
		msg = "`" + field + "` " + reason
	}
	e := contract.Errorf(contract.CodeInvalidField, "%s; nothing was sent", msg).WithField(field, reason)
	e.Settlement = contract.NotStarted
	return e
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
