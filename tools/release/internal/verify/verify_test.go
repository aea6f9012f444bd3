package verify

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/tools/release/internal/provenance"
	"github.com/ghgate/ghgate/tools/release/internal/signing"
)

const commit = "0123456789abcdef0123456789abcdef01234567"

type keys struct {
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey
}

func newKeys(t *testing.T) keys {
	t.Helper()
	privPEM, pubPEM, err := signing.Generate()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "k"), privPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	priv, err := signing.LoadPrivate(filepath.Join(dir, "k"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := signing.ParsePublic(pubPEM)
	if err != nil {
		t.Fatal(err)
	}
	return keys{priv, pub}
}

func provenanceFor(t *testing.T, k keys, name string, archive []byte) []byte {
	t.Helper()
	st := provenance.New(provenance.Input{ArchiveName: name, Archive: archive, Commit: commit, Ref: "v1.0.0",
		Version: "v1.0.0", GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", BuilderID: "https://example.com/builder"})
	payload, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	env, err := signing.SignEnvelope(k.priv, signing.InTotoPayloadType, payload)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// writeRelease lays out a small signed release: two archives, an SBOM,
// checksums.txt and its signature, each archive's provenance.
func writeRelease(t *testing.T, k keys) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{
		"ghgate_1.0.0_linux_amd64.tar.gz":           []byte("linux archive"),
		"ghgate_1.0.0_windows_arm64.zip":            []byte("windows archive"),
		"ghgate_1.0.0_linux_amd64.tar.gz.sbom.json": []byte("{}"),
	}
	var sums strings.Builder
	for _, name := range []string{"ghgate_1.0.0_linux_amd64.tar.gz", "ghgate_1.0.0_linux_amd64.tar.gz.sbom.json", "ghgate_1.0.0_windows_arm64.zip"} {
		write(t, dir, name, files[name])
		fmt.Fprintf(&sums, "%s  %s\n", provenance.Sum(files[name]), name)
		if IsArchive(name) {
			write(t, dir, name+ProvenanceSuffix, provenanceFor(t, k, name, files[name]))
		}
	}
	write(t, dir, Checksums, []byte(sums.String()))
	write(t, dir, ChecksumsSig, signing.SignBlob(k.priv, []byte(sums.String())))
	return dir
}

func write(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReleaseVerifies(t *testing.T) {
	t.Parallel()
	k := newKeys(t)
	dir := writeRelease(t, k)
	got, err := Release(dir, k.pub, Options{All: true, Commit: commit, Version: "v1.0.0"})
	if err != nil {
		t.Fatalf("Release = %v, want the untouched release to verify", err)
	}
	if len(got) != 2 {
		t.Errorf("verified %d archives (%+v), want both", len(got), got)
	} else {
		if got[0].Commit != commit {
			t.Errorf("verified[0].Commit = %q, want %q", got[0].Commit, commit)
		}
		if want := "https://example.com/builder"; got[1].Builder != want {
			t.Errorf("verified[1].Builder = %q, want %q", got[1].Builder, want)
		}
	}
	// A user who downloaded one archive checks that one.
	if err := os.Remove(filepath.Join(dir, "ghgate_1.0.0_windows_arm64.zip")); err != nil {
		t.Fatal(err)
	}
	if got, err := Release(dir, k.pub, Options{}); err != nil {
		t.Errorf("one archive downloaded: %v", err)
	} else if len(got) != 1 {
		t.Errorf("one archive downloaded: verified %d, want 1", len(got))
	}
	if _, err := Release(dir, k.pub, Options{All: true}); err == nil {
		t.Errorf("All with an archive missing verified, want an error")
	}
}

// Every kind of tampering fails, naming what did not verify.
func TestReleaseRefusesTampering(t *testing.T) {
	t.Parallel()
	k := newKeys(t)
	other := newKeys(t)
	const archive = "ghgate_1.0.0_linux_amd64.tar.gz"
	cases := []struct {
		name   string
		tamper func(t *testing.T, dir string)
		pub    ed25519.PublicKey
		want   string
	}{
		{"archive changed", func(t *testing.T, dir string) { write(t, dir, archive, []byte("linux archive, altered")) }, nil, "but the signed checksums.txt says"},
		{"checksums changed", func(t *testing.T, dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, Checksums))
			write(t, dir, Checksums, []byte(strings.Replace(string(data), "  ghgate", "  xghgate", 1)))
		}, nil, "signature does not verify"},
		{"signature changed", func(t *testing.T, dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, ChecksumsSig))
			data[3] ^= 0x01
			write(t, dir, ChecksumsSig, data)
		}, nil, "signature does not verify"},
		{"signed by another key", nil, other.pub, "signature does not verify"},
		{"provenance signed by another key", func(t *testing.T, dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, archive))
			write(t, dir, archive+ProvenanceSuffix, provenanceFor(t, other, archive, data))
		}, nil, ".intoto.jsonl: signature does not verify"},
		{"provenance for other bytes", func(t *testing.T, dir string) {
			write(t, dir, archive+ProvenanceSuffix, provenanceFor(t, k, archive, []byte("another archive")))
		}, nil, "the archive's is"},
		{"provenance payload edited", func(t *testing.T, dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, archive+ProvenanceSuffix))
			var env map[string]any
			_ = json.Unmarshal(data, &env)
			env["payloadType"] = "text/plain"
			out, _ := json.Marshal(env)
			write(t, dir, archive+ProvenanceSuffix, out)
		}, nil, "payload type"},
		{"provenance missing", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, archive+ProvenanceSuffix)) }, nil, "its provenance"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := writeRelease(t, k)
			if c.tamper != nil {
				c.tamper(t, dir)
			}
			pub := k.pub
			if c.pub != nil {
				pub = c.pub
			}
			_, err := Release(dir, pub, Options{All: true, Commit: commit})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Release after %s = %v, want an error containing %q", c.name, err, c.want)
			}
		})
	}
}

// Provenance whose builder or source is missing, or names another commit,
// is refused even when correctly signed.
func TestProvenanceFieldsRequired(t *testing.T) {
	t.Parallel()
	archive := []byte("a")
	good := provenance.New(provenance.Input{ArchiveName: "a.tar.gz", Archive: archive, Commit: commit, Ref: "v1", Version: "v1",
		GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", BuilderID: "b"})
	if err := provenance.Check(good, "a.tar.gz", archive, commit, "v1"); err != nil {
		t.Fatalf("Check(good) = %v, want nil", err)
	}
	for name, edit := range map[string]func(*provenance.Statement){
		"no builder": func(s *provenance.Statement) { s.Predicate.RunDetails.Builder.ID = "" },
		"no source":  func(s *provenance.Statement) { s.Predicate.BuildDefinition.ResolvedDependencies = nil },
		"other commit": func(s *provenance.Statement) {
			s.Predicate.BuildDefinition.ResolvedDependencies[0].Digest["gitCommit"] = strings.Repeat("f", 40)
		},
		"SLSA v0.2":  func(s *provenance.Statement) { s.PredicateType = "https://slsa.dev/provenance/v0.2" },
		"other name": func(s *provenance.Statement) { s.Subject[0].Name = "b.tar.gz" },
	} {
		st := provenance.New(provenance.Input{ArchiveName: "a.tar.gz", Archive: archive, Commit: commit, Ref: "v1", Version: "v1",
			GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", BuilderID: "b"})
		edit(&st)
		if err := provenance.Check(st, "a.tar.gz", archive, commit, "v1"); err == nil {
			t.Errorf("Check with %s = nil, want an error", name)
		}
	}
}
