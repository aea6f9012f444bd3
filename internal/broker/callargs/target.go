package callargs

import (
	"encoding/json"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
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
	// one out, and as a report's "repos" (names of the owner's
	// repositories) lists them. A reader that checked only Owner and Repo
	// would let a call write beyond them.
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

// Repo is one repository a call names.
type Repo struct {
	Owner, Repo string
}

// targetReader gathers a Target member by member.
type targetReader struct {
	t Target
	// upstream is set for an upstream tool's arguments, whose "repos" is
	// the upstream's own (read by ReadUpstream's scan), not a report's.
	upstream bool
	// others are target_owner, target_repo and duplicate_of_repo as sent.
	others map[string]string
	// repos are a report's "repos", names of the owner's repositories.
	repos []string
}

// readTarget reads the keys of ghgate's own vocabulary from ms; upstream
// says they are an upstream tool's arguments.
func readTarget(ms members, upstream bool) (Target, *contract.Error) {
	r := targetReader{others: map[string]string{}, upstream: upstream}
	for _, m := range ms {
		if e := r.member(m); e != nil {
			return Target{}, e
		}
	}
	return r.finish()
}

// member reads one argument if it is one the vocabulary names.
func (r *targetReader) member(m member) *contract.Error {
	switch {
	case m.key == "query":
		if isString(m.value) {
			_ = json.Unmarshal(m.value, &r.t.Query)
		}
	// A board is read under any spelling of its key: a decoder that
	// matches names without case must not carry one past the check.
	case strings.EqualFold(m.key, "project"):
		return r.board("project", m.value)
	case strings.EqualFold(m.key, "changes"):
		return r.board("changes.project", changesProject(m.value))
	case m.key == "repos" && !r.upstream:
		return r.readRepos(m.value)
	case m.key == "owner", m.key == "repo", m.key == "target_owner", m.key == "target_repo", m.key == "duplicate_of_repo":
		return r.name(m.key, m.value)
	}
	return nil
}

// board reads a project argument (at field) as the board it names.
func (r *targetReader) board(field string, value json.RawMessage) *contract.Error {
	b, e := readBoard(field, value)
	if e != nil {
		return e
	}
	if b != nil {
		r.t.Board = b
	}
	return nil
}

// changesProject is the project inside a bulk edit's changes, or nil; the
// tool checks the rest of changes.
func changesProject(value json.RawMessage) json.RawMessage {
	var ch struct {
		Project json.RawMessage `json:"project"`
	}
	if len(value) == 0 || value[0] != '{' || json.Unmarshal(value, &ch) != nil {
		return nil
	}
	return ch.Project
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

// readRepos reads a report's repositories of the owner, each read as if
// named by repo: a reader that checked only repo would let the call read
// every other one listed.
func (r *targetReader) readRepos(value json.RawMessage) *contract.Error {
	var names []string
	if len(value) == 0 || value[0] != '[' || json.Unmarshal(value, &names) != nil {
		return invalid("repos", "must be an array of repository names")
	}
	r.repos = names
	return nil
}

// name reads one of the keys that must hold a name string.
func (r *targetReader) name(key string, value json.RawMessage) *contract.Error {
	// null decodes into a string without error; only a JSON string is one.
	var s string
	if !isString(value) || json.Unmarshal(value, &s) != nil {
		return invalid(key, "must be a string")
	}
	switch key {
	case "owner":
		r.t.Owner = s
	case "repo":
		r.t.Repo = s
	default:
		r.others[key] = s
	}
	return nil
}

// finish completes the other repositories and checks every name.
func (r *targetReader) finish() (Target, *contract.Error) {
	t := r.t
	also, e := alsoTargets(t, r.others)
	if e != nil {
		return Target{}, e
	}
	for _, name := range r.repos {
		if t.Owner == "" || github.CheckRepo(t.Owner, name) != nil {
			return Target{}, invalid("repos", "must name repositories of owner as GitHub spells names (letters, digits, '.', '-', '_')")
		}
		also = append(also, Repo{t.Owner, name})
	}
	t.Also = also
	if e := checkTarget(t); e != nil {
		return Target{}, e
	}
	return t, nil
}

func isString(value json.RawMessage) bool { return len(value) > 0 && value[0] == '"' }

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

// checkTarget applies the name check ghgate's own tools apply: a name of
// another shape would change the path of the request it is put in.
func checkTarget(t Target) *contract.Error {
	if t.Owner != "" {
		if err := github.CheckOwner(t.Owner); err != nil {
			return invalid("owner", github.OwnerRule)
		}
	}
	if t.Repo == "" {
		return nil
	}
	// A repository name is only checkable beside its owner; without one,
	// any owner of the right shape will do for the shape check.
	owner := t.Owner
	if owner == "" {
		owner = "x"
	}
	if err := github.CheckRepo(owner, t.Repo); err != nil {
		return invalid("repo", "must be a repository name (letters, digits, '.', '-', '_'), without the owner")
	}
	return nil
}
