package main

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/credentials"
)

// serveKeyring is the OS keyring serve reads stored credentials from
// (go-keyring's, which keyring.MockInit replaces in this package's tests).
var serveKeyring = credentials.System

// findStoredToken takes the token a sign-in stored for github_url's host,
// once neither the environment nor the config file gave one: ghgate's own
// entry, then gh's ([credentials.Stored]).
func (c *serveConfig) findStoredToken(getenv func(string) string, kr credentials.Keyring) {
	host, err := credentials.HostFromAPI(c.GitHubURL)
	if err != nil {
		return // c.check refuses the URL with its own message
	}
	tok, loc, problems := credentials.Stored(host.Name, getenv, kr)
	c.TokenProblems = problems
	if tok != "" {
		c.Token, c.TokenSource = tok, fmt.Sprintf("%s, for %s", loc, host.Name)
	}
}
