package main

import (
	"fmt"
	"log/slog"

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

// logTokenSource says at start where the token came from, or that there
// is none; never the token itself.
func logTokenSource(log *slog.Logger, cfg serveConfig) {
	for _, p := range cfg.TokenProblems {
		log.Warn("stored credential passed over", "error", p)
	}
	if cfg.Token == "" {
		log.Warn("no token: run `ghgate auth login`, or set GITHUB_TOKEN or GH_TOKEN, or token in the config file; every tool call will fail with missing_credential")
		return
	}
	log.Info("GitHub token found", "source", cfg.TokenSource)
}
