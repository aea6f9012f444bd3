package graphql

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

type avatarArgs struct {
	Size *int `json:"size"`
}

// registerAccounts serves User, Organization and Bot, which share a model.
// A field of object type User (viewer, assignees) serves a bot account as a
// User, as GitHub's viewer does for an installation token; where the
// schema names an interface (Actor, Node) an App's bot is a Bot.
func registerAccounts(r *resolvers) {
	objectType(r, func(a *state.Account) string {
		switch {
		case a.IsOrg:
			return "Organization"
		case a.IsBot:
			return "Bot"
		}
		return "User"
	})
	for _, t := range []string{"User", "Organization", "Bot"} {
		resolve(r, t+".id", func(_ *gqlContext, a *state.Account) (any, error) { return a.NodeID, nil })
		resolve(r, t+".databaseId", func(_ *gqlContext, a *state.Account) (any, error) { return a.ID, nil })
		resolve(r, t+".createdAt", func(_ *gqlContext, a *state.Account) (any, error) { return a.CreatedAt, nil })
		resolveArgs(r, t+".avatarUrl", func(x *gqlContext, a *state.Account, args avatarArgs) (any, error) {
			u := fmt.Sprintf("%s/avatars/u/%d?v=4", x.c.Links.Web, a.ID)
			if args.Size != nil {
				u += fmt.Sprintf("&s=%d", *args.Size)
			}
			return u, nil
		})
	}
	for _, t := range []string{"User", "Organization"} {
		resolve(r, t+".login", func(_ *gqlContext, a *state.Account) (any, error) { return a.Login, nil })
		resolve(r, t+".name", func(_ *gqlContext, a *state.Account) (any, error) {
			if a.Name == "" {
				return nil, nil
			}
			return a.Name, nil
		})
		resolve(r, t+".url", func(x *gqlContext, a *state.Account) (any, error) { return x.webURL("/" + a.Login), nil })
		resolve(r, t+".resourcePath", func(_ *gqlContext, a *state.Account) (any, error) { return "/" + a.Login, nil })
	}
	// A Bot is known by its App: GitHub's GraphQL reports its login without
	// the "[bot]" REST adds, and its page is the App's.
	resolve(r, "Bot.login", func(_ *gqlContext, a *state.Account) (any, error) { return a.AppSlug(), nil })
	resolve(r, "Bot.url", func(x *gqlContext, a *state.Account) (any, error) { return x.webURL("/apps/" + a.AppSlug()), nil })
	resolve(r, "Bot.resourcePath", func(_ *gqlContext, a *state.Account) (any, error) { return "/apps/" + a.AppSlug(), nil })
}
