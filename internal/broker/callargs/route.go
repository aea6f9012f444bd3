package callargs

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/searchquery"
)

// RouteOwner is the owner whose credential serves the call: the one owner
// its arguments name ([Args.NamedOwner]), else fallback.
func (a Args) RouteOwner(fallback string) (string, *contract.Error) {
	owner, e := a.NamedOwner()
	if e != nil || owner != "" {
		return owner, e
	}
	return fallback, nil
}

// NamedOwner is the one owner the arguments name, "" when they name none.
// With an "owner" argument it is that owner, and everything else named
// must stay inside it: a query's scope inside the owner (and repository),
// and every other owner named (a link's other issue, any argument
// [ReadUpstream] found) the same owner. Without one, the owners named must
// be one; @me, the credential's own account whichever route's it is,
// counts as an owner beside another and names none alone. A call naming
// two owners is refused: it would act on both with one owner's
// credential.
func (a Args) NamedOwner() (string, *contract.Error) {
	if a.Target.Owner != "" {
		if e := a.queryWithin(); e != nil {
			return "", e
		}
		if e := a.OtherOwner(); e != nil {
			return "", e
		}
		own := Name{Field: "owner", Owner: a.Target.Owner}
		for _, n := range a.names() {
			if n.Owner != "" && !searchquery.SameOwner(n.Owner, own.Owner) {
				return "", twoOwners(own, n)
			}
		}
		return a.Target.Owner, nil
	}
	switch owners := a.owners(); {
	case len(owners) > 1:
		return "", twoOwners(owners[0], owners[1])
	case len(owners) == 1 && owners[0].Owner != searchquery.ViewerLogin:
		return owners[0].Owner, nil
	}
	return "", nil
}

// queryWithin refuses a query scope reaching past the named owner (and
// repository): GitHub ORs such scopes together, so they would be searched
// with the named owner's credential.
func (a Args) queryWithin() *contract.Error {
	for _, r := range a.QueryRefs() {
		if r.Within(a.Target.Owner, a.Target.Repo) {
			continue
		}
		where := a.Target.Owner
		if a.Target.Repo != "" {
			where += "/" + a.Target.Repo
		}
		return refused(contract.CodeInvalidField, "query's %s:%s reaches past %s, the owner this call is routed and authorized by; nothing was sent",
			r.Name, shown(r.Value), where).WithField("query", "must not name repositories outside "+where).
			WithRepair(contract.Repair{NextStep: "call again without the " + r.Name + ": qualifier, or with owner set to the owner it names"})
	}
	return nil
}

// OtherOwner refuses a call whose other repositories (Target.Also) belong
// to another owner than the one it names: the call is routed, and
// authorized, by that owner's credential, which must not act elsewhere.
func (a Args) OtherOwner() *contract.Error {
	for _, r := range a.Target.Also {
		if !strings.EqualFold(r.Owner, a.Target.Owner) {
			return refused(contract.CodeInvalidField, "the call names %s/%s, of another owner than %s, whose credential this call is routed and authorized by; nothing was sent",
				shown(r.Owner), shown(r.Repo), shown(a.Target.Owner)).WithField("target_owner", "must be the call's owner, "+shown(a.Target.Owner)).
				WithRepair(contract.Repair{NextStep: "name issues of one owner per call: call again with target_owner (or duplicate_of_repo's owner) equal to owner"})
		}
	}
	return nil
}

// twoOwners is the refusal of a call naming first's owner and other's.
func twoOwners(first, other Name) *contract.Error {
	return refused(contract.CodeInvalidField, "`%s` names owner %s and `%s` names owner %s; a call is routed and authorized by one owner's credential, so it may name one owner only; nothing was sent",
		shown(first.Field), shown(first.Owner), shown(other.Field), shown(other.Owner)).
		WithField(shown(other.Field), "must name the same owner as "+shown(first.Field)).
		WithRepair(contract.Repair{NextStep: "make one call per owner: call again with every owner and repository argument naming " +
			shown(first.Owner) + ", then once more for " + shown(other.Owner) + " if it is meant"})
}

// names is everything the arguments name: the owner and repo, the other
// repositories, the query's scope, and what [ReadUpstream] found.
func (a Args) names() []Name {
	var out []Name
	if a.Target.Owner != "" || a.Target.Repo != "" {
		out = append(out, Name{Field: "owner", Owner: a.Target.Owner, Repo: a.Target.Repo})
	}
	for _, r := range a.Target.Also {
		out = append(out, Name{Field: "target_owner", Owner: r.Owner, Repo: r.Repo})
	}
	for _, r := range a.QueryRefs() {
		n := Name{Field: "query", Owner: r.Owner}
		if r.Name == "repo" {
			n.Repo = r.Repo
		}
		out = append(out, n)
	}
	return append(out, a.Named...)
}

// owners is the first name of each distinct owner named, in order.
// Logins compare as GitHub compares them, without case; @me equals only
// itself.
func (a Args) owners() []Name {
	var out []Name
	for _, n := range a.names() {
		if n.Owner == "" {
			continue
		}
		if !slices.ContainsFunc(out, func(o Name) bool { return sameOwner(o.Owner, n.Owner) }) {
			out = append(out, n)
		}
	}
	return out
}

func sameOwner(a, b string) bool { return a == b || searchquery.SameOwner(a, b) }

// Owners lists every owner the arguments name, each once, in the order
// named: what the audit line records.
func (a Args) Owners() []string {
	owners := a.owners()
	out := make([]string, len(owners))
	for i, o := range owners {
		out[i] = o.Owner
	}
	return out
}

// Repos lists every repository the arguments name, each once, in the
// order named, as OWNER/REPO; a repository named without its owner is
// completed with the owner argument, else the one owner the call names,
// and left as a name alone where it names none (or, refused, several).
func (a Args) Repos() []string {
	only := a.Target.Owner
	if owners := a.owners(); only == "" && len(owners) == 1 && owners[0].Owner != searchquery.ViewerLogin {
		only = owners[0].Owner
	}
	var out []string
	for _, n := range a.names() {
		if n.Repo == "" {
			continue
		}
		owner := n.Owner
		if owner == "" {
			owner = only
		}
		full := n.Repo
		if owner != "" {
			full = owner + "/" + n.Repo
		}
		if !slices.ContainsFunc(out, func(s string) bool { return strings.EqualFold(s, full) }) {
			out = append(out, full)
		}
	}
	return out
}
