package projects

import (
	"sort"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/google/jsonschema-go/jsonschema"
)

// Detail is how much a row says: summary (the default) or full.
type Detail string

// JSONSchema implements tooldef.SelfDescribing.
func (Detail) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Type: "string", Enum: []any{"summary", "full"}}, nil
}

// ItemView is a board item as the tools show it. Kind tells issues, pull
// requests, draft issues (which belong to no repository) and items whose
// content the credential cannot see apart; repo names each issue's and
// pull request's own repository.
type ItemView struct {
	ItemID   string `json:"item_id" jsonschema:"opaque; names the item in later calls"`
	Kind     string `json:"kind" jsonschema:"issue, pull_request, draft_issue or redacted"`
	Repo     string `json:"repo,omitempty" jsonschema:"owner/name"`
	Number   int    `json:"number,omitempty"`
	Title    string `json:"title,omitempty"`
	State    string `json:"state,omitempty" jsonschema:"open, closed or merged"`
	Archived bool   `json:"archived,omitempty"`
	URL      string `json:"url,omitempty" jsonschema:"full detail"`
	Fields   Fields `json:"fields,omitempty" jsonschema:"field name: value; fields without a value are absent"`
	Version  string `json:"version,omitempty" jsonschema:"of the item's field values; pass as expected_version"`
}

var kinds = map[string]string{"ISSUE": "issue", "PULL_REQUEST": "pull_request", "DRAFT_ISSUE": "draft_issue", "REDACTED": "redacted"}

func itemView(it *github.ProjectItem, full bool) ItemView {
	v := ItemView{ItemID: it.ID, Kind: kinds[it.Type], Repo: it.Repo, Number: it.Number, Archived: it.Archived,
		State: strings.ToLower(it.State), Version: itemVersion(it)}
	if v.Kind == "" {
		v.Kind = strings.ToLower(it.Type)
	}
	v.Title, _ = contract.SanitizeText(it.Title)
	if full {
		v.URL = it.URL
	}
	if len(it.Values) > 0 {
		v.Fields = Fields{}
		for _, fv := range it.Values {
			v.Fields[fv.Field] = valueOf(fv)
		}
	}
	return v
}

// itemVersion is the version of what set_fields, clear_field, archive
// and unarchive change: the field values and the archived flag.
func itemVersion(it *github.ProjectItem) string {
	type kv struct{ F, T, V string }
	vals := make([]kv, 0, len(it.Values))
	for _, v := range it.Values {
		b, _ := valueOf(v).MarshalJSON()
		vals = append(vals, kv{v.Field, v.DataType, string(b)})
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].F < vals[j].F })
	return contract.Version(struct {
		ID       string
		Archived bool
		Values   []kv
	}{it.ID, it.Archived, vals})
}

// FieldView is a board's field: its type and, for single-select and
// iteration fields, the values it takes.
type FieldView struct {
	Name       string          `json:"name"`
	Type       string          `json:"type" jsonschema:"single_select, iteration, date, number, text, or a built-in (title, assignees, labels, ...)"`
	Options    []string        `json:"options,omitempty" jsonschema:"single_select: the option names it takes"`
	Iterations []IterationView `json:"iterations,omitempty" jsonschema:"iteration: current and coming first; full detail adds completed ones"`
}

// IterationView is an iteration of a field.
type IterationView struct {
	Title     string `json:"title"`
	StartDate string `json:"start_date"`
	Days      int    `json:"days"`
	Current   bool   `json:"current,omitempty"`
	Completed bool   `json:"completed,omitempty"`
}

// ProjectView is a board as list_projects shows it.
type ProjectView struct {
	Number      int         `json:"number"`
	Title       string      `json:"title"`
	Closed      bool        `json:"closed,omitempty"`
	Description string      `json:"description,omitempty" jsonschema:"full detail"`
	URL         string      `json:"url,omitempty" jsonschema:"full detail"`
	Fields      []FieldView `json:"fields"`
}

// projectView shows p: summary lists the writable fields with what they
// take; full adds the built-in fields, completed iterations, the
// description and the URL.
func projectView(p *github.ProjectV2, full bool, today string) ProjectView {
	v := ProjectView{Number: p.Number, Closed: p.Closed}
	v.Title, _ = contract.SanitizeText(p.Title)
	if full {
		v.Description, _ = contract.SanitizeText(p.Description)
		v.URL = p.URL
	}
	v.Fields = []FieldView{}
	for _, f := range p.Fields {
		if _, ok := writable[f.DataType]; !ok && !full {
			continue
		}
		fv := FieldView{Name: f.Name, Type: typeName(f.DataType)}
		for _, o := range f.Options {
			fv.Options = append(fv.Options, o.Name)
		}
		for _, it := range f.Iterations {
			fv.Iterations = append(fv.Iterations, iterationView(it, today, false))
		}
		if full {
			for _, it := range f.Completed {
				fv.Iterations = append(fv.Iterations, iterationView(it, today, true))
			}
		}
		v.Fields = append(v.Fields, fv)
	}
	return v
}

func iterationView(it github.ProjectIteration, today string, completed bool) IterationView {
	v := IterationView{Title: it.Title, StartDate: it.StartDate, Days: it.Duration, Completed: completed}
	f := github.ProjectField{DataType: "ITERATION", Iterations: []github.ProjectIteration{it}}
	if !completed {
		if cur := findIterationOn(&f, "@current", today); cur != nil {
			v.Current = true
		}
	}
	return v
}
