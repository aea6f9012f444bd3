// Package rest is the emulator's REST API: the route table (routes.go,
// routes_git.go) and its router (routematch.go), one file of handlers per
// part of GitHub's REST description (issues.go, labels.go, pulls.go,
// search.go, …) and the JSON renderings they answer with (render.go).
// Handlers are functions of the per-request call; only GET /rate_limit
// needs more, the rate limiter [NewHandler] is given.
package rest
