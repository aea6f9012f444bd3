package rest

import (
	"net/http"
	"net/url"
	"strings"
)

// router picks the route for a request. net/http.ServeMux refuses
// GitHub's route set: ".../issues/comments/{comment_id}" and
// ".../issues/{issue_number}/labels" overlap and neither is more specific in
// its rules. GitHub resolves the overlap by preferring the literal segment
// ("comments" is never an issue number), and so does router: where two
// matching templates first differ, a literal segment beats a {wildcard},
// which beats a trailing {name...}.
type router struct {
	routes   []compiledRoute
	notFound http.HandlerFunc
}

type compiledRoute struct {
	method  string
	segs    []string
	handler http.HandlerFunc
}

const (
	segLiteral = iota
	segWildcard
	segRest
)

func segKind(s string) int {
	switch {
	case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "...}"):
		return segRest
	case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"):
		return segWildcard
	}
	return segLiteral
}

func (rr *router) handle(method, path string, h http.HandlerFunc) {
	rr.routes = append(rr.routes, compiledRoute{method: method, segs: strings.Split(strings.TrimPrefix(path, "/"), "/"), handler: h})
}

// match reports the path values of a request path's escaped segments.
func (cr *compiledRoute) match(segs []string) (map[string]string, bool) {
	vals := map[string]string{}
	for i, pat := range cr.segs {
		switch segKind(pat) {
		case segRest:
			v, err := url.PathUnescape(strings.Join(segs[min(i, len(segs)):], "/"))
			if err != nil {
				return nil, false
			}
			vals[strings.TrimSuffix(strings.TrimPrefix(pat, "{"), "...}")] = v
			return vals, true
		case segWildcard:
			if i >= len(segs) || segs[i] == "" {
				return nil, false
			}
			v, err := url.PathUnescape(segs[i])
			if err != nil {
				return nil, false
			}
			vals[strings.Trim(pat, "{}")] = v
		default:
			if i >= len(segs) {
				return nil, false
			}
			if v, err := url.PathUnescape(segs[i]); err != nil || v != pat {
				return nil, false
			}
		}
	}
	return vals, len(segs) == len(cr.segs)
}

// moreSpecific reports whether a wins over b for a path both match.
func moreSpecific(a, b *compiledRoute) bool {
	for i := 0; i < len(a.segs) && i < len(b.segs); i++ {
		if ka, kb := segKind(a.segs[i]), segKind(b.segs[i]); ka != kb {
			return ka < kb
		}
	}
	return len(a.segs) > len(b.segs)
}

func (rr *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet // as ServeMux does, GET routes answer HEAD
	}
	var best *compiledRoute
	var bestVals map[string]string
	for i := range rr.routes {
		cr := &rr.routes[i]
		if cr.method != method {
			continue
		}
		vals, ok := cr.match(segs)
		if ok && (best == nil || moreSpecific(cr, best)) {
			best, bestVals = cr, vals
		}
	}
	if best == nil {
		rr.notFound(w, r)
		return
	}
	for k, v := range bestVals {
		r.SetPathValue(k, v)
	}
	best.handler(w, r)
}
