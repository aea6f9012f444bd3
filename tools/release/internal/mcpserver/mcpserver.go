// Package mcpserver checks ghgate's server.json, the entry the MCP registry
// lists, offline: against the registry's published JSON Schema (the
// 2025-12-11 version, with the schema library and version the registry's
// own validator uses) and against the registry's semantic rules that apply
// to an OCI package, decoded strictly into the registry's own types
// (github.com/modelcontextprotocol/registry/pkg/api/v0 at the version
// tools/release/go.mod pins).
//
// What it cannot check offline, the registry checks at publish time: that
// the image exists publicly and carries the name label (ghgate-releasecheck
// checks the label on the image the release built), and that the publisher
// owns the io.github namespace.
package mcpserver

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	apiv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"
	"github.com/modelcontextprotocol/registry/pkg/model"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// SchemaURL is the schema version server.json declares, the registry's
// current one at registry v1.5.0 (model.CurrentSchemaURL).
const SchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// LabelName is the image label through which the registry ties an OCI
// image to a server name: it must equal server.json's name.
const LabelName = "io.modelcontextprotocol.server.name"

//go:embed schema/2025-12-11.json
var schemaJSON []byte

// Server is a decoded server.json.
type Server = apiv0.ServerJSON

// Read decodes and checks the server.json at path.
func Read(path string) (Server, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Server{}, err
	}
	s, err := Check(data)
	if err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Check decodes data strictly (a field the registry's types do not know is
// an error, as a misspelt field would silently be dropped) and checks it
// against the schema and the semantic rules.
func Check(data []byte) (Server, error) {
	var s Server
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("decoding as the registry's ServerJSON: %w", err)
	}
	if err := validateSchema(data); err != nil {
		return s, err
	}
	return s, checkRules(s)
}

func validateSchema(data []byte) error {
	if model.CurrentSchemaURL != SchemaURL {
		return fmt.Errorf("the registry module's current schema is %s, the embedded one %s: update schema/ and server.json together", model.CurrentSchemaURL, SchemaURL)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaURL, bytes.NewReader(schemaJSON)); err != nil {
		return err
	}
	sch, err := c.Compile(SchemaURL)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("against %s: %w", SchemaURL, err)
	}
	return nil
}

var (
	// The registry's server name pattern (internal/validators).
	serverName = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?/[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]$`)
	// A version range or wildcard, which the registry rejects.
	versionRange = regexp.MustCompile(`[\^~<>=*|]|\.[xX](\.|$)|\s-\s`)
	// The OCI registries the registry accepts images from.
	ociRegistries = map[string]bool{"docker.io": true, "index.docker.io": true, "registry-1.docker.io": true, "ghcr.io": true, "mcr.microsoft.com": true}
)

// checkRules applies the registry's semantic rules to what server.json
// uses: the name, the versions, the repository, each OCI package.
func checkRules(s Server) error {
	if s.Schema != SchemaURL {
		return fmt.Errorf("$schema %q, want %q", s.Schema, SchemaURL)
	}
	if !serverName.MatchString(s.Name) {
		return fmt.Errorf("name %q is not namespace/name", s.Name)
	}
	if s.Version == "" || s.Version == "latest" || versionRange.MatchString(s.Version) {
		return fmt.Errorf("version %q is not one specific version", s.Version)
	}
	// GitHub-based namespace authentication: io.github.OWNER/ names
	// belong to the GitHub account OWNER, the repository's owner here.
	if owner, ok := strings.CutPrefix(strings.SplitN(s.Name, "/", 2)[0], "io.github."); ok {
		if s.Repository == nil || s.Repository.Source != "github" ||
			!strings.HasPrefix(s.Repository.URL, "https://github.com/"+owner+"/") {
			return fmt.Errorf("name %q is in GitHub account %s's namespace, but the repository is %+v", s.Name, owner, s.Repository)
		}
	}
	if len(s.Packages) == 0 {
		return fmt.Errorf("no packages")
	}
	for i, p := range s.Packages {
		if err := checkPackage(p, s.Version); err != nil {
			return fmt.Errorf("packages[%d] (%s): %w", i, p.RegistryType, err)
		}
	}
	return nil
}

func checkPackage(p model.Package, version string) error {
	if p.RegistryType != model.RegistryTypeOCI {
		return fmt.Errorf("registry type %q: only oci is described here", p.RegistryType)
	}
	// The registry's OCI rules: the version is the image tag, the
	// identifier a canonical reference on an allowed registry.
	if p.Version != "" || p.RegistryBaseURL != "" || p.FileSHA256 != "" {
		return fmt.Errorf("an OCI package has no version, registryBaseUrl or fileSha256: the identifier carries them")
	}
	ref, err := name.NewTag(p.Identifier, name.StrictValidation)
	if err != nil {
		return fmt.Errorf("identifier %q: %w", p.Identifier, err)
	}
	if !ociRegistries[ref.RegistryStr()] {
		return fmt.Errorf("identifier %q: registry %s is not one the MCP registry accepts", p.Identifier, ref.RegistryStr())
	}
	if want := ImageTag(version); ref.TagStr() != want {
		return fmt.Errorf("identifier %q: tag %s, want %s (server.json's version)", p.Identifier, ref.TagStr(), want)
	}
	if p.Transport.Type != model.TransportTypeStdio {
		return fmt.Errorf("transport %q, want stdio", p.Transport.Type)
	}
	if len(p.RuntimeArguments) > 0 && p.RunTimeHint == "" {
		return fmt.Errorf("runtimeArguments without a runtimeHint")
	}
	for _, a := range append(append([]model.Argument{}, p.RuntimeArguments...), p.PackageArguments...) {
		if strings.ContainsAny(a.Name, " \t") || (a.Type == model.ArgumentTypeNamed && strings.HasPrefix(a.Value, a.Name)) {
			return fmt.Errorf("argument %q=%q: a named argument's value must not repeat its name", a.Name, a.Value)
		}
	}
	token := false
	for _, e := range p.EnvironmentVariables {
		if e.Name == "GITHUB_TOKEN" {
			token = e.IsSecret && e.IsRequired
		}
	}
	if !token {
		return fmt.Errorf("environment variable GITHUB_TOKEN must be listed, required and secret")
	}
	return nil
}

// ImageTag is the image tag of server.json's version: the release's
// stamped version, with the "v" that the OCI layout's ref name has.
func ImageTag(version string) string { return "v" + version }

// ForRelease is s with its version and every OCI identifier's tag set to
// version: what the release publishes beside its archives.
func ForRelease(s Server, version string) (Server, error) {
	s.Version = version
	pkgs := make([]model.Package, len(s.Packages))
	copy(pkgs, s.Packages)
	for i, p := range pkgs {
		ref, err := name.NewTag(p.Identifier, name.StrictValidation)
		if err != nil {
			return s, fmt.Errorf("packages[%d] identifier %q: %w", i, p.Identifier, err)
		}
		pkgs[i].Identifier = ref.Context().Tag(ImageTag(version)).String()
	}
	s.Packages = pkgs
	return s, nil
}

// Marshal is server.json's bytes: indented, ending in a newline.
func Marshal(s Server) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
