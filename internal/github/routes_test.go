package github

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// routeLine is a method comment's line naming the route it calls.
var routeLine = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE) (/\S*)$`)

// graphQLRoute is how the GraphQL methods name their route: the endpoint
// sits outside the REST root (at /api/graphql on GHES and the emulator).
const graphQLRoute = "POST /graphql"

// clientRoutes reads this package's source and returns, for every
// exported *Client method that reaches the wire, the routes its comment
// names. A method reaches the wire when it uses the go-github client or
// the HTTP client, calls getJSON, read or write, or calls another method
// that does. Such a method naming no route fails the test: each must say
// which endpoint it calls, so the check below covers it.
func clientRoutes(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	methods := map[string]*ast.FuncDecl{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Body == nil || !isClientReceiver(fn.Recv) {
				continue
			}
			methods[fn.Name.Name] = fn
		}
	}
	if len(methods) == 0 {
		t.Fatal("no *Client methods found: is the test running in the package directory?")
	}

	// direct[m] is true when m touches the wire itself; calls[m] lists the
	// other Client methods it calls.
	direct, calls := map[string]bool{}, map[string][]string{}
	for name, fn := range methods {
		recv := fn.Recv.List[0].Names
		if len(recv) == 0 {
			continue
		}
		self := recv[0].Name
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				if x.Name == "getJSON" {
					direct[name] = true
				}
			case *ast.SelectorExpr:
				id, ok := x.X.(*ast.Ident)
				if !ok || id.Name != self {
					return true
				}
				switch sel := x.Sel.Name; {
				case sel == "rest" || sel == "http" || sel == "read" || sel == "write":
					direct[name] = true
				case methods[sel] != nil:
					calls[name] = append(calls[name], sel)
				}
			}
			return true
		})
	}
	var reaches func(string, map[string]bool) bool
	reaches = func(m string, seen map[string]bool) bool {
		if direct[m] {
			return true
		}
		if seen[m] {
			return false
		}
		seen[m] = true
		for _, callee := range calls[m] {
			if reaches(callee, seen) {
				return true
			}
		}
		return false
	}

	out := map[string][]string{}
	for name, fn := range methods {
		if !ast.IsExported(name) || !reaches(name, map[string]bool{}) {
			continue
		}
		var routes []string
		if fn.Doc != nil {
			for _, line := range strings.Split(fn.Doc.Text(), "\n") {
				if routeLine.MatchString(strings.TrimSpace(line)) {
					routes = append(routes, strings.TrimSpace(line))
				}
			}
		}
		if len(routes) == 0 {
			t.Errorf("Client.%s calls GitHub but its comment names no route (a line like \"GET /repos/{owner}/{repo}\")", name)
		}
		out[name] = routes
	}
	return out
}

func isClientReceiver(recv *ast.FieldList) bool {
	if len(recv.List) != 1 {
		return false
	}
	star, ok := recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "Client"
}

// wildcard makes route templates comparable whatever their parameters
// are called.
var wildcard = regexp.MustCompile(`\{[^}]*\}`)

func routeKey(r string) string { return wildcard.ReplaceAllString(r, "{}") }

// TestEveryClientRouteIsServed: every route a Client method can call is
// one the emulator serves, so the emulator stands in for GitHub for all of
// ghgate. A method added without its route served fails here.
func TestEveryClientRouteIsServed(t *testing.T) {
	routes := clientRoutes(t)
	e, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, r := range e.Routes() {
		served[routeKey(r)] = true
	}
	names := make([]string, 0, len(routes))
	for name := range routes {
		names = append(names, name)
	}
	sort.Strings(names)
	checked, graphql := 0, false
	for _, name := range names {
		for _, r := range routes[name] {
			checked++
			if r == graphQLRoute {
				graphql = true
				continue
			}
			if !served[routeKey(r)] {
				t.Errorf("Client.%s calls %s, which the emulator does not serve", name, r)
			}
		}
	}
	// The routes known to be called must be among those found, or the
	// source reading above has stopped seeing methods.
	for _, want := range []string{"EditIssue", "AddSubIssue", "ListTimeline", "Query", "Mutate"} {
		if len(routes[want]) == 0 {
			t.Errorf("no route found for Client.%s", want)
		}
	}
	if !graphql {
		return
	}
	// GraphQL is one endpoint outside the REST table: ask it.
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenBob)
	var out viewerResult
	if err := c.Query(context.Background(), viewerQuery, nil, &out); err != nil {
		t.Fatalf("%s: %v", graphQLRoute, err)
	}
	if em.count("POST /api/graphql") != 1 {
		t.Fatalf("the GraphQL query did not reach the emulator's endpoint")
	}
	t.Logf("%d routes of %d methods checked", checked, len(routes))
}
