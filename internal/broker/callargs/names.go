package callargs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/searchquery"
)

// Upstream says how to read an upstream tool's arguments. Their schema is
// the upstream's, so nothing says which argument names an owner: any key
// that can (owner, org, organization, user, username, repo, repository,
// repositories, repos, full_name; query for a search's scope qualifiers),
// compared without letter case, at any depth, is read as naming one, and
// so is every string below it (the nearest such key says how). Every
// other string but text (a title, a body) is read for the names it can
// hold: URLs, remotes, API paths, command lines, OWNER/REPO, search
// qualifiers, JSON (see [hosts.readText]); under a path, ref or cursor
// key only what no path is (see [hosts.readPathText]). An operator adds
// names per tool: a plain name ("account") is read at any depth, a
// dotted one ("target.login") as a path from the top, arrays along it
// included.
type Upstream struct {
	// Declared are the top-level argument names the tool declares.
	Declared Declared
	// OwnerArgs name owners ("acme"); RepoArgs repositories ("widgets"
	// or "acme/widgets"); TextArgs hold text, never read for a name (a
	// package name such as "actions/checkout", a field's value).
	OwnerArgs, RepoArgs, TextArgs []string
	// Hosts are the hosts, besides those named "github" and GHE.com's,
	// whose URLs name owners as GitHub's do: the GitHub Enterprise server
	// the broker is configured for (its hosts below included).
	Hosts []string
}

// Name is one owner or repository an argument names.
type Name struct {
	// Field is the argument, as a path: "organization", "filter.repo",
	// "repositories[1]".
	Field string
	// Owner is "" for a repository named without its owner; Repo is ""
	// for an owner named alone.
	Owner, Repo string
}

// kind is what a string under an argument names.
type kind uint8

const (
	plain kind = iota
	ownerKind
	repoKind
	queryKind
	// proseKind is text (a title, a body): nothing in it is read as a
	// name. Keys below it are still read.
	proseKind
	// pathKind is a path inside a repository or a page cursor: an
	// OWNER/REPO shape there ("docs/readme.md") is not a name, but a whole
	// GitHub URL, remote or rooted API path is. Keys below it are still
	// read.
	pathKind
	// refKind is a branch, a ref or a SHA, which may name its owner
	// ("fleet:main", a pull request's head from a fork: git allows no ':'
	// in a ref, so the form is unambiguous), or be a whole URL.
	refKind
)

func (k kind) what() string {
	if k == ownerKind {
		return "an owner"
	}
	return "a repository"
}

// builtinKinds are the names read as naming an owner, a repository or a
// search wherever they appear, in any tool.
var builtinKinds = map[string]kind{
	"owner": ownerKind, "org": ownerKind, "organization": ownerKind, "user": ownerKind, "username": ownerKind,
	"repo": repoKind, "repository": repoKind, "repositories": repoKind, "repos": repoKind, "full_name": repoKind,
	"query": queryKind,
}

// rules are an Upstream's names, folded.
type rules struct {
	anywhere map[string]kind // by key
	paths    map[string]kind // by dotted path from the top
	hosts    hosts
}

func (u Upstream) rules() rules {
	r := rules{anywhere: make(map[string]kind, len(builtinKinds)+len(u.OwnerArgs)+len(u.RepoArgs)+len(u.TextArgs)), paths: map[string]kind{}}
	for _, h := range u.Hosts {
		r.hosts = append(r.hosts, strings.TrimSuffix(strings.ToLower(h), "."))
	}
	for name, k := range builtinKinds {
		r.anywhere[Fold(name)] = k
	}
	for _, set := range []struct {
		k     kind
		names []string
	}{{ownerKind, u.OwnerArgs}, {repoKind, u.RepoArgs}, {proseKind, u.TextArgs}} {
		for _, name := range set.names {
			k := set.k
			if strings.Contains(name, ".") {
				r.paths[Fold(name)] = k
			} else {
				r.anywhere[Fold(name)] = k
			}
		}
	}
	return r
}

// kindOf is what the value at keys (from the top) names. The operator's
// paths and the built-in names come first; then a key whose name says it
// holds a name (account_owner, nameWithOwner, html_url's siblings
// repo_full_name, search_query); then the kind of the key above; last, at
// the top of a plain value, prose keys, whose text is never read as a
// name. An upstream's arguments are its own, so this reads widely: a name
// read where none was meant refuses a call (fail closed), a name missed
// would send it with the wrong owner's credential.
func (r rules) kindOf(keys []string, above kind) kind {
	if len(r.paths) > 0 {
		if k, ok := r.paths[Fold(strings.Join(keys, "."))]; ok {
			return k
		}
	}
	last := keys[len(keys)-1]
	if k, ok := r.anywhere[Fold(last)]; ok {
		return k
	}
	if k, ok := kindByName(last); ok {
		return k
	}
	// A member of an object below an owner or repository key names what
	// the key above names (repository.owner.login); below text, a query
	// or a ref it is read afresh: {"files":[{"path":"a","from":"B/x"}]}
	// names B.
	if above == ownerKind || above == repoKind {
		return above
	}
	switch {
	case textKeys[Fold(last)]:
		return proseKind
	case pathKeys[Fold(last)]:
		return pathKind
	case refKeys[Fold(last)]:
		return refKind
	case len(keys) == 1:
		return declaredKind(last)
	}
	return plain
}

// declaredKind reads what a top-level key, one the tool declares (so its
// meaning is the tool's, not the caller's), holds from how its name ends:
// a branch, a ref or a SHA (from_branch, tree_sha, target_commitish), a
// path or a page cursor (file_path, path_filter, after, endCursor), or
// text (commit_title, commit_message, new_name). A key whose name also
// says owner, repo, org or login is read as any key is, and so is a
// ...name key that also says user, account, slug or target.
func declaredKind(key string) kind {
	n := normalKey(key)
	says := func(words ...string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(n, w) })
	}
	ends := func(suffixes ...string) bool {
		return slices.ContainsFunc(suffixes, func(x string) bool { return strings.HasSuffix(n, x) })
	}
	switch {
	case says("owner", "repo", "org", "login"):
		return plain
	case ends("branch", "sha", "ref", "commitish", "revision"):
		return refKind
	case ends("path", "pathfilter", "cursor") || n == "after" || n == "before":
		return pathKind
	case ends("title", "message"):
		return proseKind
	case ends("name") && !says("user", "account", "slug", "target"):
		return proseKind
	}
	return plain
}

// NamesOwner reports whether an argument name (the last part of a dotted
// one) is read as naming an owner, a repository, a search or a fork's
// branch in every tool: such a name cannot be declared text.
func NamesOwner(name string) bool {
	last := name[strings.LastIndex(name, ".")+1:]
	if _, ok := builtinKinds[Fold(last)]; ok {
		return true
	}
	_, ok := kindByName(last)
	return ok
}

// normalKey folds a key to lower case (Kelvin sign and long s included,
// see Fold) and drops '_', '-' and '.', so full_name, fullName and
// full-name read alike.
func normalKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, strings.ToLower(Fold(k)))
}

// kindByName reads what a key not listed anywhere names from how its name
// ends.
func kindByName(key string) (kind, bool) {
	n := normalKey(key)
	ends := func(suffixes ...string) bool {
		return slices.ContainsFunc(suffixes, func(x string) bool { return strings.HasSuffix(n, x) })
	}
	switch {
	case n == "q" || n == "search" || ends("query"):
		return queryKind, true
	case ends("repo", "repos", "repository", "repositories", "fullname", "namewithowner"):
		return repoKind, true
	case ends("owner", "owners", "org", "orgs", "organization", "organizations", "organisation", "organisations",
		"login", "logins", "username", "usernames", "ownername", "orgname", "organizationname"):
		return ownerKind, true
	case n == "head" || n == "base" || n == "basehead" || ends("headref", "headrefname", "baseref", "baserefname", "headlabel", "baselabel"):
		// GraphQL's headRefName takes USER:BRANCH for a fork, as REST's
		// head does.
		return refKind, true
	}
	return plain, false
}

// textKeys, pathKeys and refKeys (folded) hold text, paths, and refs, at
// any depth. They match under simple case folding only (Fold's, as Go's
// encoding/json matches a field), spelled as listed: unlike kindByName's
// wide reading, which can only refuse more, a key taken for text is never
// read for a name, so "_name", "n-ame" or "tİtle" stays a key whose
// OWNER/REPO value routes the call.
var (
	textKeys = foldedSet("title", "body", "content", "message", "description", "text",
		"comment", "note", "label", "labels", "name", "tag", "pattern", "diff", "patch")
	pathKeys = foldedSet("path", "filepath", "file_path", "file-path",
		"file", "files", "filename", "file_name", "file-name")
	refKeys = foldedSet("ref", "branch", "sha", "commit", "revision", "commitish")
)

func foldedSet(keys ...string) map[string]bool {
	set := make(map[string]bool, len(keys))
	for _, k := range keys {
		set[Fold(k)] = true
	}
	return set
}

// maxDepth bounds how deep arguments may nest: no tool's arguments come
// near it, and the reading recurses once per level.
const maxDepth = 32

// scan reads every member's value through, collecting the names found.
func (r rules) scan(ms members) ([]Name, *contract.Error) {
	s := &scanner{rules: r}
	for _, m := range ms {
		dec := json.NewDecoder(bytes.NewReader(m.value))
		dec.UseNumber()
		at := place{keys: []string{m.key}, field: m.key}
		if e := s.value(dec, at, r.kindOf(at.keys, plain)); e != nil {
			return nil, e
		}
	}
	return s.named, nil
}

// scanner walks one call's arguments as a stream of tokens, once.
type scanner struct {
	rules rules
	named []Name
}

// place is where a value sits in the arguments.
type place struct {
	keys  []string // the keys from the top, arrays left out
	field string   // as errors and Name show it
	depth int
}

func (p place) key(k string) place {
	return place{keys: append(slices.Clip(p.keys), k), field: p.field + "." + k, depth: p.depth + 1}
}

func (p place) index(i int) place {
	return place{keys: p.keys, field: fmt.Sprintf("%s[%d]", p.field, i), depth: p.depth + 1}
}

// value reads the next value, which names what k says.
func (s *scanner) value(dec *json.Decoder, at place, k kind) *contract.Error {
	if at.depth > maxDepth {
		return invalid(shown(at.field), fmt.Sprintf("nests deeper than %d levels", maxDepth))
	}
	tok, err := dec.Token()
	if err != nil {
		return notJSON(shown(at.field))
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return s.object(dec, at, k)
		}
		return s.array(dec, at, k)
	case string:
		return s.leaf(at, k, v)
	case nil:
		return nil // names nothing, as an absent argument
	}
	if k == ownerKind || k == repoKind {
		// A number or a boolean where a name is read: no reading of it
		// can be checked.
		return invalid(shown(at.field), "must be a string naming "+k.what())
	}
	return nil
}

// object reads an object's members, each key once under case folding:
// two spellings of one key could be read either way.
func (s *scanner) object(dec *json.Decoder, at place, k kind) *contract.Error {
	keys := keySet{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return notJSON(shown(at.field))
		}
		in := at.key(key)
		if e := keys.add(key, in.field); e != nil {
			return e
		}
		if e := s.value(dec, in, s.rules.kindOf(in.keys, k)); e != nil {
			return e
		}
	}
	return s.end(dec, at)
}

func (s *scanner) array(dec *json.Decoder, at place, k kind) *contract.Error {
	for i := 0; dec.More(); i++ {
		if e := s.value(dec, at.index(i), k); e != nil {
			return e
		}
	}
	return s.end(dec, at)
}

// end reads the closing delimiter.
func (s *scanner) end(dec *json.Decoder, at place) *contract.Error {
	if _, err := dec.Token(); err != nil {
		return notJSON(shown(at.field))
	}
	return nil
}

// leaf reads a string as what k says it names. An empty one names
// nothing, as an absent argument.
func (s *scanner) leaf(at place, k kind, v string) *contract.Error {
	if v == "" {
		return nil
	}
	switch k {
	case ownerKind:
		if github.CheckOwner(v) != nil {
			return invalid(shown(at.field), github.OwnerRule+": it names the owner the call acts on")
		}
		s.add(at.field, v, "")
	case repoKind:
		owner, repo, full := strings.Cut(v, "/")
		check := owner
		if !full {
			owner, repo, check = "", v, "x" // any owner of the right shape
		}
		if github.CheckRepo(check, repo) != nil {
			return invalid(shown(at.field), "must be a repository name or OWNER/REPO as GitHub spells names (letters, digits, '.', '-', '_'): it names the repository the call acts on")
		}
		s.add(at.field, owner, repo)
	case plain:
		return s.text(at, v)
	case pathKind:
		if graphQLDocument(v) {
			return invalid(shown(at.field), errGraphQL.Error())
		}
		f, err := s.rules.hosts.readPathText(v)
		return s.found(at, f, err)
	case refKind:
		return s.ref(at, v)
	case queryKind:
		if graphQLDocument(v) {
			return invalid(shown(at.field), errGraphQL.Error())
		}
		if t := trimmed(v); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			// JSON: arguments written as text, read as under any key.
			return s.text(at, v)
		}
		return s.query(at, v)
	}
	return nil
}

// ref reads a branch, ref or SHA: a whole URL is read as any value is
// (a ref has no "://"); OWNER:BRANCH names the fork's owner, on either
// side of a compare range (main...OWNER:BRANCH).
func (s *scanner) ref(at place, v string) *contract.Error {
	if _, _, _, isURL := urlParts(v); isURL {
		return s.leaf(at, plain, v)
	}
	for _, side := range strings.Split(strings.ReplaceAll(v, "...", ".."), "..") {
		if owner, _, fork := strings.Cut(side, ":"); fork {
			if github.CheckOwner(owner) != nil {
				return invalid(shown(at.field), "must be a branch, or OWNER:BRANCH as GitHub spells names: it names the owner of the fork it is read from")
			}
			s.add(at.field, owner, "")
		}
	}
	return nil
}

// text reads a string under a key that says nothing of what it holds: a
// JSON object, array or string written as text (arguments passed on, GraphQL
// variables) is read as the arguments it holds; a GraphQL document is
// refused; anything else is read as [hosts.readText] reads it.
func (s *scanner) text(at place, v string) *contract.Error {
	if t := trimmed(v); strings.ContainsAny(t[:min(1, len(t))], `{["`) && json.Valid([]byte(t)) {
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		return s.value(dec, place{keys: at.keys, field: at.field + "(JSON)", depth: at.depth + 1}, plain)
	}
	if graphQLDocument(v) {
		return invalid(shown(at.field), errGraphQL.Error())
	}
	f, err := s.rules.hosts.readText(v)
	return s.found(at, f, err)
}

// found adds what a reader found at at, or refuses what it could not read.
func (s *scanner) found(at place, f []found, err error) *contract.Error {
	if err != nil {
		return invalid(shown(at.field), err.Error())
	}
	for _, n := range f {
		if e := checkNamed(at, n); e != nil {
			return e
		}
		s.add(at.field, n.owner, n.repo)
	}
	return nil
}

// checkNamed refuses an owner that is not a GitHub name (a qualifier's
// value such as "org:fleet}"): no route is chosen by a name no owner
// has.
func checkNamed(at place, n found) *contract.Error {
	if n.owner == "" || n.owner == searchquery.ViewerLogin || github.CheckOwner(n.owner) == nil {
		return nil
	}
	return invalid(shown(at.field), "names "+shown(n.owner)+" as an owner, which is not a GitHub user or organization name: write the search qualifier's value as GitHub spells names")
}

// query reads the scope qualifiers of a search text (see [scopeRefs]), and
// of the search it assigns when it is a query string (q=…&type=…, see
// [searchParams]). A qualifier whose scope cannot be checked
// (enterprise:) is refused.
func (s *scanner) query(at place, v string) *contract.Error {
	for _, text := range append([]string{v}, searchParams(trimmed(v))...) {
		if q, found := uncheckableScope(text); found {
			return invalid(shown(at.field), errUncheckable(q).Error())
		}
		for _, r := range scopeRefs(text) {
			f := refFound(r)
			if e := checkNamed(at, f); e != nil {
				return e
			}
			s.add(at.field, f.owner, f.repo)
		}
	}
	return nil
}

func (s *scanner) add(field, owner, repo string) {
	s.named = append(s.named, Name{Field: field, Owner: owner, Repo: repo})
}
