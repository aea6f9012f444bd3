// Command ghgate-releasecheck checks, offline, a release that GoReleaser
// and ghgate-image built:
//
//	ghgate-releasecheck -dist dist -date RFC3339 -oci dist/oci -pubkey KEY.pub
//
// or, for a user, the archives of a release they downloaded (see
// docs/install.md):
//
//	ghgate-releasecheck verify -pubkey ghgate-release.pub [-dir DIR]
//
// It checks that:
//   - checksums.txt's signature verifies with the public key, every
//     archive's sha256 is the one it lists, and every archive's provenance
//     (an in-toto statement in a DSSE envelope) verifies, names the archive
//     by its digest, the release's commit and version, and a builder;
//   - the release's server.json (the MCP registry's entry) passes the
//     registry's schema and rules, carries the release's version and image
//     tag, and, for a tagged release, the checked-in server.json already
//     says that version;
//   - the binary for this machine's platform prints, as `ghgate version`,
//     the version and commit of dist/metadata.json and the commit's date;
//   - each archive holds the binary, the licence and docs, completions and
//     man pages;
//   - each archive's SBOM is SPDX 2.3, names the archive by its digest and
//     the binary inside by its, and lists the modules the binary was built
//     with;
//   - the OCI layout's blobs match their digests and sizes, its index has
//     linux/amd64 and linux/arm64, and each image's config runs the binary
//     as the non-root user with serve --http as the entry point and a
//     health check, labelled with server.json's name;
//   - the binary in each image's layer is byte for byte the one in that
//     platform's release archive.
//
// It prints one line per check and exits non-zero on the first failure.
package main

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/validate"

	"github.com/ghgate/ghgate/tools/release/internal/dist"
	"github.com/ghgate/ghgate/tools/release/internal/image"
	"github.com/ghgate/ghgate/tools/release/internal/mcpserver"
	"github.com/ghgate/ghgate/tools/release/internal/signing"
	"github.com/ghgate/ghgate/tools/release/internal/spdx"
	"github.com/ghgate/ghgate/tools/release/internal/verify"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "verify" {
		os.Exit(verifyCommand(os.Args[2:]))
	}
	distDir := flag.String("dist", "dist", "GoReleaser's dist directory")
	root := flag.String("root", ".", "the directory GoReleaser ran in")
	date := flag.String("date", "", "the commit's date, RFC 3339 in UTC, as the binaries should print it")
	oci := flag.String("oci", "", "the OCI layout ghgate-image wrote")
	pubkey := flag.String("pubkey", "", "the release's public key (PEM), which checksums.txt.sig and the provenance verify with")
	flag.Parse()
	if *date == "" || *oci == "" || *pubkey == "" {
		fmt.Fprintln(os.Stderr, "usage: ghgate-releasecheck -dist DIR -date RFC3339 -oci DIR -pubkey FILE")
		os.Exit(2)
	}
	if err := run(*distDir, *root, *date, *oci, *pubkey); err != nil {
		fmt.Fprintln(os.Stderr, "ghgate-releasecheck: FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("ghgate-releasecheck: all checks passed")
}

// targets are the platforms every release has an archive for. Windows
// (zip archives holding ghgate.exe) is checked too when the release has it.
var targets = []struct{ goos, goarch string }{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}}

func run(distDir, root, date, oci, pubkeyPath string) error {
	meta, err := dist.ReadMetadata(distDir)
	if err != nil {
		return err
	}
	version := meta.StampedVersion()
	as, err := dist.Artifacts(distDir)
	if err != nil {
		return err
	}
	if err := checkVersion(as, root, meta, date); err != nil {
		return err
	}
	all := targets
	for _, goarch := range []string{"amd64", "arm64"} {
		if _, err := dist.Find(as, dist.TypeArchive, "windows", goarch); err == nil {
			all = append(all, struct{ goos, goarch string }{"windows", goarch})
		}
	}
	archiveBinary := map[string][]byte{} // goarch -> linux binary in the archive
	for _, t := range all {
		a, err := dist.Find(as, dist.TypeArchive, t.goos, t.goarch)
		if err != nil {
			return err
		}
		path := filepath.Join(root, a.Path)
		bin, err := checkArchive(path, version)
		if err != nil {
			return err
		}
		if t.goos == "linux" {
			archiveBinary[t.goarch] = bin
		}
		if err := checkSBOM(path+".sbom.json", path, bin, version); err != nil {
			return err
		}
	}
	if err := checkSignatures(distDir, pubkeyPath, meta, len(all)); err != nil {
		return err
	}
	server, err := checkServerJSON(distDir, root, meta)
	if err != nil {
		return err
	}
	return checkImage(oci, version, server.Name, archiveBinary)
}

// checkSignatures verifies checksums.txt's signature and every archive's
// provenance, as a user would (docs/install.md), and that a tampered
// archive is refused.
func checkSignatures(distDir, pubkeyPath string, meta dist.Metadata, archives int) error {
	pub, err := signing.LoadPublic(pubkeyPath)
	if err != nil {
		return err
	}
	vs, err := verify.Release(distDir, pub, verify.Options{All: true, Commit: meta.Commit, Version: meta.StampedVersion()})
	if err != nil {
		return err
	}
	if len(vs) != archives {
		return fmt.Errorf("%d archives verified, want %d", len(vs), archives)
	}
	fmt.Printf("ok  %s: signature verifies with %s\n", verify.ChecksumsSig, filepath.Base(pubkeyPath))
	for _, v := range vs {
		fmt.Printf("ok  %s%s: signed SLSA v1 provenance, subject sha256:%s, commit %s, builder %s\n",
			v.Name, verify.ProvenanceSuffix, v.SHA256[:16], v.Commit[:12], v.Builder)
	}
	return nil
}

// checkServerJSON checks the release's server.json (written by
// ghgate-serverjson and listed in checksums.txt) and that the checked-in
// one has not drifted from a tagged release's version.
func checkServerJSON(distDir, root string, meta dist.Metadata) (mcpserver.Server, error) {
	path := filepath.Join(distDir, "server.json")
	s, err := mcpserver.Read(path)
	if err != nil {
		return s, err
	}
	if s.Version != meta.Version {
		return s, fmt.Errorf("%s: version %q, want the release's %q", path, s.Version, meta.Version)
	}
	checkedIn, err := mcpserver.Read(filepath.Join(root, "server.json"))
	if err != nil {
		return s, err
	}
	if checkedIn.Name != s.Name {
		return s, fmt.Errorf("%s: name %q, the checked-in server.json's is %q", path, s.Name, checkedIn.Name)
	}
	if err := versionsAgree(checkedIn.Version, meta.Version); err != nil {
		return s, err
	}
	fmt.Printf("ok  %s: MCP registry schema 2025-12-11 and rules, %s %s, image %s\n", path, s.Name, s.Version, s.Packages[0].Identifier)
	return s, nil
}

// versionsAgree fails a tagged release whose checked-in server.json still
// names another version: the registry entry would point at the wrong
// image. A snapshot's version is the commit's, so it is exempt.
func versionsAgree(checkedIn, release string) error {
	if strings.Contains(release, "-SNAPSHOT-") {
		return nil
	}
	if checkedIn != release {
		return fmt.Errorf("server.json says version %q but the release is %q: bump server.json with the tag", checkedIn, release)
	}
	return nil
}

// verifyCommand is `ghgate-releasecheck verify`: a user's check of the
// archives they downloaded.
func verifyCommand(args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	dir := fs.String("dir", ".", "the directory holding checksums.txt, checksums.txt.sig, the archives and their .intoto.jsonl")
	pubkey := fs.String("pubkey", "", "the release's public key (PEM), as the project publishes it")
	if err := fs.Parse(args); err != nil || *pubkey == "" {
		fmt.Fprintln(os.Stderr, "usage: ghgate-releasecheck verify -pubkey ghgate-release.pub [-dir DIR]")
		return 2
	}
	pub, err := signing.LoadPublic(*pubkey)
	if err == nil {
		var vs []verify.Verified
		if vs, err = verify.Release(*dir, pub, verify.Options{}); err == nil {
			fmt.Printf("ok  %s: signature verifies\n", verify.ChecksumsSig)
			for _, v := range vs {
				fmt.Printf("ok  %s: sha256 %s as signed; provenance: %s built from commit %s by %s\n", v.Name, v.SHA256, v.Version, v.Commit, v.Builder)
			}
			return 0
		}
	}
	fmt.Fprintln(os.Stderr, "ghgate-releasecheck: FAIL:", err)
	return 1
}

// checkVersion runs `ghgate version` of the binary built for this machine
// and compares what it prints with the release's version, commit and date.
func checkVersion(as []dist.Artifact, root string, meta dist.Metadata, date string) error {
	a, err := dist.Find(as, dist.TypeBinary, runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return err
	}
	out, err := exec.Command(filepath.Join(root, a.Path), "version").Output()
	if err != nil {
		return fmt.Errorf("%s version: %w", a.Path, err)
	}
	want := fmt.Sprintf("ghgate %s (commit %s, %s)", meta.StampedVersion(), meta.Commit[:12], date)
	got := strings.TrimSpace(string(out))
	if got != want {
		return fmt.Errorf("%s version printed %q, want %q", a.Path, got, want)
	}
	fmt.Printf("ok  %s version: %s\n", a.Path, got)
	return nil
}

// checkArchive returns the binary in the archive after checking the
// archive ships what a user installs: the licence, completions, man pages.
func checkArchive(path, version string) ([]byte, error) {
	binary := dist.BinaryIn(path)
	for _, f := range []string{"LICENSE", "README.md", "CHANGELOG.md", "SECURITY.md",
		"completions/ghgate.bash", "completions/ghgate.zsh", "completions/ghgate.fish",
		"man/ghgate.1", "man/ghgate-serve.1",
		"deploy/ghgate-broker.service", "deploy/provision.sh", "deploy/broker.example.toml"} {
		if _, err := dist.ReadFromArchive(path, f); err != nil {
			return nil, err
		}
	}
	bin, err := dist.ReadFromArchive(path, binary)
	if err != nil {
		return nil, err
	}
	fmt.Printf("ok  %s: %s, LICENSE, docs, completions (bash, zsh, fish), man pages, deploy/\n", filepath.Base(path), binary)
	return bin, nil
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func checkSBOM(path, archivePath string, bin []byte, version string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc spdx.Document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if doc.SPDXVersion != "SPDX-2.3" || doc.DataLicense != "CC0-1.0" || doc.SPDXID != "SPDXRef-DOCUMENT" || doc.CreationInfo.Created == "" {
		return fmt.Errorf("%s: not an SPDX 2.3 document header: %s %s %s", path, doc.SPDXVersion, doc.DataLicense, doc.SPDXID)
	}
	archive, err := os.ReadFile(archivePath)
	if err != nil {
		return err
	}
	byID := map[string]spdx.Package{}
	for _, p := range doc.Packages {
		byID[p.SPDXID] = p
	}
	if p := byID["SPDXRef-Archive"]; len(p.Checksums) != 1 || p.Checksums[0].ChecksumValue != sum(archive) {
		return fmt.Errorf("%s: the archive package's checksum is not %s's", path, filepath.Base(archivePath))
	}
	main := byID["SPDXRef-Package-github.com-ghgate-ghgate"]
	if main.VersionInfo != version || len(main.Checksums) != 1 || main.Checksums[0].ChecksumValue != sum(bin) {
		return fmt.Errorf("%s: the ghgate package is not the binary in the archive at %s: %+v", path, version, main)
	}
	info, err := buildinfo.Read(bytes.NewReader(bin))
	if err != nil {
		return err
	}
	var names []string
	for _, p := range doc.Packages {
		names = append(names, p.Name+"@"+p.VersionInfo)
	}
	for _, d := range info.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		if !slices.Contains(names, m.Path+"@"+m.Version) {
			return fmt.Errorf("%s: module %s@%s, linked into the binary, is missing", path, m.Path, m.Version)
		}
	}
	rels := 0
	for _, r := range doc.Relationships {
		if r.RelationshipType == "DEPENDS_ON" && r.SPDXElementID == main.SPDXID {
			rels++
		}
		if byID[r.RelatedSPDXElement].SPDXID == "" {
			return fmt.Errorf("%s: relationship to an undefined element %s", path, r.RelatedSPDXElement)
		}
	}
	if rels != len(info.Deps)+1 {
		return fmt.Errorf("%s: %d DEPENDS_ON relationships, want %d", path, rels, len(info.Deps)+1)
	}
	fmt.Printf("ok  %s: SPDX 2.3, archive and binary digests match, %d modules and %s\n", filepath.Base(path), len(info.Deps), info.GoVersion)
	return nil
}

func checkImage(oci, version, serverName string, archiveBinary map[string][]byte) error {
	top, err := layout.ImageIndexFromPath(oci)
	if err != nil {
		return err
	}
	tm, err := top.IndexManifest()
	if err != nil {
		return err
	}
	if len(tm.Manifests) != 1 || tm.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != version {
		return fmt.Errorf("%s/index.json: want one index tagged %s, got %+v", oci, version, tm.Manifests)
	}
	idx, err := top.ImageIndex(tm.Manifests[0].Digest)
	if err != nil {
		return err
	}
	// Every blob's digest and size, every config's diff IDs, every
	// platform against its config.
	if err := validate.Index(idx); err != nil {
		return fmt.Errorf("%s: %w", oci, err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, m := range im.Manifests {
		if m.Platform == nil || m.Platform.OS != "linux" {
			return fmt.Errorf("%s: manifest %s has platform %v", oci, m.Digest, m.Platform)
		}
		arch := m.Platform.Architecture
		seen[arch] = true
		img, err := idx.Image(m.Digest)
		if err != nil {
			return err
		}
		if err := checkConfig(img, version, serverName); err != nil {
			return fmt.Errorf("linux/%s: %w", arch, err)
		}
		inLayer, err := fileInImage(img, image.BinaryPath[1:])
		if err != nil {
			return fmt.Errorf("linux/%s: %w", arch, err)
		}
		want, ok := archiveBinary[arch]
		if !ok {
			return fmt.Errorf("linux/%s: no release archive for this image", arch)
		}
		if sum(inLayer) != sum(want) {
			return fmt.Errorf("linux/%s: %s in the image is %s, the archive's is %s", arch, image.BinaryPath, sum(inLayer), sum(want))
		}
		fmt.Printf("ok  image linux/%s: user %s, entrypoint %q, health check %q, label %s=%s, %s sha256:%s as in the archive\n",
			arch, image.User, image.Entrypoint, image.Healthcheck.Test, image.ServerNameLabel, serverName, image.BinaryPath, sum(inLayer)[:16])
	}
	if !seen["amd64"] || !seen["arm64"] || len(seen) != 2 {
		return fmt.Errorf("%s: platforms %v, want linux/amd64 and linux/arm64", oci, seen)
	}
	return nil
}

func checkConfig(img v1.Image, version, serverName string) error {
	cf, err := img.ConfigFile()
	if err != nil {
		return err
	}
	c := cf.Config
	switch {
	case c.User != image.User:
		return fmt.Errorf("config User %q, want %q", c.User, image.User)
	case !slices.Equal(c.Entrypoint, image.Entrypoint):
		return fmt.Errorf("config Entrypoint %q, want %q", c.Entrypoint, image.Entrypoint)
	case c.Healthcheck == nil || !slices.Equal(c.Healthcheck.Test, image.Healthcheck.Test) || c.Healthcheck.Interval <= 0:
		return fmt.Errorf("config Healthcheck %+v, want %+v", c.Healthcheck, image.Healthcheck)
	case c.Labels[image.ServerNameLabel] != serverName:
		return fmt.Errorf("config label %s %q, want server.json's name %q", image.ServerNameLabel, c.Labels[image.ServerNameLabel], serverName)
	case c.Labels["org.opencontainers.image.version"] != version:
		return fmt.Errorf("config label version %q, want %q", c.Labels["org.opencontainers.image.version"], version)
	}
	if _, ok := c.ExposedPorts[image.Port+"/tcp"]; !ok {
		return fmt.Errorf("config ExposedPorts %v lacks %s/tcp", c.ExposedPorts, image.Port)
	}
	return nil
}

// fileInImage reads a regular file from the image's layers, the topmost
// layer's copy winning.
func fileInImage(img v1.Image, name string) ([]byte, error) {
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	var found []byte
	for _, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			return nil, err
		}
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rc.Close()
				return nil, err
			}
			if filepath.Clean(h.Name) == name && h.Typeflag == tar.TypeReg {
				if h.Uid != 0 || h.Mode&0o022 != 0 {
					rc.Close()
					return nil, fmt.Errorf("%s is owned by uid %d with mode %o: the user could replace it", name, h.Uid, h.Mode)
				}
				if found, err = io.ReadAll(tr); err != nil {
					rc.Close()
					return nil, err
				}
			}
		}
		rc.Close()
	}
	if found == nil {
		return nil, fmt.Errorf("no %s in the image's layers", name)
	}
	return found, nil
}
