// Package permissions says which GitHub App permissions each ghgate tool
// needs, by mode, so a broker route with a GitHub App can mint installation
// tokens that hold no more than the call needs. Names and levels are
// GitHub's ("issues": "write"), as POST
// /app/installations/{installation_id}/access_tokens takes them.
//
// Each row is derived from what the tool calls (its internal/github
// methods, REST routes and GraphQL documents) and from GitHub's
// "Permissions required for GitHub Apps". Where GitHub accepts either of
// two permissions for an endpoint (issue comments and labels take issues
// or pull_requests), the row names the one the tool's purpose implies.
// The package imports nothing of ghgate's; its test checks that every tool
// in the registry has a row.
package permissions

import (
	"maps"
	"slices"
	"strings"
)

// Levels, in increasing order of what they allow.
const (
	Read  = "read"
	Write = "write"
	Admin = "admin"
)

// Metadata is the permission every installation token holds: repository
// names, visibility and collaborators. Every set this package returns
// names it.
const Metadata = "metadata"

// A Set is GitHub App permissions by name, each at a level.
type Set map[string]string

// rank orders levels; an unknown level ranks below read.
func rank(level string) int {
	switch level {
	case Read:
		return 1
	case Write:
		return 2
	case Admin:
		return 3
	}
	return 0
}

// Covers reports whether level allows what need asks ("write" covers
// "read").
func Covers(level, need string) bool { return rank(level) > 0 && rank(level) >= rank(need) }

// merge adds o to s, keeping the higher level of a permission in both.
func (s Set) merge(o Set) {
	for name, level := range o {
		if rank(level) > rank(s[name]) {
			s[name] = level
		}
	}
}

// Within returns the part of s that have grants: each permission at the
// lower of the two levels, those have lacks left out. A broker asks GitHub
// for no permission the installation was not granted (GitHub refuses the
// whole token for one), and a call needing one fails at GitHub as it
// would with the installation's own token.
func (s Set) Within(have Set) Set {
	out := Set{}
	for name, level := range s {
		h, ok := have[name]
		if !ok || rank(h) == 0 {
			continue
		}
		if rank(h) < rank(level) {
			level = h
		}
		out[name] = level
	}
	return out
}

// String is the set as "name=level" pairs in name order, joined by
// commas: a stable key, and the form of GitHub's
// X-Accepted-GitHub-Permissions header.
func (s Set) String() string {
	names := slices.Sorted(maps.Keys(s))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + s[n]
	}
	return strings.Join(parts, ",")
}

// A row is one tool's needs: what it reads in either mode, and what a
// write adds.
type row struct {
	reads, writes Set
}

// For returns the permissions a call of tool needs, metadata included:
// its reads, and with write its writes too. ok is false for a tool the
// table has no row for (an upstream MCP server's); see [Mode].
func For(tool string, write bool) (Set, bool) {
	r, ok := table[tool]
	if !ok {
		return nil, false
	}
	out := Set{Metadata: Read}
	out.merge(r.reads)
	if write {
		out.merge(r.writes)
	}
	return out, true
}

// Mode returns every permission ghgate's own tools need in a mode: all
// their reads, and with write all their writes. It is the set for a call
// the table has no row for, such as an upstream server's tool, whose
// calls ghgate cannot see into.
func Mode(write bool) Set {
	out := Set{Metadata: Read}
	for _, r := range table {
		out.merge(r.reads)
		if write {
			out.merge(r.writes)
		}
	}
	return out
}

// Tools lists the tools the table has a row for, sorted.
func Tools() []string { return slices.Sorted(maps.Keys(table)) }
