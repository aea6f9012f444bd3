package reports

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
)

// classify sorts the report's repositories into the operator's tiers
// (tiers.Rules, [reports.classify]) by what their default branch holds
// and which branches differ from it. Each repository costs one GraphQL
// query, whatever the number of files and branches the rules name,
// spent from max_api_calls like the alert lists, after them.

// RepoTier is one repository's tier and the signals it was decided on.
type RepoTier struct {
	Repo string `json:"repo"`
	// Tier is the first configured tier whose conditions hold.
	Tier string `json:"tier,omitempty" jsonschema:"first configured tier that holds; absent: none holds"`
	// Files says, for each path the tiers name, whether the default
	// branch holds a file there.
	Files map[string]bool `json:"files,omitempty"`
	// Branches says, for each branch the tiers name, whether it exists
	// and how it stands against the default branch.
	Branches map[string]BranchSignal `json:"branches,omitempty"`
	// Failed is the error code GitHub's answer mapped to, for a
	// repository not classified (repo_not_found, ...): no tier, no signals.
	Failed string `json:"failed,omitempty" jsonschema:"error code; not classified"`
}

// BranchSignal is a branch compared with the default branch: ahead_by
// commits it has that the default branch lacks, behind_by the reverse.
// A branch that does not exist does not differ.
type BranchSignal struct {
	Exists   bool `json:"exists"`
	Differs  bool `json:"differs"`
	AheadBy  int  `json:"ahead_by,omitempty"`
	BehindBy int  `json:"behind_by,omitempty"`
}

// tierQuery is the one query that reads every signal of a repository:
// f<i> the object at each file's path on the default branch (HEAD), r<i>
// each branch's ref (b<i>, qualified, so a tag of that name is not taken
// for it), and c<i> the default branch compared with it (h<i>, the
// branch's short name, as GitHub's compare takes a head ref).
func tierQuery(files, branches []string) string {
	var b strings.Builder
	b.WriteString("query($owner: String!, $name: String!")
	for i := range files {
		fmt.Fprintf(&b, ", $f%d: String!", i)
	}
	for i := range branches {
		fmt.Fprintf(&b, ", $b%d: String!, $h%d: String!", i, i)
	}
	b.WriteString(") { repository(owner: $owner, name: $name) { defaultBranchRef { name")
	for i := range branches {
		fmt.Fprintf(&b, " c%d: compare(headRef: $h%d) { aheadBy behindBy }", i, i)
	}
	b.WriteString(" }")
	for i := range files {
		fmt.Fprintf(&b, " f%d: object(expression: $f%d) { __typename }", i, i)
	}
	for i := range branches {
		fmt.Fprintf(&b, " r%d: ref(qualifiedName: $b%d) { name }", i, i)
	}
	b.WriteString(" } }")
	return b.String()
}

// tierVars are tierQuery's variables for one repository.
func tierVars(owner, repo string, files, branches []string) map[string]any {
	v := map[string]any{"owner": owner, "name": repo}
	for i, f := range files {
		v[fmt.Sprintf("f%d", i)] = "HEAD:" + f
	}
	for i, br := range branches {
		v[fmt.Sprintf("b%d", i)] = "refs/heads/" + br
		v[fmt.Sprintf("h%d", i)] = br
	}
	return v
}

// signals reads tierQuery's answer into a row (tier not yet decided).
func signals(repo string, raw map[string]json.RawMessage, files, branches []string) RepoTier {
	row := RepoTier{Repo: repo}
	if len(files) > 0 {
		row.Files = map[string]bool{}
	}
	for i, f := range files {
		var o *struct {
			Typename string `json:"__typename"`
		}
		_ = json.Unmarshal(raw[fmt.Sprintf("f%d", i)], &o)
		row.Files[f] = o != nil && o.Typename == "Blob" // a directory is not the file
	}
	var def map[string]json.RawMessage
	_ = json.Unmarshal(raw["defaultBranchRef"], &def)
	if len(branches) > 0 {
		row.Branches = map[string]BranchSignal{}
	}
	for i, br := range branches {
		var ref *struct{ Name string }
		var cmp *struct{ AheadBy, BehindBy int }
		_ = json.Unmarshal(raw[fmt.Sprintf("r%d", i)], &ref)
		_ = json.Unmarshal(def[fmt.Sprintf("c%d", i)], &cmp)
		sig := BranchSignal{Exists: ref != nil}
		if sig.Exists && cmp != nil {
			sig.AheadBy, sig.BehindBy = cmp.AheadBy, cmp.BehindBy
			sig.Differs = cmp.AheadBy > 0 || cmp.BehindBy > 0
		}
		row.Branches[br] = sig
	}
	return row
}

// tierTargets are the repositories classify covers: those named, or the
// owner's the report covers (readable, archived ones with
// include_archived), in name order.
func (s *alertsScan) tierTargets() []string {
	if len(s.in.Repos) > 0 {
		return s.in.Repos
	}
	var out []string
	for _, r := range s.listing {
		if (!r.GetArchived() || s.in.IncludeArchived) && readable(s.run.Context(), s.in.Owner, r.GetName()) {
			out = append(out, r.GetName())
		}
	}
	return out
}

// classify classifies the repositories no earlier call did, up to
// max_repos, each with one query, while the run goes on.
func (s *alertsScan) classify(rules tiers.Rules) error {
	s.tierOrder = s.tierTargets()
	var work []string
	for _, name := range s.tierOrder {
		if s.pos.tiers().done(name) {
			continue
		}
		if len(work) == int(s.in.MaxRepos) {
			s.tierMore = true
			break
		}
		work = append(work, name)
	}
	s.base += s.units
	files, branches := rules.Files(), rules.Branches()
	query := tierQuery(files, branches)
	rows := make([]*RepoTier, len(work))
	err := s.run.Each(len(work), func(ctx context.Context, i int) {
		var out struct {
			Repository map[string]json.RawMessage `json:"repository"`
		}
		err := s.run.CallOn(ctx, "graphql", func(ctx context.Context) (github.Meta, error) {
			return github.Meta{}, s.c.Query(ctx, query, tierVars(s.in.Owner, work[i], files, branches), &out)
		})
		switch {
		case isStopped(s.run, err):
			return // left for next_call
		case err == nil && out.Repository == nil, isNotFound(err):
			// GitHub answers NOT_FOUND for the repository, the one object
			// the query looks up; the rest resolve to null.
			rows[i] = &RepoTier{Repo: work[i], Failed: string(contract.CodeRepoNotFound)}
		case err != nil:
			rows[i] = &RepoTier{Repo: work[i], Failed: skipCode(err)}
		default:
			caller.ReachFrom(ctx).Read(s.in.Owner, work[i])
			row := signals(work[i], out.Repository, files, branches)
			row.Tier = rules.Classify(func(f string) bool { return row.Files[f] }, func(b string) bool { return row.Branches[b].Differs })
			rows[i] = &row
		}
	})
	for _, r := range rows {
		if r != nil {
			s.tiered = append(s.tiered, *r)
		}
	}
	return err
}

// tiers is the done set of classified repositories.
func (p *alertsPos) tiers() *resume {
	if p.Tiers != nil {
		return p.Tiers
	}
	return &resume{}
}

// advanceTiers records the repositories this call classified.
func (s *alertsScan) advanceTiers() {
	if !s.in.Classify {
		return
	}
	finished := map[string]bool{}
	for _, r := range s.tiered {
		finished[r.Repo] = true
	}
	r := s.pos.tiers()
	r.advance(s.tierOrder, finished, nil, true) // named, or every page of the listing
	s.pos.Tiers = r
}
