package issues

import (
	"context"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// github_search_issues answers from one of two places. A listing by plain
// filters in one repository goes to the issues list endpoint (GET
// /repos/{owner}/{repo}/issues): it draws on the core budget (5,000 an
// hour, and a repeated read answered 304 costs nothing), it reads the
// issues themselves, so a write just made shows at once, and it pages
// without search's 1,000-result cap. Free text, and qualifiers only search
// understands, go to the search API: 30 requests a minute, an index that
// trails writes by seconds, 1,000 results at most. Neither the list
// endpoint nor GraphQL's repository.issues(filterBy:) can ask for issues
// without labels, so no_labels stays on search.

// Source names the path that answered a listing.
type Source string

// The two paths.
const (
	SourceList   Source = "list"
	SourceSearch Source = "search"
)

// JSONSchema implements tooldef.SelfDescribing. The enum alone says the
// values are strings; the type beside it would cost the default tools/list
// bytes it has not got.
func (Source) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Enum: []any{string(SourceList), string(SourceSearch)}}, nil
}

// searchLagNote goes with every answer from search: the rows can be older
// than a write made seconds ago, which an agent checking its own work
// needs to know.
const searchLagNote = "answered by GitHub's search index, which can trail writes made in the last few seconds; " +
	"plain filters on one repo (no query text) list issues directly and see every write"

// listPlan is a search as the issues list endpoint takes it.
type listPlan struct {
	opts github.ListIssuesOptions
	// issuesOnly drops pull requests, which the endpoint returns too.
	issuesOnly bool
}

// listPlan returns the list-endpoint form of in, or false when in needs
// the search API: no single repository, query text or a qualifier the
// endpoint has no filter for, no_labels, @me or an app author, or two
// values for a filter the endpoint takes once.
func (in SearchIssuesIn) listPlan() (listPlan, bool) {
	if in.Owner == "" || in.Repo == "" || in.NoLabels {
		return listPlan{}, false
	}
	p := listPlan{issuesOnly: !in.IncludePRs}
	o := &p.opts
	o.Labels = slices.Clone(in.Labels)
	o.Assignee, o.Creator = in.Assignee, in.Author
	queryState := ""
	// set fills a filter the endpoint takes once; a second value (the
	// query's beside an argument) has search's AND meaning, which the
	// endpoint cannot express.
	set := func(field *string, v string) bool {
		if *field != "" && *field != v {
			return false
		}
		*field = v
		return true
	}
	for _, tok := range strings.Fields(in.Query) {
		if strings.ContainsAny(tok, `"()`) || strings.HasPrefix(tok, "-") {
			return listPlan{}, false
		}
		key, val, ok := strings.Cut(tok, ":")
		if !ok || val == "" {
			return listPlan{}, false // a word: free text
		}
		key, lval := strings.ToLower(key), strings.ToLower(val)
		switch {
		case key == "is" && lval == "issue", key == "type" && lval == "issue":
			p.issuesOnly = true
		case key == "is" || key == "state":
			if (lval != "open" && lval != "closed") || !set(&queryState, lval) {
				return listPlan{}, false
			}
		case key == "type":
			if lval == "pr" || lval == "pull-request" || !set(&o.Type, val) {
				return listPlan{}, false
			}
		case key == "label":
			if strings.Contains(val, ",") {
				return listPlan{}, false // alternatives: search's OR
			}
			if !slices.Contains(o.Labels, val) {
				o.Labels = append(o.Labels, val)
			}
		case key == "assignee" || key == "author" || key == "mentions":
			field := map[string]*string{"assignee": &o.Assignee, "author": &o.Creator, "mentions": &o.Mentioned}[key]
			if github.CheckOwner(val) != nil || !set(field, val) {
				return listPlan{}, false
			}
		case key == "no" && lval == "milestone":
			o.Milestone = "none"
		case key == "no" && lval == "assignee":
			if !set(&o.Assignee, "none") {
				return listPlan{}, false
			}
		default:
			return listPlan{}, false
		}
	}
	// The credential's own account and apps are search words: the
	// endpoint's assignee and creator take a login.
	if o.Assignee == "@me" || o.Creator == "@me" || strings.HasPrefix(o.Creator, "app/") {
		return listPlan{}, false
	}
	switch {
	case in.State == "" && queryState == "":
		o.State = "open"
	case in.State == "":
		o.State = queryState
	case queryState == "" || queryState == string(in.State):
		o.State = string(in.State)
	default:
		return listPlan{}, false
	}
	if in.UpdatedAfter != "" {
		t, err := parseDateArg(in.UpdatedAfter)
		if err != nil {
			return listPlan{}, false
		}
		o.Since = t
	}
	// Best match has no meaning without text: newest first, as the
	// emulator and GitHub rank a query of qualifiers alone.
	o.Sort, o.Direction = "created", "desc"
	if in.Sort != "" && in.Sort != "best_match" {
		o.Sort = string(in.Sort)
		if in.Order != "" {
			o.Direction = string(in.Order)
		}
	}
	o.PerPage = int(in.PageSize)
	return p, true
}

// The list path reads upstream pages sized from the page asked for, from
// a few fixed sizes (listBuckets), so nearby page sizes read the same URLs
// (which a 304 then answers for free). A cursor's position is the index
// (from 1) of the upstream row the next page starts at, whatever the
// upstream page size: a cursor stays valid when the size changes, and
// cursors minted when every read was 100 rows still read on.
const (
	// listPerPage is the largest upstream page, read once a first read
	// came back short: pull requests the endpoint mixes in crowd it, so
	// the rest of the page is fetched in as few round trips as can be.
	listPerPage = 100
	// listMaxReads bounds the upstream pages one call reads when pull
	// requests crowd out issues; the page is then returned short, with
	// has_more.
	listMaxReads = 4
	// listHeadroom is listNeed's margin for pull requests, in percent.
	listHeadroom = 50
)

// listBuckets are the upstream page sizes a first read picks from.
var listBuckets = [...]int{10, 20, 30, 50, listPerPage}

// listBucket is the upstream page size for a first read of size rows at
// position pos that must hold need rows from pos on: the smallest bucket
// that is a multiple of size and holds them, so consecutive pages of one
// size read one upstream page each, none shared with the next page;
// failing that (a size no bucket is a multiple of, a page that starts off
// the grid, past pull requests skipped), the smallest that holds them;
// failing that, the largest.
func listBucket(pos, size, need int) int {
	fits := func(b int) bool { return b-(pos-1)%b >= need }
	for _, b := range listBuckets {
		if b%size == 0 && fits(b) {
			return b
		}
	}
	for _, b := range listBuckets {
		if fits(b) {
			return b
		}
	}
	return listPerPage
}

// listNeed is how many upstream rows a first read should hold for a page
// of size rows. When pull requests are dropped it holds headroom
// (listHeadroom per 100) for those the endpoint mixes in: a read one pull
// request short costs a second round trip, which is dearer than decoding
// the extra rows.
func listNeed(size int, issuesOnly bool) int {
	if !issuesOnly {
		return size
	}
	return min(size+size*listHeadroom/100, listPerPage)
}

// listPage reads one page of in through the list endpoint.
func (s *Tools) listPage(ctx context.Context, c *github.Client, v views, in SearchIssuesIn, p listPlan, pg *toolkit.Pager, detail Detail) (SearchIssuesOut, error) {
	size := int(in.PageSize)
	opts := p.opts
	pos, per := pg.Page, listBucket(pg.Page, size, listNeed(size, p.issuesOnly))
	var rows []*github.IssueRow
	next, total := 0, -1
	for reads := 1; ; reads++ {
		upPage, skip := (pos-1)/per+1, (pos-1)%per
		opts.Page, opts.PerPage = toolkit.PageParam(upPage), per
		list, meta, err := c.ListIssueRows(ctx, in.Owner, in.Repo, opts)
		if err != nil {
			return SearchIssuesOut{}, err
		}
		if upPage == 1 && meta.NextPage == 0 {
			// The endpoint counts nothing; one upstream page that holds
			// every match is the count.
			total = 0
			for _, is := range list {
				if !p.issuesOnly || !is.IsPullRequest() {
					total++
				}
			}
		}
		for i := skip; i < len(list) && next == 0; i++ {
			if p.issuesOnly && list[i].IsPullRequest() {
				continue
			}
			if len(rows) == size {
				next = (upPage-1)*per + i + 1
				break
			}
			rows = append(rows, list[i])
		}
		if next != 0 || meta.NextPage == 0 {
			break
		}
		pos = upPage*per + 1
		if len(rows) == size || reads == listMaxReads {
			next = pos
			break
		}
		per = listPerPage
	}
	out := SearchIssuesOut{Source: SourceList, RateLimitRemaining: toolkit.LowBudget(c, "core")}
	g := newGrant(ctx, in.routedOwner(), in.Repo)
	creator, err := s.fillRows(c, v, g, &out, rows, detail, false)
	if err != nil {
		return SearchIssuesOut{}, err
	}
	if total >= 0 {
		out.TotalCount = total
	}
	pg.Fill(&out.Page, next)
	s.noteWithheld(&out, creator, g)
	return out, nil
}
