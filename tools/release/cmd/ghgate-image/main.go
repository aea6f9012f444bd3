// Command ghgate-image writes ghgate's container image as an OCI layout,
// from the linux binaries GoReleaser built (found through
// dist/artifacts.json), without Docker or a registry:
//
//	ghgate-image -dist dist -date RFC3339 -out dist/oci
//
// The version and commit are dist/metadata.json's; the
// io.modelcontextprotocol.server.name label is server.json's name.
//
// The layout holds an index of linux/amd64 and linux/arm64 images tagged
// with the version (`org.opencontainers.image.ref.name`); load it with, for
// example, `skopeo copy oci:dist/oci:V docker-daemon:ghgate:V` or
// `podman load`, or push it with `crane push dist/oci REF`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"

	"github.com/ghgate/ghgate/tools/release/internal/dist"
	"github.com/ghgate/ghgate/tools/release/internal/image"
	"github.com/ghgate/ghgate/tools/release/internal/mcpserver"
)

func main() {
	var (
		distDir = flag.String("dist", "dist", "GoReleaser's dist directory")
		date    = flag.String("date", "", "the commit's date, RFC 3339 (dist/metadata.json has only the build's)")
		out     = flag.String("out", "", "the OCI layout directory to write (replaced)")
		root    = flag.String("root", ".", "the directory GoReleaser ran in, which artifacts.json paths are relative to")
	)
	flag.Parse()
	if *date == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: ghgate-image -dist DIR -date RFC3339 -out DIR")
		os.Exit(2)
	}
	if err := run(*distDir, *root, *date, *out); err != nil {
		fmt.Fprintln(os.Stderr, "ghgate-image:", err)
		os.Exit(1)
	}
}

func run(distDir, root, date, out string) error {
	created, err := time.Parse(time.RFC3339, date)
	if err != nil {
		return fmt.Errorf("-date: %w", err)
	}
	meta, err := dist.ReadMetadata(distDir)
	if err != nil {
		return err
	}
	version := meta.StampedVersion()
	as, err := dist.Artifacts(distDir)
	if err != nil {
		return err
	}
	// The MCP registry accepts the image for server.json's entry only if
	// it carries that name as a label.
	server, err := mcpserver.Read(filepath.Join(root, "server.json"))
	if err != nil {
		return err
	}
	var platforms []image.Platform
	for _, arch := range []string{"amd64", "arm64"} {
		a, err := dist.Find(as, dist.TypeBinary, "linux", arch)
		if err != nil {
			return err
		}
		bin, err := os.ReadFile(filepath.Join(root, a.Path))
		if err != nil {
			return err
		}
		platforms = append(platforms, image.Platform{Arch: arch, Binary: bin})
	}
	idx, err := image.Index(image.Build{Version: version, Commit: meta.Commit, Created: created,
		Source: "https://github.com/ghgate/ghgate", ServerName: server.Name}, platforms)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	p, err := layout.Write(out, empty.Index)
	if err != nil {
		return err
	}
	if err := p.AppendIndex(idx, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": version,
	})); err != nil {
		return err
	}
	d, err := idx.Digest()
	if err != nil {
		return err
	}
	fmt.Printf("ghgate-image: %s: index %s (linux/amd64, linux/arm64), tag %s\n", out, d, version)
	return nil
}
