package graphql

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/ghgate/ghgate/internal/emulator/faults"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// LoadSchema parses the embedded schema once per process: it is
// constant, and every emulator shares the parsed form read-only.
var LoadSchema = sync.OnceValues(func() (*ast.Schema, error) {
	return gqlparser.LoadSchema(&ast.Source{Name: "github.graphql", Input: schema.Pruned})
})

// graphQLServer answers /graphql and /api/graphql.
type graphQLServer struct {
	limits *faults.RateLimiter
	schema *ast.Schema
	reg    *resolvers
	rules  *rules.Rules
}

// NewHandler builds the GraphQL endpoint; limits answers
// Query.rateLimit.
func NewHandler(limits *faults.RateLimiter) (http.Handler, error) {
	schema, err := LoadSchema()
	if err != nil {
		// Only a corrupt build gets here; the schema test catches it first.
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			wire.WriteJSON(w, http.StatusInternalServerError, wire.ErrorBody{Message: "emulator: embedded GraphQL schema: " + err.Error()})
		}), nil
	}
	reg, err := newResolvers()
	if err != nil {
		return nil, err
	}
	return &graphQLServer{limits: limits, schema: schema, reg: reg, rules: ValidationRules(schema)}, nil
}

// gqlRequest is the POST body GitHub accepts. Query is raw so that a query
// that is present but not a string answers as GitHub does.
type gqlRequest struct {
	Query         json.RawMessage `json:"query"`
	Variables     json.RawMessage `json:"variables"`
	OperationName string          `json:"operationName"`
}

// gqlResponse is a GraphQL response. Data is left out when the document
// never ran (a validation error), and is null when the root was nulled.
type gqlResponse struct {
	Data   json.RawMessage `json:"data,omitempty"`
	Errors []gqlErrorJSON  `json:"errors,omitempty"`
}

func (s *graphQLServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := wire.CallFrom(r)
	defer func() {
		// A resolver bug answers as GitHub answers its own failures, never
		// as a dropped connection.
		if v := recover(); v != nil {
			wire.WriteJSON(w, http.StatusOK, gqlResponse{Data: json.RawMessage("null"), Errors: []gqlErrorJSON{{
				Message: fmt.Sprintf("Something went wrong while executing your query. (emulator: %v)", v)}}})
		}
	}()
	if r.Method != http.MethodPost {
		c.Fail(http.StatusNotFound, "Not Found", "graphql")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 10<<20))
	var req gqlRequest
	if err != nil || json.Unmarshal(body, &req) != nil {
		c.Fail(http.StatusBadRequest, "Problems parsing JSON", "graphql")
		return
	}
	var query string
	if json.Unmarshal(req.Query, &query) != nil || strings.TrimSpace(query) == "" {
		wire.WriteJSON(w, http.StatusOK, gqlResponse{Errors: []gqlErrorJSON{{Message: "A query attribute must be specified and must be a string."}}})
		return
	}
	vars := map[string]any{}
	if len(req.Variables) > 0 && string(req.Variables) != "null" {
		if json.Unmarshal(req.Variables, &vars) != nil {
			c.Fail(http.StatusBadRequest, "Problems parsing JSON", "graphql")
			return
		}
	}
	wire.WriteJSON(w, http.StatusOK, s.execute(c, query, req.OperationName, vars))
}

// execute parses, validates and runs one document.
func (s *graphQLServer) execute(c *wire.Call, query, operationName string, rawVars map[string]any) gqlResponse {
	doc, perr := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if perr != nil {
		return gqlResponse{Errors: []gqlErrorJSON{parseError(perr)}}
	}
	if errs := validator.ValidateWithRules(s.schema, doc, s.rules); len(errs) > 0 {
		return gqlResponse{Errors: validationErrors(doc, inDocumentOrder(s.schema, doc, errs))}
	}
	op, msg := pickOperation(doc, operationName)
	if op == nil {
		return gqlResponse{Errors: []gqlErrorJSON{{Message: msg}}}
	}
	vars, verr := validator.VariableValues(s.schema, op, rawVars)
	if verr != nil {
		return gqlResponse{Errors: []gqlErrorJSON{variableError(op, verr)}}
	}

	if op.Operation == ast.Mutation {
		c.State.Lock()
		defer c.State.Unlock()
	} else {
		c.State.RLock()
		defer c.State.RUnlock()
	}
	ex := &execution{schema: s.schema, reg: s.reg, doc: doc, vars: vars, x: &gqlContext{c: c, st: c.State, limits: s.limits}}
	data := ex.run(op)
	out := gqlResponse{Data: json.RawMessage("null"), Errors: ex.errs}
	if data != nil {
		b, err := json.Marshal(data)
		if err != nil {
			return gqlResponse{Data: json.RawMessage("null"), Errors: []gqlErrorJSON{{Message: "emulator: " + err.Error()}}}
		}
		out.Data = b
	}
	return out
}

// pickOperation chooses the operation to run, with graphql-ruby's messages
// when the choice is ambiguous or names nothing.
func pickOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, string) {
	if name != "" {
		if op := doc.Operations.ForName(name); op != nil {
			return op, ""
		}
		return nil, fmt.Sprintf("No operation named %q", name)
	}
	switch len(doc.Operations) {
	case 0:
		return nil, "No operations in query document"
	case 1:
		return doc.Operations[0], ""
	}
	return nil, "An operation name is required"
}

// parseError reports a syntax error as GitHub does, at its location.
func parseError(err error) gqlErrorJSON {
	out := gqlErrorJSON{Message: err.Error()}
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		out.Message = "Parse error: " + ge.Message
		out.Locations = locationsOf(ge)
	}
	return out
}

// validationErrors reports the validator's findings in GitHub's words, each
// with the path graphql-ruby gives it ("query Name", then the fields).
func validationErrors(doc *ast.QueryDocument, errs gqlerror.List) []gqlErrorJSON {
	out := make([]gqlErrorJSON, 0, len(errs))
	for _, e := range errs {
		locs := locationsOf(e)
		var path []any
		operation := "anonymous query"
		if len(locs) > 0 {
			path = documentPath(doc, locs[0])
		}
		if len(path) > 0 {
			// graphql-ruby names an operation by its name, or as
			// "anonymous query" when it has none.
			if s, ok := path[0].(string); ok {
				kind, name, named := strings.Cut(s, " ")
				operation = "anonymous " + kind
				if named {
					operation = name
				}
			}
		}
		msg, ext := githubValidationMessage(e.Message, operation)
		out = append(out, gqlErrorJSON{Path: path, Extensions: ext, Locations: locs, Message: msg})
	}
	return out
}

// variableError reports a variable that does not fit its declared type.
func variableError(op *ast.OperationDefinition, err error) gqlErrorJSON {
	var ge *gqlerror.Error
	if !errors.As(err, &ge) || len(ge.Path) < 2 {
		return gqlErrorJSON{Message: err.Error()}
	}
	name := fmt.Sprint(ge.Path[1])
	out := gqlErrorJSON{Message: err.Error()}
	if def := op.VariableDefinitions.ForName(name); def != nil {
		out.Message = fmt.Sprintf("Variable $%s of type %s was provided invalid value", name, def.Type.String())
		if def.Position != nil {
			out.Locations = []gqlLocation{{Line: def.Position.Line, Column: def.Position.Column}}
		}
		var problemPath []any
		for _, p := range ge.Path[2:] {
			problemPath = append(problemPath, p)
		}
		if problemPath == nil {
			problemPath = []any{}
		}
		out.Extensions = map[string]any{"problems": []map[string]any{{"path": problemPath, "explanation": ge.Message}}}
	}
	return out
}
