package emulatortest

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// prunedSpec is GitHub's OpenAPI description cut down to the operations the
// emulator serves, as scripts/pruneopenapi writes it.
//
//go:embed openapi/api.github.com.pruned.json
var prunedSpec []byte

// spec is the parsed description and a router over it, built once per test
// binary: parsing costs far less than the full 13 MB file, but still more
// than a test should pay per request.
type spec struct {
	doc    *openapi3.T
	router routers.Router
	source string
}

var (
	specOnce   sync.Once
	loadedSpec *spec
	specErr    error
)

func loadSpec() (*spec, error) {
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(prunedSpec)
		if err != nil {
			specErr = fmt.Errorf("emulatortest: load pruned OpenAPI description: %w", err)
			return
		}
		if err := doc.Validate(context.Background()); err != nil {
			specErr = fmt.Errorf("emulatortest: pruned OpenAPI description is invalid: %w", err)
			return
		}
		// The router keeps GitHub's server (https://api.github.com): the
		// validator routes a copy of each request addressed to it.
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			specErr = fmt.Errorf("emulatortest: route pruned OpenAPI description: %w", err)
			return
		}
		src, _ := doc.Info.Extensions["x-source"].(string)
		if src == "" {
			specErr = fmt.Errorf("emulatortest: pruned OpenAPI description has no info.x-source")
			return
		}
		loadedSpec = &spec{doc: doc, router: router, source: src}
	})
	return loadedSpec, specErr
}

// Source names the npm package and version the pruned description came
// from, e.g. "@octokit/openapi@23.0.2".
func Source() string {
	s, err := loadSpec()
	if err != nil {
		return "(unloadable OpenAPI description: " + err.Error() + ")"
	}
	return s.source
}

// componentSchema returns a schema from components/schemas.
func (s *spec) componentSchema(name string) (*openapi3.Schema, error) {
	ref := s.doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		return nil, fmt.Errorf("the pruned description has no schema %q", name)
	}
	return ref.Value, nil
}

// ResponseSchema is the JSON body schema GitHub's description gives for an
// operation ("METHOD /template") and status, for tests that compare shapes
// key by key; nil when that response has no body.
func ResponseSchema(operation string, status int) (*openapi3.Schema, error) {
	s, err := loadSpec()
	if err != nil {
		return nil, err
	}
	method, path, ok := strings.Cut(operation, " ")
	if !ok {
		return nil, fmt.Errorf("operation %q is not \"METHOD /template\"", operation)
	}
	item := s.doc.Paths.Value(path)
	if item == nil || item.GetOperation(method) == nil {
		return nil, fmt.Errorf("the pruned description has no operation %q", operation)
	}
	resp := item.GetOperation(method).Responses.Status(status)
	if resp == nil || resp.Value == nil {
		return nil, fmt.Errorf("%s lists no %d response", operation, status)
	}
	mt := resp.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil, nil
	}
	return mt.Schema.Value, nil
}
