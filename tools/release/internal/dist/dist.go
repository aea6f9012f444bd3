// Package dist reads what GoReleaser left in its dist directory: the list of
// artifacts (artifacts.json) and the files inside a release archive.
package dist

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Artifact is one entry of dist/artifacts.json, the fields these tools use.
type Artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	Type   string `json:"type"`
}

// The artifact types GoReleaser names in artifacts.json.
const (
	TypeBinary  = "Binary"
	TypeArchive = "Archive"
	TypeSBOM    = "SBOM"
)

// Artifacts reads dir/artifacts.json. Paths in it are relative to the
// directory GoReleaser ran in, the repository root.
func Artifacts(dir string) ([]Artifact, error) {
	data, err := os.ReadFile(filepath.Join(dir, "artifacts.json"))
	if err != nil {
		return nil, err
	}
	var as []Artifact
	if err := json.Unmarshal(data, &as); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "artifacts.json"), err)
	}
	return as, nil
}

// Find is the one artifact of type typ for goos/goarch.
func Find(as []Artifact, typ, goos, goarch string) (Artifact, error) {
	var found []Artifact
	for _, a := range as {
		if a.Type == typ && a.GOOS == goos && a.GOARCH == goarch {
			found = append(found, a)
		}
	}
	if len(found) != 1 {
		return Artifact{}, fmt.Errorf("artifacts.json: %d artifacts of type %s for %s/%s, want 1", len(found), typ, goos, goarch)
	}
	return found[0], nil
}

// BinaryIn is the name of ghgate's binary in a release archive: Windows
// archives (.zip) hold ghgate.exe.
func BinaryIn(archive string) string {
	if strings.HasSuffix(archive, ".zip") {
		return "ghgate.exe"
	}
	return "ghgate"
}

// ReadFromArchive returns the contents of the regular file named name in a
// .tar.gz or .zip archive.
func ReadFromArchive(archive, name string) ([]byte, error) {
	if strings.HasSuffix(archive, ".zip") {
		return readFromZip(archive, name)
	}
	f, err := os.Open(archive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", archive, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, fmt.Errorf("%s: no file %s", archive, name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", archive, err)
		}
		if h.Typeflag == tar.TypeReg && filepath.Clean(h.Name) == name {
			return io.ReadAll(tr)
		}
	}
}

// Metadata is what dist/metadata.json says of the release, the fields these
// tools use. Its date is the build's, not the commit's, so it is not read.
type Metadata struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
}

// ReadMetadata reads dir/metadata.json.
func ReadMetadata(dir string) (Metadata, error) {
	var m Metadata
	data, err := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s: %w", filepath.Join(dir, "metadata.json"), err)
	}
	if m.Version == "" || m.Commit == "" {
		return m, fmt.Errorf("%s: no version or commit", filepath.Join(dir, "metadata.json"))
	}
	return m, nil
}

// StampedVersion is the version as ghgate stamps it (.goreleaser.yaml's ldflags):
// GoReleaser's version with a "v", as Go module versions are written.
func (m Metadata) StampedVersion() string { return "v" + m.Version }

func readFromZip(archive, name string) ([]byte, error) {
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", archive, err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Mode().IsRegular() && filepath.Clean(f.Name) == name {
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", archive, err)
			}
			defer rc.Close()
			return io.ReadAll(rc)
		}
	}
	return nil, fmt.Errorf("%s: no file %s", archive, name)
}
