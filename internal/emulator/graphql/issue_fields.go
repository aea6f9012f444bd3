package graphql

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Issue fields in GraphQL: Organization.issueFields and
// Repository.issueFields (the owner's fields) list the IssueFields union,
// Issue.issueFieldValues the IssueFieldValue union, and IssueFilters'
// issueFieldValues filters Repository.issues by them.

// issueFieldTypes names the GraphQL object type of each kind of field; its
// value's type adds "Value".
var issueFieldTypes = map[string]string{
	"TEXT": "IssueFieldText", "NUMBER": "IssueFieldNumber", "DATE": "IssueFieldDate", "SINGLE_SELECT": "IssueFieldSingleSelect",
}

// bigInt writes a database id as GitHub writes its BigInt scalar: a string.
func bigInt(id int64) string { return strconv.FormatInt(id, 10) }

func registerIssueFields(r *resolvers) {
	objectType(r, func(f *state.IssueField) string { return issueFieldTypes[f.DataType] })
	objectType(r, func(v *state.IssueFieldValue) string { return issueFieldTypes[v.Field.DataType] + "Value" })
	objectType(r, func(*state.IssueFieldOption) string { return "IssueFieldSingleSelectOption" })
	for _, t := range issueFieldTypes {
		resolve(r, t+".id", func(_ *gqlContext, f *state.IssueField) (any, error) { return f.NodeID, nil })
		resolve(r, t+".fullDatabaseId", func(_ *gqlContext, f *state.IssueField) (any, error) { return bigInt(f.ID), nil })
		resolve(r, t+".name", func(_ *gqlContext, f *state.IssueField) (any, error) { return f.Name, nil })
		resolve(r, t+".description", func(_ *gqlContext, f *state.IssueField) (any, error) { return f.Description, nil })
		resolve(r, t+".dataType", func(_ *gqlContext, f *state.IssueField) (any, error) { return f.DataType, nil })
		resolve(r, t+".visibility", func(_ *gqlContext, f *state.IssueField) (any, error) { return f.Visibility, nil })
		resolve(r, t+".createdAt", func(_ *gqlContext, f *state.IssueField) (any, error) { return f.CreatedAt, nil })
		resolve(r, t+"Value.id", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.NodeID, nil })
		resolve(r, t+"Value.field", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Field, nil })
	}
	resolve(r, "IssueFieldSingleSelect.options", func(_ *gqlContext, f *state.IssueField) (any, error) { return f.Options, nil })
	const opt = "IssueFieldSingleSelectOption"
	resolve(r, opt+".id", func(_ *gqlContext, o *state.IssueFieldOption) (any, error) { return o.NodeID, nil })
	resolve(r, opt+".fullDatabaseId", func(_ *gqlContext, o *state.IssueFieldOption) (any, error) { return bigInt(o.ID), nil })
	resolve(r, opt+".name", func(_ *gqlContext, o *state.IssueFieldOption) (any, error) { return o.Name, nil })
	resolve(r, opt+".description", func(_ *gqlContext, o *state.IssueFieldOption) (any, error) { return o.Description, nil })
	resolve(r, opt+".color", func(_ *gqlContext, o *state.IssueFieldOption) (any, error) { return o.Color, nil })
	resolve(r, opt+".priority", func(_ *gqlContext, o *state.IssueFieldOption) (any, error) { return o.Priority, nil })

	resolve(r, "IssueFieldTextValue.value", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Text, nil })
	resolve(r, "IssueFieldDateValue.value", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Text, nil })
	resolve(r, "IssueFieldNumberValue.value", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Number, nil })
	const sel = "IssueFieldSingleSelectValue"
	// A single select's value is its option's name.
	resolve(r, sel+".value", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Option.Name, nil })
	resolve(r, sel+".name", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Option.Name, nil })
	resolve(r, sel+".color", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Option.Color, nil })
	resolve(r, sel+".description", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Option.Description, nil })
	resolve(r, sel+".optionId", func(_ *gqlContext, v *state.IssueFieldValue) (any, error) { return v.Option.NodeID, nil })

	resolveArgs(r, "Issue.issueFieldValues", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		return pageOf(x, is.FieldValues, a)
	})
	resolveArgs(r, "Repository.issueFields", func(x *gqlContext, repo *state.Repo, a connArgs) (any, error) {
		return pageOf(x, x.st.IssueFields(repo.Owner.Login), a)
	})
	resolveArgs(r, "Organization.issueFields", func(x *gqlContext, org *state.Account, a connArgs) (any, error) {
		return pageOf(x, x.st.IssueFields(org.Login), a)
	})
}

// issueFieldValueFilter is GitHub's IssueFieldValueFilter: a field, by
// name or id, and the value it must hold.
type issueFieldValueFilter struct {
	FieldID                 *gqlID   `json:"fieldId"`
	FieldName               *string  `json:"fieldName"`
	TextValue               *string  `json:"textValue"`
	DateValue               *string  `json:"dateValue"`
	NumberValue             *float64 `json:"numberValue"`
	SingleSelectOptionID    *gqlID   `json:"singleSelectOptionId"`
	SingleSelectOptionValue *string  `json:"singleSelectOptionValue"`
}

// match reports whether the issue holds the value the filter names. Text
// and option names compare case-insensitively, dates and numbers exactly.
func (f issueFieldValueFilter) match(is *state.Issue) bool {
	return slices.ContainsFunc(is.FieldValues, func(v *state.IssueFieldValue) bool {
		switch {
		case f.FieldID != nil && string(*f.FieldID) != v.Field.NodeID,
			f.FieldName != nil && !strings.EqualFold(*f.FieldName, v.Field.Name),
			f.TextValue != nil && (v.Field.DataType != "TEXT" || !strings.EqualFold(*f.TextValue, v.Text)),
			f.DateValue != nil && (v.Field.DataType != "DATE" || *f.DateValue != v.Text),
			f.NumberValue != nil && (v.Field.DataType != "NUMBER" || *f.NumberValue != v.Number),
			f.SingleSelectOptionID != nil && (v.Option == nil || string(*f.SingleSelectOptionID) != v.Option.NodeID),
			f.SingleSelectOptionValue != nil && (v.Option == nil || !strings.EqualFold(*f.SingleSelectOptionValue, v.Option.Name)):
			return false
		}
		return true
	})
}
