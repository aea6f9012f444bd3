// Command ghgate-serverjson writes the server.json a release publishes: the
// checked-in server.json (the MCP registry's entry) with the release's
// version as its version and as the image tag. GoReleaser runs it as a
// before hook:
//
//	ghgate-serverjson -version 1.2.3 -in server.json -out build/server.json
//
// Both files are checked against the registry's schema and rules
// (internal/mcpserver); a release whose server.json would not be accepted
// fails here.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ghgate/ghgate/tools/release/internal/mcpserver"
)

func main() {
	version := flag.String("version", "", "the release's version, without the v (GoReleaser's .Version)")
	in := flag.String("in", "server.json", "the checked-in server.json")
	out := flag.String("out", "", "where to write the release's server.json")
	flag.Parse()
	if *version == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: ghgate-serverjson -version V -in server.json -out FILE")
		os.Exit(2)
	}
	if err := run(*version, *in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "ghgate-serverjson:", err)
		os.Exit(1)
	}
}

func run(version, in, out string) error {
	s, err := mcpserver.Read(in)
	if err != nil {
		return err
	}
	r, err := mcpserver.ForRelease(s, version)
	if err != nil {
		return err
	}
	data, err := mcpserver.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := mcpserver.Check(data); err != nil {
		return fmt.Errorf("the release's server.json: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
