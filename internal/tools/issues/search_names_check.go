package issues

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// What an empty first page says about the names it filtered on. In one
// repository, a label, milestone or issue type it lacks is refused as
// label_not_found, milestone_not_found or issue_type_not_found, with its
// closest names in details.value and a repair that searches again with
// the closest (where one is close enough to stand in). Across an owner's
// repositories a name some of them have is legitimate: a note says where
// it exists; one none has is refused as in one repository. A login that
// is no GitHub user is refused in any scope (GitHub's search itself
// refuses it); one that is says so in a note, so "no such user" and "no
// issue of theirs here" read apart. A search everywhere reads no
// repository's names and says so.

// missingName is a filter whose names exist nowhere the search looked.
type missingName struct {
	f       namedFilter
	account string // a person filter's account type ("" for none)
	matches []toolkit.NameMatch
}

// explainEmpty checks the names an empty first page filtered on: an error
// for a name that does not exist, else a note saying what was found.
func (s *Tools) explainEmpty(ctx context.Context, c *github.Client, in SearchIssuesIn, out *SearchIssuesOut) error {
	v, ok, err := s.checkNames(ctx, c, in)
	switch {
	case !ok:
		return nil
	case err != nil:
		out.Notes = append(out.Notes, "no issue matches; whether the names filtered on exist could not be checked")
		return nil
	}
	if e := v.refusal(in); e != nil {
		return e
	}
	if len(v.present) > 0 {
		out.Notes = append(out.Notes, "no issue matches; "+strings.Join(v.present, "; "))
	}
	return nil
}

// refusedNames turns GitHub's 422 for a search (its search refuses a
// login it does not know: "The listed users cannot be searched…", naming
// none) into the error of the filter whose name does not exist; err as it
// is when no name is missing or none could be checked.
func (s *Tools) refusedNames(ctx context.Context, c *github.Client, in SearchIssuesIn, err error) error {
	if toolkit.GitHubCode(err) != github.ValidationFailed {
		return err
	}
	v, ok, cerr := s.checkNames(ctx, c, in)
	if !ok || cerr != nil {
		return err
	}
	if e := v.refusal(in); e != nil {
		return e
	}
	return err
}

// namesVerdict is what was found of a search's names.
type namesVerdict struct {
	owner, repo string
	found       namesFound
	missing     []missingName
	present     []string
}

// checkNames reads and judges the names in filters on; ok is false when
// it names none.
func (s *Tools) checkNames(ctx context.Context, c *github.Client, in SearchIssuesIn) (namesVerdict, bool, error) {
	filters := in.namedFilters()
	if len(filters) == 0 {
		return namesVerdict{}, false, nil
	}
	v := namesVerdict{}
	v.owner, v.repo = in.scopeOfNames()
	read := namesRead{owner: v.owner, repo: v.repo, filters: filters, lists: v.repo != ""}
	found, err := read.run(ctx, c)
	if err != nil {
		return namesVerdict{}, true, err
	}
	v.found = found
	v.missing, v.present = judgeNames(read, found)
	if len(v.missing) > 0 && found.complete && v.repo == "" && v.owner != "" {
		s.rankOwnerWide(ctx, c, v.owner, v.missing)
	}
	return v, true, nil
}

// refusal is the error for the names that do not exist, nil when all do.
// A name no repository read has is certain only when every repository of
// the owner was read; otherwise it becomes a note, and only an unknown
// login is refused.
func (v *namesVerdict) refusal(in SearchIssuesIn) error {
	if len(v.missing) > 0 && v.found.complete {
		return refuseNames(in, v.owner, v.repo, v.found, v.missing)
	}
	for _, m := range v.missing {
		if m.f.kind.person() {
			return refuseNames(in, v.owner, v.repo, v.found, []missingName{m})
		}
		v.present = append(v.present, fmt.Sprintf("%s is in none of the %d most recently pushed of %s's repositories read",
			m.f.describe(), len(v.found.repos), v.owner))
	}
	return nil
}

// judgeNames sorts the filters into those whose names exist nowhere read
// (people first: the surest) and phrases for those that do.
func judgeNames(read namesRead, found namesFound) (missing []missingName, present []string) {
	where := read.owner + "/" + read.repo
	var here []string
	for i, f := range read.filters {
		if f.kind.person() {
			typ := found.accounts[i]
			if typ != "User" {
				missing = append([]missingName{{f: f, account: typ, matches: rankAcross(f, found)}}, missing...)
				continue
			}
			p := f.names[0] + " is a GitHub user"
			switch {
			case f.kind != filterAssignee || read.repo == "" || len(found.repos) == 0:
			case found.repos[0].has(i, f, f.names[0]):
				p += " who can be assigned in " + where
			default:
				p += " who cannot be assigned in " + where
			}
			present = append(present, p)
			continue
		}
		if read.owner == "" {
			present = append(present, f.describe()+" was not checked: a search without owner reads no repository's names")
			continue
		}
		var in []string
		for _, rn := range found.repos {
			for _, n := range f.names {
				if rn.has(i, f, n) {
					in = append(in, rn.full)
					break
				}
			}
		}
		switch {
		case len(in) == 0:
			missing = append(missing, missingName{f: f, matches: rankAcross(f, found)})
		case read.repo != "":
			here = append(here, f.describe())
		default:
			present = append(present, f.describe()+" exists in "+listSome(in, 3)+
				fmt.Sprintf(" (%d of the %d repositories read)", len(in), len(found.repos)))
		}
	}
	if len(here) > 0 {
		verb := " exists in "
		if len(here) > 1 {
			verb = " exist in "
		}
		present = append([]string{strings.Join(here, ", ") + verb + where}, present...)
	}
	return missing, present
}

// rankAcross ranks every repository's names of f's kind against f's.
func rankAcross(f namedFilter, found namesFound) []toolkit.NameMatch {
	var all []string
	for _, rn := range found.repos {
		for _, n := range rn.candidates(f.kind) {
			if !containsFold(all, n) {
				all = append(all, n)
			}
		}
	}
	var out []toolkit.NameMatch
	for _, n := range f.names {
		for _, m := range toolkit.RankNames(n, all) {
			if !containsFold(matchNames(out), m.Name) {
				out = append(out, m)
			}
		}
	}
	return out
}

func matchNames(ms []toolkit.NameMatch) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// rankOwnerWide ranks the close matches of the names no repository of
// owner has, from the owner's lists, read only now: the first read asked
// only whether each repository has each name. A login has none to rank.
func (s *Tools) rankOwnerWide(ctx context.Context, c *github.Client, owner string, missing []missingName) {
	var filters []namedFilter
	for _, m := range missing {
		if !m.f.kind.person() {
			filters = append(filters, m.f)
		}
	}
	if len(filters) == 0 {
		return
	}
	lists, err := namesRead{owner: owner, filters: filters, lists: true}.run(ctx, c)
	if err != nil {
		return // the refusal stands without close matches
	}
	for k := range missing {
		if !missing[k].f.kind.person() {
			missing[k].matches = rankAcross(missing[k].f, lists)
		}
	}
}

// refuseNames is the error for the first missing name; the others are
// named in its message.
func refuseNames(in SearchIssuesIn, owner, repo string, found namesFound, missing []missingName) error {
	m := missing[0]
	where := owner + "/" + repo
	var msg string
	switch {
	case m.f.kind.person() && m.account == "Organization":
		msg = fmt.Sprintf("%s %s is an organization, not a GitHub user", m.f.kind, m.f.names[0])
	case m.f.kind.person():
		msg = fmt.Sprintf("%s %s is not a GitHub user", m.f.kind, m.f.names[0])
	case repo != "":
		msg = fmt.Sprintf("%s does not exist in %s", m.f.describe(), where)
	case found.hidden > 0:
		msg = fmt.Sprintf("none of the %d repositories of %s this client may read has %s", len(found.repos), owner, m.f.describe())
	default:
		msg = fmt.Sprintf("no repository of %s has %s", owner, m.f.describe())
	}
	var others []string
	for _, o := range missing[1:] {
		others = append(others, o.f.describe())
	}
	if len(others) > 0 {
		msg += "; not found either: " + strings.Join(others, ", ")
	}
	code := map[filterKind]contract.Code{filterLabel: contract.CodeLabelNotFound, filterMilestone: contract.CodeMilestoneNotFound,
		filterType: contract.CodeIssueTypeNotFound, filterAssignee: contract.CodeAssigneeNotFound, filterAuthor: contract.CodeNotFound}[m.f.kind]
	reason := "names no GitHub user"
	switch {
	case m.f.kind.person():
	case repo != "":
		reason = "not found in " + where
	default:
		reason = "not found in any repository of " + owner
	}
	e := contract.Errorf(code, "%s", msg).WithField(m.f.field, reason)
	names := matchNames(m.matches)
	if len(names) > 5 {
		names = names[:5]
	}
	if len(names) > 0 {
		e.Details.Value = names
	}
	return e.WithRepair(namesRepair(in, owner, repo, m))
}

// namesRepair searches again with the closest name where one is close
// enough to stand in, else lists the repository's names of the kind.
func namesRepair(in SearchIssuesIn, owner, repo string, m missingName) contract.Repair {
	kind := map[filterKind]string{filterLabel: "labels", filterMilestone: "milestones", filterType: "issue_types",
		filterAssignee: "assignees", filterAuthor: "assignees"}[m.f.kind]
	listing := "list the repository's " + strings.ReplaceAll(kind, "_", " ") + " (github_list_repo_metadata) and search again with one of them"
	if len(m.matches) > 0 && m.matches[0].Score < toolkit.WeakMatch {
		if args, ok := m.f.with(in, m.matches[0].Name); ok {
			r := contract.Repair{NextStep: fmt.Sprintf("search again with %q, the closest existing %s; details.value lists others", m.matches[0].Name, m.f.kind),
				Tool: toolkit.NameSearchIssues, Arguments: args}
			if repo != "" {
				r.Alternative = listing
			}
			return r
		}
	}
	if repo == "" {
		if m.f.kind.person() {
			return contract.Repair{NextStep: "call again with " + m.f.field + " set to a GitHub login", Tool: toolkit.NameSearchIssues}
		}
		return contract.Repair{NextStep: "search one repository of " + owner + " with it to be offered that repository's closest names, " +
			"or list a repository's " + strings.ReplaceAll(kind, "_", " ") + " with github_list_repo_metadata", Tool: toolkit.NameSearchIssues}
	}
	step := listing
	if len(m.matches) > 0 {
		step = "call again with one of details.value, or " + listing
	}
	return contract.Repair{NextStep: step, Tool: toolkit.NameListRepoMetadata,
		Arguments: ListRepoMetadataIn{Owner: owner, Repo: repo, Kind: MetadataKind(kind)}}
}

// describe names the filter for a message: label "a" (or "a" or "b"),
// milestone "v1", issue type "Bug", assignee alice.
func (f namedFilter) describe() string {
	if f.kind.person() {
		return string(f.kind) + " " + f.names[0]
	}
	quoted := make([]string, len(f.names))
	for i, n := range f.names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	kind := string(f.kind)
	if f.kind == filterType {
		kind = "issue type"
	}
	return kind + " " + strings.Join(quoted, " or ")
}

// listSome names up to n of items, then how many more.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
