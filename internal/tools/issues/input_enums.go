package issues

import (
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// The issue tools' closed sets of values, each a type that lists its own
// values in its schema (see toolkit's inputs.go).

// JSONSchema implements tooldef.SelfDescribing.
func (Detail) JSONSchema() (*jsonschema.Schema, error) { return toolkit.Enum(Summary, Full), nil }

// JSONSchema implements tooldef.SelfDescribing: the enum alone, as
// Source's, to spare the default tools/list the type beside it.
func (ReadSource) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Enum: []any{string(Remote), string(Mirror)}}, nil
}

// SearchState filters a search by state.
type SearchState string

// JSONSchema implements tooldef.SelfDescribing.
func (SearchState) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("open", "closed", "all"), nil
}

// SearchSort orders search results.
type SearchSort string

// JSONSchema implements tooldef.SelfDescribing.
func (SearchSort) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("best_match", "created", "updated", "comments"), nil
}

// SortOrder is the direction of a sort.
type SortOrder string

// JSONSchema implements tooldef.SelfDescribing.
func (SortOrder) JSONSchema() (*jsonschema.Schema, error) { return toolkit.Enum("desc", "asc"), nil }

// SearchLabels are the labels every result must carry; GitHub's search
// takes at most 10 label qualifiers in one query.
type SearchLabels []string

// JSONSchema implements tooldef.SelfDescribing.
func (SearchLabels) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, MaxItems: ptr(10)}, nil
}

// IssueState is the state an update sets.
type IssueState string

// JSONSchema implements tooldef.SelfDescribing.
func (IssueState) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("open", "closed"), nil
}

// StateReason says why an issue was closed or reopened.
type StateReason string

// JSONSchema implements tooldef.SelfDescribing.
func (StateReason) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("completed", "not_planned", "duplicate", "reopened"), nil
}

// LockReason says why a conversation is locked.
type LockReason string

// JSONSchema implements tooldef.SelfDescribing.
func (LockReason) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("off-topic", "too heated", "resolved", "spam"), nil
}

// Relation is the kind of link between two issues.
type Relation string

// JSONSchema implements tooldef.SelfDescribing.
func (Relation) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("sub_issue", "blocked_by", "related"), nil
}

// LinkAction is what github_link_issues does to a link.
type LinkAction string

// JSONSchema implements tooldef.SelfDescribing.
func (LinkAction) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("add", "remove", "reorder"), nil
}

// Collection names the list of an issue's items to read.
type Collection string

// JSONSchema implements tooldef.SelfDescribing.
func (Collection) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("comments", "sub_issues", "blocked_by", "blocking", "related", "development", "timeline", "linked_prs", "review_threads"), nil
}

// MetadataKind names the repository metadata to list.
type MetadataKind string

// JSONSchema implements tooldef.SelfDescribing.
func (MetadataKind) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("labels", "milestones", "assignees", "issue_types", "templates", string(kindRepositories)), nil
}
