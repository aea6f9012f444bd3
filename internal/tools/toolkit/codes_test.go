package toolkit

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// accessLayerCodes reads every constant of type github.Code from the
// github package's source, so a code added there is seen here without
// anyone remembering to list it.
func accessLayerCodes(t *testing.T) map[string]github.Code {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("..", "..", "github", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]github.Code{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
					continue
				}
				for i, n := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok {
						t.Fatalf("github.%s = %T, want a string literal", n.Name, vs.Values[i])
					}
					if lit.Kind != token.STRING {
						t.Fatalf("github.%s = %s, want a string literal", n.Name, lit.Value)
					}
					out[n.Name] = github.Code(lit.Value[1 : len(lit.Value)-1])
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no github.Code constants found")
	}
	return out
}

// Every access-layer code maps to the contract code decided for it, and
// MapError carries that code. A code added to the github package without
// an entry in contractCodes (and here) fails this test.
func TestEveryAccessLayerCodeMapsToAContractCode(t *testing.T) {
	want := map[string]contract.Code{
		"MissingCredential":   contract.CodeMissingCredential,
		"InvalidCredential":   contract.CodeInvalidCredential,
		"InsufficientScope":   contract.CodeInsufficientScope,
		"NotFound":            contract.CodeNotFound,
		"Gone":                contract.CodeGone,
		"ValidationFailed":    contract.CodeValidationFailed,
		"Conflict":            contract.CodeConflict,
		"BadRequest":          contract.CodeBadRequest,
		"RateLimited":         contract.CodeRateLimited,
		"UpstreamUnavailable": contract.CodeUpstreamUnavailable,
		"MalformedResponse":   contract.CodeMalformedResponse,
		"InvalidArgument":     contract.CodeInvalidField,
		"Cancelled":           contract.CodeUpstreamUnavailable,
		"Unadmitted":          contract.CodeInternal,
	}
	codes := accessLayerCodes(t)
	for name, code := range codes {
		mapped, ok := contractCodes[code]
		if !ok {
			t.Errorf("github.%s (%q) has no entry in contractCodes", name, code)
			continue
		}
		if !contract.Known(mapped) {
			t.Errorf("github.%s maps to %q, which is not in the contract's catalog", name, mapped)
		}
		w, ok := want[name]
		if !ok {
			t.Errorf("github.%s (%q) has no expected contract code in this test", name, code)
			continue
		}
		if mapped != w {
			t.Errorf("github.%s maps to %q, want %q", name, mapped, w)
		}
		if got := MapError(&github.Error{Code: code, Message: "m"}); got == nil {
			t.Errorf("MapError(github.%s) = nil, want code %q", name, w)
		} else if got.Code != w {
			t.Errorf("MapError(github.%s) code = %q, want %q", name, got.Code, w)
		}
	}
	if len(contractCodes) != len(codes) {
		t.Errorf("contractCodes has %d entries for %d github codes", len(contractCodes), len(codes))
	}
	if got := MapError(&github.Error{Code: "no_such_code"}); got == nil {
		t.Errorf("an unknown access-layer code maps to nil, want %s", contract.CodeUpstreamUnavailable)
	} else if got.Code != contract.CodeUpstreamUnavailable {
		t.Errorf("an unknown access-layer code maps to %s, want %s", got.Code, contract.CodeUpstreamUnavailable)
	}
	if MapError(errors.New("not an access-layer error")) != nil {
		t.Error("MapError mapped an error that is neither contract nor access layer")
	}
}
