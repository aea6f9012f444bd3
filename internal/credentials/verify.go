package credentials

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Identity is who a token acts as, and the classic scopes GitHub reports
// for it (none for a fine-grained or App token, whose answers carry no
// X-OAuth-Scopes).
type Identity struct {
	Login  string
	Scopes []string
	// ScopesReported is whether GitHub sent X-OAuth-Scopes at all.
	ScopesReported bool
}

// Identify asks GitHub who token is: GET /user.
func Identify(ctx context.Context, client *http.Client, host Host, token string) (Identity, error) {
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, host.API+"/user", nil)
	if err != nil {
		return Identity{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, err := client.Do(req)
	if err != nil {
		return Identity{}, fmt.Errorf("GET %s/user: %w", host.API, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Identity{}, fmt.Errorf("GET %s/user answered %s: the token is not accepted", host.API, resp.Status)
	}
	var u struct {
		Login string `json:"login"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&u); err != nil || u.Login == "" {
		return Identity{}, fmt.Errorf("GET %s/user: no login in the answer", host.API)
	}
	scopes, reported := resp.Header["X-Oauth-Scopes"]
	id := Identity{Login: u.Login, ScopesReported: reported}
	if reported && len(scopes) > 0 {
		id.Scopes = splitScopes(scopes[0])
	}
	return id, nil
}
