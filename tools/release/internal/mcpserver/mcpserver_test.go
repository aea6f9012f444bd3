package mcpserver

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite server.json in the field order Marshal writes")

// repoRoot is the ghgate checkout that holds this module.
var repoRoot = filepath.Join("..", "..", "..", "..")

func readServerJSON(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The checked-in server.json is what the registry accepts: the schema, the
// registry's types and its semantic rules.
func TestServerJSONIsValid(t *testing.T) {
	t.Parallel()
	s, err := Check(readServerJSON(t))
	if err != nil {
		t.Fatalf("server.json: %v", err)
	}
	if s.Name != "io.github.ghgate/ghgate" {
		t.Errorf("name = %q, want io.github.ghgate/ghgate", s.Name)
	}
	p := s.Packages[0]
	if got, want := p.Identifier, "ghcr.io/ghgate/ghgate:v"+s.Version; got != want {
		t.Errorf("identifier = %q, want %q", got, want)
	}
	// The image's entry point serves HTTP; stdio needs the binary with
	// `serve` alone.
	if len(p.RuntimeArguments) != 1 {
		t.Errorf("runtimeArguments = %+v, want one, --entrypoint /ghgate", p.RuntimeArguments)
	} else {
		if a := p.RuntimeArguments[0]; a.Name != "--entrypoint" {
			t.Errorf("runtimeArguments[0].Name = %q, want --entrypoint", a.Name)
		}
		if a := p.RuntimeArguments[0]; a.Value != "/ghgate" {
			t.Errorf("runtimeArguments[0].Value = %q, want /ghgate", a.Value)
		}
	}
	if len(p.PackageArguments) != 1 {
		t.Errorf("packageArguments = %+v, want one, serve", p.PackageArguments)
	} else if v := p.PackageArguments[0].Value; v != "serve" {
		t.Errorf("packageArguments[0].Value = %q, want serve", v)
	}
}

// Each broken copy of server.json is refused, naming what is wrong.
func TestCheckRefuses(t *testing.T) {
	t.Parallel()
	good := string(readServerJSON(t))
	cases := []struct{ name, old, new, want string }{
		{"unknown field", `"title": "ghgate",`, `"title": "ghgate", "homepage": "x",`, `unknown field "homepage"`},
		{"old schema", `2025-12-11/server`, `2025-10-17/server`, `$schema`},
		{"description too long", `"description": "`, `"description": "` + strings.Repeat("x", 100), `maxLength`},
		{"version range", `"version": "0.1.0"`, `"version": "^0.1.0"`, `not one specific version`},
		{"latest", `"version": "0.1.0"`, `"version": "latest"`, `not one specific version`},
		{"tag drifts from version", `ghgate:v0.1.0`, `ghgate:v0.0.9`, `want v0.1.0`},
		{"OCI package with a version", `"registryType": "oci",`, `"registryType": "oci", "version": "0.1.0",`, `no version`},
		{"registry not accepted", `ghcr.io/ghgate`, `quay.io/ghgate`, `not one the MCP registry accepts`},
		{"token not secret", `"isSecret": true`, `"isSecret": false`, `GITHUB_TOKEN`},
		{"namespace not the repository's owner", `"url": "https://github.com/ghgate/ghgate"`, `"url": "https://github.com/someone/ghgate"`, `namespace`},
		{"not stdio", `"type": "stdio"`, `"type": "streamable-http"`, `stdio`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			bad := strings.Replace(good, c.old, c.new, 1)
			if bad == good {
				t.Fatalf("%q is not in server.json: the case tests nothing", c.old)
			}
			_, err := Check([]byte(bad))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Check(%s) = %v, want an error containing %q", c.name, err, c.want)
			}
		})
	}
}

// The release's server.json carries the release's version in the version
// and the image tag, and is still valid.
func TestForRelease(t *testing.T) {
	t.Parallel()
	s, err := Check(readServerJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ForRelease(s, "1.2.3-SNAPSHOT-abcdef0")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Check(out)
	if err != nil {
		t.Fatalf("the release's server.json: %v\n%s", err, out)
	}
	if want := "1.2.3-SNAPSHOT-abcdef0"; back.Version != want {
		t.Errorf("version = %q, want %q", back.Version, want)
	}
	if want := "ghcr.io/ghgate/ghgate:v1.2.3-SNAPSHOT-abcdef0"; back.Packages[0].Identifier != want {
		t.Errorf("identifier = %q, want %q (the version's tag)", back.Packages[0].Identifier, want)
	}
	if s.Packages[0].Identifier == back.Packages[0].Identifier {
		t.Errorf("ForRelease changed the original's packages too")
	}
	// Marshal keeps what the checked-in file says, field for field.
	again, _ := Marshal(s)
	if *update {
		if err := os.WriteFile(filepath.Join(repoRoot, "server.json"), again, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(bytes.TrimSpace(again), bytes.TrimSpace(readServerJSON(t))) {
		t.Errorf("Marshal(server.json) differs from the file:\n%s", again)
	}
}

// server.json names the newest release CHANGELOG.md has a section for, so
// a release that forgets to bump it fails here (and ghgate-releasecheck
// fails a tagged release whose version differs).
func TestVersionMatchesChangelog(t *testing.T) {
	t.Parallel()
	s, err := Check(readServerJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(repoRoot, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^## \[v?(\d+\.\d+\.\d+[^\]]*)\]`).FindSubmatch(log)
	if m == nil {
		t.Skip("CHANGELOG.md has no released version yet; server.json's " + s.Version + " is the first")
	}
	if string(m[1]) != s.Version {
		t.Errorf("server.json version = %q, want CHANGELOG.md's newest release %q", s.Version, m[1])
	}
}
