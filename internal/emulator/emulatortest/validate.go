package emulatortest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/ghgate/ghgate/internal/emulator"
)

// Result says what a response was checked against.
type Result struct {
	// Operation is "METHOD /template" from GitHub's description, or "" when
	// the request addressed no operation (an unknown path answering 404).
	Operation string
	// Checked is false for exchanges outside the REST description: GraphQL,
	// the emulator's admin endpoints and HEAD requests.
	Checked bool
}

// validated counts the responses checked against the description in this
// test binary.
var validated atomic.Int64

// Validated is how many responses this test binary has checked against
// GitHub's OpenAPI description so far.
func Validated() int { return int(validated.Load()) }

// Summary is the line test binaries print after their tests.
func Summary() string {
	return fmt.Sprintf("openapi fidelity: %d responses validated against %s", Validated(), Source())
}

// TallyEnv names a file that [Tally] appends its lines to as well: go test
// shows a passing package's output only with -v, and make test prints
// the tallies of its one -race run from there.
const TallyEnv = "GHGATE_FIDELITY_TALLY"

// Tally prints a fidelity tally line after a package's tests, and appends
// it to the file TallyEnv names, if any.
func Tally(line string) {
	fmt.Println(line)
	name := os.Getenv(TallyEnv)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		_, err = fmt.Fprintln(f, line)
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", TallyEnv, err)
	}
}

// ValidateResponse checks one emulator response against GitHub's OpenAPI
// description: the operation is found from the method and the request URI
// (path and query, with or without the GHES /api/v3 prefix), then the
// status, the headers the operation documents and the body are validated
// with kin-openapi. A response that passes is counted in Validated.
func ValidateResponse(method, requestURI string, status int, header http.Header, body []byte) (Result, error) {
	return validate(method, requestURI, nil, status, header, body)
}

// ValidateExchange is [ValidateResponse] for a request whose headers are
// known: a request naming a REST API version GitHub does not support may
// be answered 400 on any operation, as GitHub's "API Versions" page says.
func ValidateExchange(req *http.Request, status int, header http.Header, body []byte) (Result, error) {
	return validate(req.Method, req.URL.RequestURI(), req.Header, status, header, body)
}

func validate(method, requestURI string, reqHeader http.Header, status int, header http.Header, body []byte) (Result, error) {
	s, err := loadSpec()
	if err != nil {
		return Result{}, err
	}
	u, err := url.ParseRequestURI(requestURI)
	if err != nil {
		return Result{}, fmt.Errorf("request URI %q: %w", requestURI, err)
	}
	path := u.EscapedPath()
	if path == "/api/v3" || strings.HasPrefix(path, "/api/v3/") {
		path = strings.TrimPrefix(path, "/api/v3")
	}
	if method == http.MethodHead || strings.HasPrefix(path, "/_emulator/") || path == "/graphql" || path == "/api/graphql" {
		return Result{}, nil
	}
	// A body the emulator cut short on purpose (the malformed_after fault)
	// is a transport failure for the client to survive, not a shape.
	if header.Get(emulator.FaultHeader) == string(emulator.FaultMalformedAfter) {
		return Result{}, nil
	}
	if status == http.StatusNotModified && len(body) > 0 {
		return Result{Checked: true}, fmt.Errorf("304 with a %d-byte body; a 304 has none", len(body))
	}

	if res, ok, err := s.validateVersioned(method, path, reqHeader, status, header, body); ok {
		return res, err
	}
	routeReq, err := http.NewRequest(method, "https://api.github.com"+routingPath(path)+queryOf(u), nil)
	if err != nil {
		return Result{}, fmt.Errorf("route %s %s: %w", method, path, err)
	}
	route, params, err := s.router.FindRoute(routeReq)
	if err != nil {
		// GitHub answers a path it does not serve with a JSON 404; anything
		// else on such a path means the emulator serves what GitHub does not
		// describe.
		if status == http.StatusNotFound {
			if err := s.validateAgainst("basic-error", header, body); err != nil {
				return Result{Checked: true}, fmt.Errorf("404 for an unknown path: %w", err)
			}
			validated.Add(1)
			return Result{Checked: true}, nil
		}
		return Result{Checked: true}, fmt.Errorf("GitHub's description has no operation for %s %s (%v)", method, path, err)
	}
	res := Result{Operation: method + " " + route.Path, Checked: true}

	body, checkContent, err := s.splitProjectItem(route.Path, status, body)
	if err != nil {
		return res, err
	}
	responses := route.Operation.Responses
	if responses.Status(status) != nil || responses.Default() != nil {
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: routeReq, PathParams: params, Route: route},
			Status:                 status,
			Header:                 header,
			Body:                   io.NopCloser(bytes.NewReader(body)),
			Options: &openapi3filter.Options{
				IncludeResponseStatus:   true,
				SchemaValidationOptions: schemaOptions(),
			},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			return res, reason(err)
		}
	} else {
		versionRejected := reqHeader != nil && !emulator.SupportedAPIVersion(reqHeader)
		schemaName, ok := unlistedStatus(route, method, status, header, versionRejected)
		if !ok {
			return res, fmt.Errorf("status %d is not among those GitHub's description lists for %s (%s)",
				status, res.Operation, strings.Join(listedStatuses(route), ", "))
		}
		if schemaName != "" {
			if err := s.validateAgainst(schemaName, header, body); err != nil {
				return res, fmt.Errorf("status %d (documented for every operation, not listed for this one): %w", status, err)
			}
		}
	}
	if route.Path == timelinePath && status == http.StatusOK {
		if err := s.checkTimelineBranches(body); err != nil {
			return res, err
		}
	}
	if checkContent != nil {
		if err := checkContent(); err != nil {
			return res, err
		}
	}
	validated.Add(1)
	return res, nil
}

// routingPath escapes the slashes inside the contents route's {path}:
// GitHub's description has one template variable there that stands for a
// whole file path, which a router matches only as one escaped segment.
func routingPath(path string) string {
	segs := strings.Split(path, "/")
	// "", "repos", owner, repo, "contents", file path segments...
	if len(segs) > 6 && segs[1] == "repos" && segs[4] == "contents" {
		return strings.Join(segs[:5], "/") + "/" + strings.Join(segs[5:], "%2F")
	}
	return path
}

func queryOf(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	return "?" + u.RawQuery
}

func schemaOptions() []openapi3.SchemaValidationOption {
	return []openapi3.SchemaValidationOption{
		openapi3.VisitAsResponse(),
		// Report the path and the reason only: the full schema of an issue
		// printed with every failure would bury the reason.
		openapi3.DisableSchemaErrorDetails(),
		// kin-openapi checks date-time (RFC 3339) out of the box but not
		// uri, which GitHub's description puts on nearly every URL field.
		openapi3.WithStringFormatValidator("uri", openapi3.NewCallbackValidator(validateURI)),
	}
}

// validateURI accepts absolute URIs as RFC 3986 writes them: a scheme, no
// whitespace, and a host for http(s).
func validateURI(v string) error {
	if strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return errors.New("a URI has no whitespace or control characters")
	}
	u, err := url.Parse(v)
	if err != nil {
		return err
	}
	if u.Scheme == "" {
		return errors.New("a URI is absolute: it has a scheme")
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		return errors.New("an http(s) URI has a host")
	}
	return nil
}

// reason unwraps kin-openapi's error to the part that says what is wrong.
func reason(err error) error {
	var re *openapi3filter.ResponseError
	if errors.As(err, &re) && re.Err != nil {
		return fmt.Errorf("%s: %w", re.Reason, re.Err)
	}
	return err
}

// unlistedStatus decides a status the operation's own list lacks. GitHub's
// description lists per operation only the statuses peculiar to it; its REST
// documentation ("Troubleshooting the REST API", "Rate limits for the REST
// API", "Best practices": conditional requests) documents the rest for every
// operation:
//   - 304 to a conditional GET;
//   - 401 for a missing or bad credential;
//   - 403 for a write the credential may not make, or a rate limit;
//   - 429 for a rate limit;
//   - 404 for a resource that does not exist or that the credential cannot see;
//   - 400 ("Problems parsing JSON") and 422 (validation) for a request body;
//   - 400 for a request naming a REST API version GitHub does not support
//     ("API Versions"), on every operation;
//   - 410 for an issue that was deleted, on every issue route;
//   - 500, 502, 503 and 504 for server trouble.
//
// It returns the schema such an answer's body must match ("" for none). Any
// other unlisted status (a 201 where 200 is listed, a 422 on a GET) fails.
func unlistedStatus(route *routers.Route, method string, status int, h http.Header, versionRejected bool) (string, bool) {
	rateLimited := h.Get("X-RateLimit-Remaining") == "0" || h.Get("Retry-After") != ""
	write := method != http.MethodGet && method != http.MethodHead
	hasBody := route.Operation.RequestBody != nil
	switch status {
	case http.StatusNotModified:
		return "", method == http.MethodGet
	case http.StatusUnauthorized, http.StatusNotFound,
		http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return "basic-error", true
	case http.StatusForbidden:
		return "basic-error", rateLimited || write || restrictedReads[route.Path]
	case http.StatusTooManyRequests:
		return "basic-error", rateLimited
	case http.StatusBadRequest:
		return "basic-error", hasBody || versionRejected
	case http.StatusUnprocessableEntity:
		return "validation-error", hasBody
	case http.StatusGone:
		return "basic-error", strings.Contains(route.Path, "{issue_number}")
	}
	return "", false
}

// restrictedReads are GET operations whose documentation limits them to a
// permission the repository's readers may lack, and which GitHub answers
// 403 to the others: "List repository collaborators" needs write, maintain
// or admin privileges ("Must have push access to view repository
// collaborators."). The organization code scanning and secret scanning
// alert lists are for organization owners and security managers, and a
// repository's secret scanning alerts for its administrators (their
// documentation says so; the description lists no 403 for them).
var restrictedReads = map[string]bool{
	"/repos/{owner}/{repo}/collaborators":                         true,
	"/orgs/{org}/code-scanning/alerts":                            true,
	"/orgs/{org}/secret-scanning/alerts":                          true,
	"/repos/{owner}/{repo}/secret-scanning/alerts":                true,
	"/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}": true,
}

func listedStatuses(route *routers.Route) []string {
	var out []string
	for code := range route.Operation.Responses.Map() {
		out = append(out, code)
	}
	slices.Sort(out)
	return out
}

// validateAgainst checks a JSON body against a component schema.
func (s *spec) validateAgainst(schemaName string, header http.Header, body []byte) error {
	schema, err := s.componentSchema(schemaName)
	if err != nil {
		return err
	}
	if mt, _, err := mime.ParseMediaType(header.Get("Content-Type")); err != nil || mt != "application/json" {
		return fmt.Errorf("content-type %q, want application/json", header.Get("Content-Type"))
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("body is not JSON: %w", err)
	}
	if err := schema.VisitJSON(v, schemaOptions()...); err != nil {
		return fmt.Errorf("body does not match %s: %w", schemaName, err)
	}
	return nil
}
