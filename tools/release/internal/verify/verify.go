// Package verify checks a downloaded or freshly built release against the
// release's public key: checksums.txt's signature, each archive's digest
// in it, and each archive's signed provenance. ghgate-releasecheck uses it
// on the whole release; users run `ghgate-releasecheck verify` on what
// they downloaded (docs/install.md).
package verify

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ghgate/ghgate/tools/release/internal/provenance"
	"github.com/ghgate/ghgate/tools/release/internal/signing"
)

// The release's file names.
const (
	Checksums = "checksums.txt"
	// ChecksumsSig is the signature over checksums.txt.
	ChecksumsSig = Checksums + ".sig"
	// ProvenanceSuffix follows an archive's name for its provenance.
	ProvenanceSuffix = ".intoto.jsonl"
)

// Options say what to expect.
type Options struct {
	// All requires every archive checksums.txt lists to be present (the
	// release check); otherwise those present are checked, at least one.
	All bool
	// Commit and Version, when set, are what every provenance must name.
	Commit, Version string
}

// Verified is one archive that passed.
type Verified struct {
	Name, SHA256, Commit, Version, Builder string
}

// IsArchive says whether a release file is an archive (not an SBOM,
// signature or provenance).
func IsArchive(name string) bool {
	return strings.HasSuffix(name, ".tar.gz") || strings.HasSuffix(name, ".zip")
}

// Release verifies the release files in dir with pub.
func Release(dir string, pub ed25519.PublicKey, opts Options) ([]Verified, error) {
	sums, err := os.ReadFile(filepath.Join(dir, Checksums))
	if err != nil {
		return nil, err
	}
	sig, err := os.ReadFile(filepath.Join(dir, ChecksumsSig))
	if err != nil {
		return nil, err
	}
	if err := signing.VerifyBlob(pub, sums, sig); err != nil {
		return nil, fmt.Errorf("%s: %w", ChecksumsSig, err)
	}
	listed, err := parseChecksums(sums)
	if err != nil {
		return nil, err
	}
	var out []Verified
	for _, l := range listed {
		if !IsArchive(l.name) {
			continue
		}
		path := filepath.Join(dir, l.name)
		archive, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) && !opts.All {
			continue
		}
		if err != nil {
			return nil, err
		}
		if got := provenance.Sum(archive); got != l.sum {
			return nil, fmt.Errorf("%s: sha256 %s, but the signed checksums.txt says %s", l.name, got, l.sum)
		}
		v, err := checkProvenance(path, l.name, archive, pub, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: none of the archives checksums.txt lists is there", dir)
	}
	return out, nil
}

func checkProvenance(path, name string, archive []byte, pub ed25519.PublicKey, opts Options) (Verified, error) {
	env, err := os.ReadFile(path + ProvenanceSuffix)
	if err != nil {
		return Verified{}, fmt.Errorf("%s: its provenance: %w", name, err)
	}
	payload, err := signing.OpenEnvelope(pub, signing.InTotoPayloadType, bytes.TrimSpace(env))
	if err != nil {
		return Verified{}, fmt.Errorf("%s%s: %w", name, ProvenanceSuffix, err)
	}
	st, err := provenance.Parse(payload)
	if err != nil {
		return Verified{}, fmt.Errorf("%s%s: %w", name, ProvenanceSuffix, err)
	}
	version := opts.Version
	if version == "" {
		version = st.Predicate.BuildDefinition.ExternalParameters.Version
	}
	if err := provenance.Check(st, name, archive, opts.Commit, version); err != nil {
		return Verified{}, fmt.Errorf("%s%s: %w", name, ProvenanceSuffix, err)
	}
	bd := st.Predicate.BuildDefinition
	return Verified{Name: name, SHA256: st.Subject[0].Digest["sha256"], Commit: bd.ResolvedDependencies[0].Digest["gitCommit"],
		Version: bd.ExternalParameters.Version, Builder: st.Predicate.RunDetails.Builder.ID}, nil
}

type line struct{ sum, name string }

// parseChecksums reads sha256sum's format: the digest, two spaces (or a
// space and '*'), the file name.
func parseChecksums(data []byte) ([]line, error) {
	var out []line
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), " ")
		name = strings.TrimPrefix(strings.TrimPrefix(name, " "), "*")
		if !ok || len(sum) != 64 || name == "" || strings.ContainsAny(name, `/\`) {
			return nil, fmt.Errorf("%s: line %q is not DIGEST  NAME", Checksums, sc.Text())
		}
		out = append(out, line{sum: sum, name: name})
	}
	return out, sc.Err()
}
