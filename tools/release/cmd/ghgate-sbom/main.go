// Command ghgate-sbom writes an SPDX 2.3 JSON SBOM for a ghgate release
// archive, from the build information Go embeds in the binary inside it. It
// is GoReleaser's SBOM cataloger (`sboms.cmd` in .goreleaser.yaml):
//
//	ghgate-sbom -version v0.1.0 ARCHIVE DOCUMENT
//
// GoReleaser's default cataloger is syft, a large program; ghgate's
// archives hold one Go binary, whose embedded module list is the whole
// bill of materials, so the standard library reads it (debug/buildinfo).
// The document's time is SOURCE_DATE_EPOCH (the commit's), so every build
// of one commit writes the same bytes.
package main

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ghgate/ghgate/tools/release/internal/dist"
	"github.com/ghgate/ghgate/tools/release/internal/spdx"
)

func main() {
	version := flag.String("version", "", "the release version")
	binary := flag.String("binary", "", "the binary's name inside the archive (default ghgate, ghgate.exe in a .zip)")
	license := flag.String("license", "MIT", "the main module's licence, an SPDX expression")
	flag.Parse()
	if flag.NArg() != 2 || *version == "" {
		fmt.Fprintln(os.Stderr, "usage: ghgate-sbom -version VERSION ARCHIVE DOCUMENT")
		os.Exit(2)
	}
	if err := run(*version, *binary, *license, flag.Arg(0), flag.Arg(1)); err != nil {
		fmt.Fprintln(os.Stderr, "ghgate-sbom:", err)
		os.Exit(1)
	}
}

func run(version, binary, license, archivePath, docPath string) error {
	epoch := os.Getenv("SOURCE_DATE_EPOCH")
	secs, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return fmt.Errorf("SOURCE_DATE_EPOCH %q: the commit's time is needed, so the document is reproducible", epoch)
	}
	archive, err := os.ReadFile(archivePath)
	if err != nil {
		return err
	}
	if binary == "" {
		binary = dist.BinaryIn(archivePath)
	}
	bin, err := dist.ReadFromArchive(archivePath, binary)
	if err != nil {
		return err
	}
	info, err := buildinfo.Read(bytes.NewReader(bin))
	if err != nil {
		return fmt.Errorf("%s in %s: %w", binary, archivePath, err)
	}
	doc, err := spdx.New(spdx.Input{
		ArchiveName: filepath.Base(archivePath), Archive: archive, BinaryName: binary, Binary: bin,
		Build: info, Version: version, License: license, Created: time.Unix(secs, 0),
		Namespace: "https://github.com/ghgate/ghgate/releases/spdx", Tool: "ghgate-sbom",
	})
	if err != nil {
		return err
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(docPath, append(out, '\n'), 0o644)
}
