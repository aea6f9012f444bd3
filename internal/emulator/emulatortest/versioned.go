package emulatortest

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"

	"github.com/getkin/kin-openapi/openapi3"
)

// versionedOps are operations GitHub's REST docs list for API version
// 2026-03-10 that the OpenAPI description this package validates against
// (@octokit/openapi 23.0.2, the newest the npm registry serves) does not
// yet describe: the related-issue endpoints, listed under "REST API
// endpoints for issues" at docs.github.com/rest/issues/issues?apiVersion=2026-03-10
// as "List issues related to an issue", "Add a related issue" and "Remove a
// related issue", and absent from the 2022-11-28 and GHES docs. Until the
// description has them, their answers are checked here: the success
// bodies against the description's own issue schema (the shape of the
// issue-dependency endpoints beside them), errors against basic-error and
// validation-error, and any request that does not name 2026-03-10 must
// get the 404 of a path GitHub does not serve (a GHES version answers 404
// or, not knowing the version, 400).
var versionedOps = []struct {
	method   string
	template string
	path     *regexp.Regexp
	ok       int
	list     bool
}{
	{"GET", "/repos/{owner}/{repo}/issues/{issue_number}/related", regexp.MustCompile(`^/repos/[^/]+/[^/]+/issues/[0-9]+/related$`), http.StatusOK, true},
	{"POST", "/repos/{owner}/{repo}/issues/{issue_number}/related", regexp.MustCompile(`^/repos/[^/]+/[^/]+/issues/[0-9]+/related$`), http.StatusCreated, false},
	{"DELETE", "/repos/{owner}/{repo}/issues/{issue_number}/related/{issue_id}", regexp.MustCompile(`^/repos/[^/]+/[^/]+/issues/[0-9]+/related/[0-9]+$`), http.StatusOK, false},
}

// relatedAPIVersion is the one version that serves versionedOps.
const relatedAPIVersion = "2026-03-10"

// validateVersioned checks an answer on a versionedOps path; matched is
// false for any other path.
func (s *spec) validateVersioned(method, path string, reqHeader http.Header, status int, header http.Header, body []byte) (res Result, matched bool, err error) {
	for _, op := range versionedOps {
		if op.method != method || !op.path.MatchString(path) {
			continue
		}
		res = Result{Operation: method + " " + op.template, Checked: true}
		served := reqHeader != nil && reqHeader.Get("X-GitHub-Api-Version") == relatedAPIVersion
		if reqHeader == nil {
			// No request headers to judge by: only the shapes are checked.
			served = status != http.StatusNotFound
		}
		schema := ""
		switch {
		case !served && status != http.StatusNotFound:
			return res, true, fmt.Errorf("%s answered %d, but GitHub serves it only in API version %s and not on GHES", res.Operation, status, relatedAPIVersion)
		case status == op.ok && op.list:
			if err := s.validateArrayOf("issue", header, body); err != nil {
				return res, true, err
			}
		case status == op.ok:
			schema = "issue"
		case status == http.StatusNotModified && method == "GET":
		case status == http.StatusUnprocessableEntity && method == "POST":
			schema = "validation-error"
		case status == http.StatusBadRequest,
			status == http.StatusUnauthorized, status == http.StatusNotFound, status == http.StatusGone,
			status == http.StatusForbidden, status == http.StatusTooManyRequests, status >= 500:
			schema = "basic-error"
		default:
			return res, true, fmt.Errorf("status %d is not one GitHub documents for %s", status, res.Operation)
		}
		if schema != "" {
			if err := s.validateAgainst(schema, header, body); err != nil {
				return res, true, err
			}
		}
		validated.Add(1)
		return res, true, nil
	}
	return Result{}, false, nil
}

// validateArrayOf checks a JSON body that is an array of a component
// schema.
func (s *spec) validateArrayOf(schemaName string, header http.Header, body []byte) error {
	item, err := s.componentSchema(schemaName)
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
	arr := openapi3.NewArraySchema().WithItems(item)
	if err := arr.VisitJSON(v, schemaOptions()...); err != nil {
		return fmt.Errorf("body does not match an array of %s: %w", schemaName, err)
	}
	return nil
}
