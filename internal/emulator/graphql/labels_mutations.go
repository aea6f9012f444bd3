package graphql

import (
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GraphQL's label mutations: createLabel, updateLabel and deleteLabel, as
// GitHub's schema defines them. They act through the same state as the
// REST label routes, with the same rules: triage access, a six-digit hex
// colour, a name unique in the repository regardless of case, a
// description of at most 100 characters. GitHub reports a rule broken as
// an UNPROCESSABLE error naming the attribute, in Rails' wording.

type createLabelArgs struct {
	Input struct {
		RepositoryID     gqlID   `json:"repositoryId"`
		Name             string  `json:"name"`
		Color            string  `json:"color"`
		Description      *string `json:"description"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type updateLabelArgs struct {
	Input struct {
		ID gqlID `json:"id"`
		// null clears the description; a label cannot be without a
		// name or a colour, so null there is refused.
		Name             nullable[string] `json:"name"`
		Color            nullable[string] `json:"color"`
		Description      nullable[string] `json:"description"`
		ClientMutationID *string          `json:"clientMutationId"`
	} `json:"input"`
}

type deleteLabelArgs struct {
	Input struct {
		ID               gqlID   `json:"id"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// labelPayload is what createLabel and updateLabel return; deleteLabel's
// carries no label.
type labelPayload struct {
	label            *state.Label
	clientMutationID *string
}

func registerLabelMutations(r *resolvers) {
	resolveArgs(r, "Mutation.createLabel", createLabelMutation)
	resolveArgs(r, "Mutation.updateLabel", updateLabelMutation)
	resolveArgs(r, "Mutation.deleteLabel", deleteLabelMutation)
	for _, t := range []string{"CreateLabelPayload", "UpdateLabelPayload"} {
		resolve(r, t+".label", func(_ *gqlContext, p *labelPayload) (any, error) { return p.label, nil })
	}
	for _, t := range []string{"CreateLabelPayload", "UpdateLabelPayload", "DeleteLabelPayload"} {
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *labelPayload) (any, error) { return p.clientMutationID, nil })
	}
}

// checkLabel applies the label rules to a name, colour and description
// about to be set (nil: left as they are); self is the label being
// changed, which may keep its own name.
func checkLabel(repo *state.Repo, self *state.Label, name, color, description *string) error {
	if name != nil {
		n := strings.TrimSpace(*name)
		if n == "" {
			return unprocessable("Name can't be blank")
		}
		if other := repo.FindLabel(n); other != nil && other != self {
			return unprocessable("Name has already been taken")
		}
	}
	if color != nil && !wire.HexColor.MatchString(strings.TrimPrefix(*color, "#")) {
		return unprocessable("Color is invalid")
	}
	if description != nil && utf8.RuneCountInString(*description) > state.MaxLabelDescription {
		return unprocessable("Description is too long (maximum is 100 characters)")
	}
	return nil
}

// labelFor finds the label a mutation names by node id, as the caller may
// see it, and checks the caller may change its repository's labels.
func (x *gqlContext) labelFor(id gqlID, mutation string) (*state.Label, *state.Repo, error) {
	l, _ := x.visibleNode(string(id)).(*state.Label)
	if l == nil {
		return nil, nil, nodeNotFound(string(id))
	}
	repo := repoOfLabel(x.st, l)
	if x.c.Token.Permission(repo) < state.PermTriage {
		return nil, nil, forbidden(x.c.Token.Login, mutation)
	}
	return l, repo, nil
}

func createLabelMutation(x *gqlContext, _ root, a createLabelArgs) (any, error) {
	in := a.Input
	repo, _ := x.visibleNode(string(in.RepositoryID)).(*state.Repo)
	if repo == nil {
		return nil, nodeNotFound(string(in.RepositoryID))
	}
	if x.c.Token.Permission(repo) < state.PermTriage {
		return nil, forbidden(x.c.Token.Login, "CreateLabel")
	}
	if err := checkLabel(repo, nil, &in.Name, &in.Color, in.Description); err != nil {
		return nil, err
	}
	l := x.st.AddLabel(repo, strings.TrimSpace(in.Name), strings.TrimPrefix(in.Color, "#"), in.Description)
	return &labelPayload{label: l, clientMutationID: in.ClientMutationID}, nil
}

func updateLabelMutation(x *gqlContext, _ root, a updateLabelArgs) (any, error) {
	in := a.Input
	l, repo, err := x.labelFor(in.ID, "UpdateLabel")
	if err != nil {
		return nil, err
	}
	switch {
	case in.Name.Null():
		return nil, unprocessable("Name can't be blank")
	case in.Color.Null():
		return nil, unprocessable("Color is invalid")
	}
	if err := checkLabel(repo, l, in.Name.Value, in.Color.Value, in.Description.Value); err != nil {
		return nil, err
	}
	if in.Color.Given() {
		l.Color = strings.TrimPrefix(*in.Color.Value, "#")
	}
	if in.Description.Set {
		l.Description = in.Description.Value
	}
	if in.Name.Given() {
		x.st.RenameLabel(l, strings.TrimSpace(*in.Name.Value))
	}
	return &labelPayload{label: l, clientMutationID: in.ClientMutationID}, nil
}

func deleteLabelMutation(x *gqlContext, _ root, a deleteLabelArgs) (any, error) {
	l, repo, err := x.labelFor(a.Input.ID, "DeleteLabel")
	if err != nil {
		return nil, err
	}
	x.st.DeleteLabel(repo, l)
	return &labelPayload{clientMutationID: a.Input.ClientMutationID}, nil
}
