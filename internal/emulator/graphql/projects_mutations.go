package graphql

import (
	"math"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The Projects (v2) item mutations. Each needs the project scope on a
// classic token and write access to the board; a board, item or content
// the caller cannot see does not resolve. Values are checked against the
// field before anything is written: an option or iteration of another
// field, a value of the wrong kind, a built-in field (whose value is the
// content's) or an archived item are refused as GitHub refuses them.

// itemInput is the projectId and itemId most item mutations take.
type itemInput struct {
	ProjectID        gqlID   `json:"projectId"`
	ItemID           gqlID   `json:"itemId"`
	ClientMutationID *string `json:"clientMutationId"`
}

type itemArgs struct {
	Input itemInput `json:"input"`
}

type addItemArgs struct {
	Input struct {
		ProjectID        gqlID   `json:"projectId"`
		ContentID        gqlID   `json:"contentId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type addDraftArgs struct {
	Input struct {
		ProjectID        gqlID   `json:"projectId"`
		Title            string  `json:"title"`
		Body             *string `json:"body"`
		AssigneeIDs      []gqlID `json:"assigneeIds"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type fieldValueInput struct {
	Text                 *string  `json:"text"`
	Number               *float64 `json:"number"`
	Date                 *string  `json:"date"`
	SingleSelectOptionID *string  `json:"singleSelectOptionId"`
	IterationID          *string  `json:"iterationId"`
}

type updateValueArgs struct {
	Input struct {
		itemInput
		FieldID gqlID           `json:"fieldId"`
		Value   fieldValueInput `json:"value"`
	} `json:"input"`
}

type clearValueArgs struct {
	Input struct {
		itemInput
		FieldID gqlID `json:"fieldId"`
	} `json:"input"`
}

type positionArgsInput struct {
	Input struct {
		itemInput
		AfterID *gqlID `json:"afterId"`
	} `json:"input"`
}

// itemPayload is what the item mutations return; deleted is the id of a
// deleted item, board the board whose order changed.
type itemPayload struct {
	item             *state.ProjectItem
	deleted          string
	board            *state.Project
	clientMutationID *string
}

func registerProjectMutations(r *resolvers) {
	resolveArgs(r, "Mutation.addProjectV2ItemById", addProjectItem)
	resolveArgs(r, "Mutation.addProjectV2DraftIssue", addDraftItem)
	resolveArgs(r, "Mutation.updateProjectV2ItemFieldValue", updateItemValue)
	resolveArgs(r, "Mutation.clearProjectV2ItemFieldValue", clearItemValue)
	resolveArgs(r, "Mutation.archiveProjectV2Item", func(x *gqlContext, _ root, a itemArgs) (any, error) {
		return setArchived(x, a.Input, true)
	})
	resolveArgs(r, "Mutation.unarchiveProjectV2Item", func(x *gqlContext, _ root, a itemArgs) (any, error) {
		return setArchived(x, a.Input, false)
	})
	resolveArgs(r, "Mutation.updateProjectV2ItemPosition", moveItem)
	resolveArgs(r, "Mutation.deleteProjectV2Item", deleteItem)

	for _, t := range []string{"AddProjectV2ItemByIdPayload", "ArchiveProjectV2ItemPayload", "UnarchiveProjectV2ItemPayload"} {
		resolve(r, t+".item", func(_ *gqlContext, p *itemPayload) (any, error) { return p.item, nil })
	}
	resolve(r, "AddProjectV2DraftIssuePayload.projectItem", func(_ *gqlContext, p *itemPayload) (any, error) { return p.item, nil })
	resolve(r, "UpdateProjectV2ItemFieldValuePayload.projectV2Item", func(_ *gqlContext, p *itemPayload) (any, error) {
		return p.item, nil
	})
	resolve(r, "ClearProjectV2ItemFieldValuePayload.projectV2Item", func(_ *gqlContext, p *itemPayload) (any, error) {
		return p.item, nil
	})
	resolve(r, "DeleteProjectV2ItemPayload.deletedItemId", func(_ *gqlContext, p *itemPayload) (any, error) { return p.deleted, nil })
	resolveArgs(r, "UpdateProjectV2ItemPositionPayload.items", func(x *gqlContext, p *itemPayload, a connArgs) (any, error) {
		return pageOf(x, p.board.Items, a)
	})
	for _, t := range []string{"AddProjectV2ItemByIdPayload", "AddProjectV2DraftIssuePayload", "UpdateProjectV2ItemFieldValuePayload",
		"ClearProjectV2ItemFieldValuePayload", "ArchiveProjectV2ItemPayload", "UnarchiveProjectV2ItemPayload",
		"UpdateProjectV2ItemPositionPayload", "DeleteProjectV2ItemPayload"} {
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *itemPayload) (any, error) { return p.clientMutationID, nil })
	}
}

// writableBoard resolves a board id the caller may change.
func (x *gqlContext) writableBoard(id gqlID, mutation string) (*state.Project, error) {
	if err := x.projectScope(true); err != nil {
		return nil, err
	}
	p, _ := x.visibleNode(string(id)).(*state.Project)
	if p == nil {
		return nil, nodeNotFound(string(id))
	}
	if x.projectPermission(p) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, mutation)
	}
	return p, nil
}

// boardItem resolves a writable board and one of its items.
func (x *gqlContext) boardItem(in itemInput, mutation string) (*state.ProjectItem, error) {
	p, err := x.writableBoard(in.ProjectID, mutation)
	if err != nil {
		return nil, err
	}
	it, _ := x.visibleNode(string(in.ItemID)).(*state.ProjectItem)
	if it == nil {
		return nil, nodeNotFound(string(in.ItemID))
	}
	if it.Project != p {
		return nil, unprocessable("The item does not belong to the project")
	}
	return it, nil
}

// addProjectItem adds an issue or pull request; one already on the board
// comes back as the item it is, as GitHub answers.
func addProjectItem(x *gqlContext, _ root, a addItemArgs) (any, error) {
	p, err := x.writableBoard(a.Input.ProjectID, "AddProjectV2ItemById")
	if err != nil {
		return nil, err
	}
	is, _ := x.visibleNode(string(a.Input.ContentID)).(*state.Issue)
	if is == nil {
		return nil, nodeNotFound(string(a.Input.ContentID))
	}
	it, _ := x.st.AddProjectItem(p, is, x.c.Viewer)
	return &itemPayload{item: it, clientMutationID: a.Input.ClientMutationID}, nil
}

func addDraftItem(x *gqlContext, _ root, a addDraftArgs) (any, error) {
	p, err := x.writableBoard(a.Input.ProjectID, "AddProjectV2DraftIssue")
	if err != nil {
		return nil, err
	}
	title := strings.TrimSpace(a.Input.Title)
	if title == "" {
		return nil, unprocessable("Title can't be blank")
	}
	assignees, err := x.draftAssignees(a.Input.AssigneeIDs)
	if err != nil {
		return nil, err
	}
	body := ""
	if a.Input.Body != nil {
		body = *a.Input.Body
	}
	it := x.st.AddDraftItem(p, title, body, assignees, x.c.Viewer)
	return &itemPayload{item: it, clientMutationID: a.Input.ClientMutationID}, nil
}

// draftAssignees resolves a draft issue's assignee ids: users only.
func (x *gqlContext) draftAssignees(ids []gqlID) ([]*state.Account, error) {
	var out []*state.Account
	for _, id := range ids {
		acc, _ := x.st.Node(string(id)).(*state.Account)
		if acc == nil || acc.IsOrg {
			return nil, nodeNotFound(string(id))
		}
		out = append(out, acc)
	}
	return out, nil
}

// boardField resolves a field id of the item's board.
func (x *gqlContext) boardField(it *state.ProjectItem, id gqlID) (*state.ProjectField, error) {
	f, _ := x.st.Node(string(id)).(*state.ProjectField)
	if f == nil {
		return nil, nodeNotFound(string(id))
	}
	if f.Project != it.Project {
		return nil, unprocessable("The field does not belong to the project")
	}
	return f, nil
}

func updateItemValue(x *gqlContext, _ root, a updateValueArgs) (any, error) {
	it, err := x.boardItem(a.Input.itemInput, "UpdateProjectV2ItemFieldValue")
	if err != nil {
		return nil, err
	}
	f, err := x.boardField(it, a.Input.FieldID)
	if err != nil {
		return nil, err
	}
	if it.Archived {
		return nil, unprocessable("The item is archived and cannot be updated")
	}
	v, err := fieldValue(f, a.Input.Value)
	if err != nil {
		return nil, err
	}
	x.st.SetProjectValue(it, v, x.c.Viewer)
	return &itemPayload{item: it, clientMutationID: a.Input.ClientMutationID}, nil
}

// valueKinds names, for each field type updateProjectV2ItemFieldValue
// sets, the member of ProjectV2FieldValue it reads.
var valueKinds = map[string]string{"TEXT": "text", "NUMBER": "number", "DATE": "date",
	"SINGLE_SELECT": "single select option id", "ITERATION": "iteration id"}

// fieldValue checks a ProjectV2FieldValue against the field: exactly the
// member its type reads, a date in YYYY-MM-DD, a finite number, an option
// or iteration of this field.
func fieldValue(f *state.ProjectField, in fieldValueInput) (state.ProjectValue, error) {
	v := state.ProjectValue{Field: f}
	kind, settable := valueKinds[f.DataType]
	if !settable {
		return v, unprocessable("The field of type " + strings.ToLower(f.DataType) + " cannot be updated with updateProjectV2ItemFieldValue: its value is the content's")
	}
	wrong := unprocessable("Did not receive a " + kind + " value to update a field of type " + strings.ToLower(f.DataType))
	switch f.DataType {
	case "TEXT":
		if in.Text == nil {
			return v, wrong
		}
		v.Text = *in.Text
	case "NUMBER":
		if in.Number == nil || math.IsNaN(*in.Number) || math.IsInf(*in.Number, 0) {
			return v, wrong
		}
		v.Number = *in.Number
	case "DATE":
		if in.Date == nil {
			return v, wrong
		}
		d, err := time.Parse(time.DateOnly, *in.Date)
		if err != nil {
			// The Date scalar also takes an ISO 8601 timestamp.
			t, terr := time.Parse(time.RFC3339, *in.Date)
			if terr != nil {
				return v, unprocessable("Date is not a valid date: " + *in.Date)
			}
			d = t
		}
		v.Date = d.Format(time.DateOnly)
	case "SINGLE_SELECT":
		if in.SingleSelectOptionID == nil {
			return v, wrong
		}
		if v.Option = f.FindOption(*in.SingleSelectOptionID); v.Option == nil {
			return v, unprocessable("The single select option Id does not belong to the field")
		}
	case "ITERATION":
		if in.IterationID == nil {
			return v, wrong
		}
		if v.Iteration = f.FindIteration(*in.IterationID); v.Iteration == nil {
			return v, unprocessable("The iteration Id does not belong to the field")
		}
	}
	return v, nil
}

func clearItemValue(x *gqlContext, _ root, a clearValueArgs) (any, error) {
	it, err := x.boardItem(a.Input.itemInput, "ClearProjectV2ItemFieldValue")
	if err != nil {
		return nil, err
	}
	f, err := x.boardField(it, a.Input.FieldID)
	if err != nil {
		return nil, err
	}
	if it.Archived {
		return nil, unprocessable("The item is archived and cannot be updated")
	}
	if _, settable := valueKinds[f.DataType]; !settable {
		return nil, unprocessable("The field of type " + strings.ToLower(f.DataType) + " cannot be cleared with clearProjectV2ItemFieldValue: its value is the content's")
	}
	x.st.ClearProjectValue(it, f)
	return &itemPayload{item: it, clientMutationID: a.Input.ClientMutationID}, nil
}

func setArchived(x *gqlContext, in itemInput, archived bool) (any, error) {
	name := "ArchiveProjectV2Item"
	if !archived {
		name = "UnarchiveProjectV2Item"
	}
	it, err := x.boardItem(in, name)
	if err != nil {
		return nil, err
	}
	x.st.SetItemArchived(it, archived)
	return &itemPayload{item: it, clientMutationID: in.ClientMutationID}, nil
}

// moveItem places an item after another of the same board, or first
// without afterId.
func moveItem(x *gqlContext, _ root, a positionArgsInput) (any, error) {
	it, err := x.boardItem(a.Input.itemInput, "UpdateProjectV2ItemPosition")
	if err != nil {
		return nil, err
	}
	var after *state.ProjectItem
	if a.Input.AfterID != nil {
		after, _ = x.visibleNode(string(*a.Input.AfterID)).(*state.ProjectItem)
		if after == nil {
			return nil, nodeNotFound(string(*a.Input.AfterID))
		}
		if after.Project != it.Project {
			return nil, unprocessable("The item to place after does not belong to the project")
		}
	}
	if after != it {
		x.st.MoveProjectItem(it, after)
	}
	return &itemPayload{board: it.Project, clientMutationID: a.Input.ClientMutationID}, nil
}

func deleteItem(x *gqlContext, _ root, a itemArgs) (any, error) {
	it, err := x.boardItem(a.Input, "DeleteProjectV2Item")
	if err != nil {
		return nil, err
	}
	x.st.DeleteProjectItem(it)
	return &itemPayload{deleted: it.NodeID, clientMutationID: a.Input.ClientMutationID}, nil
}
