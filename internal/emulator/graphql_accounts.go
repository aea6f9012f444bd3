package emulator

import "fmt"

type avatarArgs struct {
	Size *int `json:"size"`
}

// registerAccounts serves User and Organization, which share a model.
func registerAccounts(r *resolvers) {
	objectType(r, func(a *Account) string {
		if a.IsOrg {
			return "Organization"
		}
		return "User"
	})
	for _, t := range []string{"User", "Organization"} {
		resolve(r, t+".id", func(_ *gqlContext, a *Account) (any, error) { return a.NodeID, nil })
		resolve(r, t+".databaseId", func(_ *gqlContext, a *Account) (any, error) { return a.ID, nil })
		resolve(r, t+".login", func(_ *gqlContext, a *Account) (any, error) { return a.Login, nil })
		resolve(r, t+".name", func(_ *gqlContext, a *Account) (any, error) {
			if a.Name == "" {
				return nil, nil
			}
			return a.Name, nil
		})
		resolve(r, t+".createdAt", func(_ *gqlContext, a *Account) (any, error) { return a.CreatedAt, nil })
		resolve(r, t+".url", func(x *gqlContext, a *Account) (any, error) { return x.webURL("/" + a.Login), nil })
		resolve(r, t+".resourcePath", func(_ *gqlContext, a *Account) (any, error) { return "/" + a.Login, nil })
		resolveArgs(r, t+".avatarUrl", func(x *gqlContext, a *Account, args avatarArgs) (any, error) {
			u := fmt.Sprintf("%s/avatars/u/%d?v=4", x.c.links.web, a.ID)
			if args.Size != nil {
				u += fmt.Sprintf("&s=%d", *args.Size)
			}
			return u, nil
		})
	}
}
