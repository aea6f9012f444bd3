package graphql

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// A board's items and their field values. An item's fieldValues are, in
// field position order, the values its content gives the built-in fields
// (Title as a text value; Assignees, Labels, Milestone, Repository, Linked
// pull requests and Reviewers as their own value types, each only when the
// content has one) and the
// values set on the item. Content the caller may not see is REDACTED:
// null content and no values from it, as GitHub shows it.

// builtinValue is the value a built-in field takes from an item's content.
type builtinValue struct {
	item  *state.ProjectItem
	field *state.ProjectField
}

// builtinValueTypes names the GraphQL type of each built-in field's value.
var builtinValueTypes = map[string]string{
	"ASSIGNEES": "ProjectV2ItemFieldUserValue", "LABELS": "ProjectV2ItemFieldLabelValue",
	"MILESTONE": "ProjectV2ItemFieldMilestoneValue", "REPOSITORY": "ProjectV2ItemFieldRepositoryValue",
	"LINKED_PULL_REQUESTS": "ProjectV2ItemFieldPullRequestValue", "REVIEWERS": "ProjectV2ItemFieldReviewerValue",
}

// valueTypes names the GraphQL type of each custom field's value.
var valueTypes = map[string]string{
	"TEXT": "ProjectV2ItemFieldTextValue", "TITLE": "ProjectV2ItemFieldTextValue",
	"NUMBER": "ProjectV2ItemFieldNumberValue", "DATE": "ProjectV2ItemFieldDateValue",
	"SINGLE_SELECT": "ProjectV2ItemFieldSingleSelectValue", "ITERATION": "ProjectV2ItemFieldIterationValue",
}

// itemValues lists the item's field values in field position order.
func (x *gqlContext) itemValues(it *state.ProjectItem) []any {
	var out []any
	for _, f := range it.Project.Fields {
		if v := x.itemValue(it, f); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// itemValue is the item's value of one field, nil when it has none.
func (x *gqlContext) itemValue(it *state.ProjectItem, f *state.ProjectField) any {
	if !f.Builtin() {
		if v := it.Value(f); v != nil {
			return v
		}
		return nil
	}
	if !x.seesContent(it) {
		return nil
	}
	switch f.DataType {
	case "TITLE":
		// The title's value is not stored: it is the content's, with an
		// id derived from the item's and the field's.
		return &state.ProjectValue{ID: it.ID, NodeID: state.NodeID("PVTFV", it.ID*1000+f.ID%1000), Item: it, Field: f,
			Text: itemTitle(it), Creator: it.Creator, CreatedAt: it.CreatedAt, UpdatedAt: it.UpdatedAt}
	case "ASSIGNEES":
		if len(itemAssignees(it)) > 0 {
			return &builtinValue{item: it, field: f}
		}
	case "LABELS":
		if it.Issue != nil && len(it.Issue.Labels) > 0 {
			return &builtinValue{item: it, field: f}
		}
	case "MILESTONE":
		if it.Issue != nil && it.Issue.Milestone != nil {
			return &builtinValue{item: it, field: f}
		}
	case "REPOSITORY":
		if it.Issue != nil {
			return &builtinValue{item: it, field: f}
		}
	case "LINKED_PULL_REQUESTS":
		if len(x.linkedPulls(it)) > 0 {
			return &builtinValue{item: it, field: f}
		}
	case "REVIEWERS":
		if len(requestedReviewers(it)) > 0 {
			return &builtinValue{item: it, field: f}
		}
	}
	return nil
}

func itemTitle(it *state.ProjectItem) string {
	if it.Draft != nil {
		return it.Draft.Title
	}
	return it.Issue.Title
}

func itemAssignees(it *state.ProjectItem) []*state.Account {
	if it.Draft != nil {
		return it.Draft.Assignees
	}
	if it.Issue != nil {
		return it.Issue.Assignees
	}
	return nil
}

func registerProjectItems(r *resolvers) {
	const i = "ProjectV2Item"
	resolve(r, i+".id", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return it.NodeID, nil })
	resolve(r, i+".fullDatabaseId", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return bigInt(it.ID), nil })
	resolve(r, i+".databaseId", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return it.ID, nil })
	resolve(r, i+".type", func(x *gqlContext, it *state.ProjectItem) (any, error) {
		if !x.seesContent(it) {
			return "REDACTED", nil
		}
		return it.Type(), nil
	})
	resolve(r, i+".isArchived", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return it.Archived, nil })
	resolve(r, i+".project", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return it.Project, nil })
	resolve(r, i+".creator", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return it.Creator, nil })
	resolve(r, i+".createdAt", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return it.CreatedAt, nil })
	resolve(r, i+".updatedAt", func(_ *gqlContext, it *state.ProjectItem) (any, error) { return it.UpdatedAt, nil })
	resolve(r, i+".content", func(x *gqlContext, it *state.ProjectItem) (any, error) {
		switch {
		case !x.seesContent(it):
			return nil, nil
		case it.Draft != nil:
			return it.Draft, nil
		}
		return it.Issue, nil
	})
	resolveArgs(r, i+".fieldValues", func(x *gqlContext, it *state.ProjectItem, a positionArgs) (any, error) {
		return pageOf(x, positioned(x.itemValues(it), a.OrderBy), a.connArgs)
	})
	resolveArgs(r, i+".fieldValueByName", func(x *gqlContext, it *state.ProjectItem, a nameArgs) (any, error) {
		if f := it.Project.FindField(a.Name); f != nil {
			return x.itemValue(it, f), nil
		}
		return nil, nil
	})

	const d = "DraftIssue"
	resolve(r, d+".id", func(_ *gqlContext, v *state.DraftIssue) (any, error) { return v.NodeID, nil })
	resolve(r, d+".title", func(_ *gqlContext, v *state.DraftIssue) (any, error) { return v.Title, nil })
	resolve(r, d+".body", func(_ *gqlContext, v *state.DraftIssue) (any, error) { return v.Body, nil })
	resolve(r, d+".bodyText", func(_ *gqlContext, v *state.DraftIssue) (any, error) { return v.Body, nil })
	resolve(r, d+".creator", func(_ *gqlContext, v *state.DraftIssue) (any, error) { return v.Creator, nil })
	resolve(r, d+".createdAt", func(_ *gqlContext, v *state.DraftIssue) (any, error) { return v.CreatedAt, nil })
	resolve(r, d+".updatedAt", func(_ *gqlContext, v *state.DraftIssue) (any, error) { return v.UpdatedAt, nil })
	resolveArgs(r, d+".assignees", func(x *gqlContext, v *state.DraftIssue, a connArgs) (any, error) {
		return pageOf(x, v.Assignees, a)
	})
}

func registerProjectValues(r *resolvers) {
	objectType(r, func(v *state.ProjectValue) string { return valueTypes[v.Field.DataType] })
	objectType(r, func(v *builtinValue) string { return builtinValueTypes[v.field.DataType] })
	for _, t := range []string{"ProjectV2ItemFieldTextValue", "ProjectV2ItemFieldNumberValue", "ProjectV2ItemFieldDateValue",
		"ProjectV2ItemFieldSingleSelectValue", "ProjectV2ItemFieldIterationValue"} {
		resolve(r, t+".id", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.NodeID, nil })
		resolve(r, t+".databaseId", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.ID, nil })
		resolve(r, t+".field", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Field, nil })
		resolve(r, t+".item", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Item, nil })
		resolve(r, t+".creator", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Creator, nil })
		resolve(r, t+".createdAt", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.CreatedAt, nil })
		resolve(r, t+".updatedAt", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.UpdatedAt, nil })
	}
	resolve(r, "ProjectV2ItemFieldTextValue.text", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Text, nil })
	resolve(r, "ProjectV2ItemFieldNumberValue.number", func(_ *gqlContext, v *state.ProjectValue) (any, error) {
		return v.Number, nil
	})
	resolve(r, "ProjectV2ItemFieldDateValue.date", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Date, nil })
	const s = "ProjectV2ItemFieldSingleSelectValue"
	resolve(r, s+".name", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Option.Name, nil })
	resolve(r, s+".nameHTML", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return htmlText(v.Option.Name), nil })
	resolve(r, s+".optionId", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Option.ID, nil })
	resolve(r, s+".color", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Option.Color, nil })
	resolve(r, s+".description", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Option.Description, nil })
	resolve(r, s+".descriptionHTML", func(_ *gqlContext, v *state.ProjectValue) (any, error) {
		return htmlText(v.Option.Description), nil
	})
	const it = "ProjectV2ItemFieldIterationValue"
	resolve(r, it+".iterationId", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Iteration.ID, nil })
	resolve(r, it+".title", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Iteration.Title, nil })
	resolve(r, it+".titleHTML", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return htmlText(v.Iteration.Title), nil })
	resolve(r, it+".startDate", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Iteration.StartDate, nil })
	resolve(r, it+".duration", func(_ *gqlContext, v *state.ProjectValue) (any, error) { return v.Iteration.Duration, nil })

	for _, t := range builtinValueTypes {
		resolve(r, t+".field", func(_ *gqlContext, v *builtinValue) (any, error) { return v.field, nil })
	}
	resolveArgs(r, "ProjectV2ItemFieldUserValue.users", func(x *gqlContext, v *builtinValue, a connArgs) (any, error) {
		return pageOf(x, itemAssignees(v.item), a)
	})
	resolveArgs(r, "ProjectV2ItemFieldLabelValue.labels", func(x *gqlContext, v *builtinValue, a connArgs) (any, error) {
		return pageOf(x, v.item.Issue.Labels, a)
	})
	resolve(r, "ProjectV2ItemFieldMilestoneValue.milestone", func(_ *gqlContext, v *builtinValue) (any, error) {
		return v.item.Issue.Milestone, nil
	})
	registerProjectLinks(r)
	resolve(r, "ProjectV2ItemFieldRepositoryValue.repository", func(_ *gqlContext, v *builtinValue) (any, error) {
		return v.item.Issue.Repo, nil
	})
}
