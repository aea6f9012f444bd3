// Command ghgate-sign signs ghgate's releases with an Ed25519 key. GoReleaser
// runs it (`signs` in .goreleaser.yaml), from the repository root, with the
// private key's path in $GHGATE_RELEASE_KEY (never in the repository):
//
//	ghgate-sign checksums checksums.txt checksums.txt.sig
//	ghgate-sign provenance -commit C -ref R -version V ARCHIVE ARCHIVE.intoto.jsonl
//
// and, to make a key pair (the snapshot makes a throwaway one):
//
//	ghgate-sign keygen PRIVATE.pem PUBLIC.pem
//
// The checksums signature is cosign's blob form (a base64 signature; the
// public key PEM): `cosign verify-blob --key` and openssl read it. The
// provenance is an in-toto v1 statement (SLSA provenance v1) in a DSSE
// envelope, one JSON line. ghgate-releasecheck verifies both.
package main

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ghgate/ghgate/tools/release/internal/dist"
	"github.com/ghgate/ghgate/tools/release/internal/provenance"
	"github.com/ghgate/ghgate/tools/release/internal/signing"
)

const usage = `usage:
  ghgate-sign keygen PRIVATE.pem PUBLIC.pem
  ghgate-sign checksums FILE SIGNATURE                  (key: $GHGATE_RELEASE_KEY)
  ghgate-sign provenance -commit C -ref R -version V [-builder ID] ARCHIVE OUT`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "keygen":
		err = keygen(os.Args[2:])
	case "checksums":
		err = checksums(os.Args[2:])
	case "provenance":
		err = prov(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ghgate-sign:", err)
		os.Exit(1)
	}
}

func keygen(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("keygen PRIVATE.pem PUBLIC.pem")
	}
	priv, pub, err := signing.Generate()
	if err != nil {
		return err
	}
	// O_EXCL: never overwrite a key that may be the release's.
	f, err := os.OpenFile(args[0], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(priv); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.WriteFile(args[1], pub, 0o644)
}

// key loads the private key $GHGATE_RELEASE_KEY names; a release is never
// built unsigned.
func key() (signing.PrivateKey, error) {
	path := os.Getenv(signing.KeyEnv)
	if path == "" {
		return nil, fmt.Errorf("$%s is not set: it names the release's private key file (make one with `ghgate-sign keygen`)", signing.KeyEnv)
	}
	return signing.LoadPrivate(path)
}

func checksums(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("checksums FILE SIGNATURE")
	}
	priv, err := key()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	return os.WriteFile(args[1], signing.SignBlob(priv, data), 0o644)
}

func prov(args []string) error {
	fs := flag.NewFlagSet("provenance", flag.ContinueOnError)
	commit := fs.String("commit", "", "the full git commit built")
	ref := fs.String("ref", "", "the tag built (a snapshot: the commit)")
	version := fs.String("version", "", "the stamped version, v1.2.3")
	builder := fs.String("builder", envOr("GHGATE_BUILDER_ID", "https://github.com/ghgate/ghgate/tools/release/snapshot.sh"),
		"the builder's id (default $GHGATE_BUILDER_ID, else the local release script)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 || *commit == "" || *ref == "" || *version == "" {
		return fmt.Errorf("provenance -commit C -ref R -version V ARCHIVE OUT")
	}
	priv, err := key()
	if err != nil {
		return err
	}
	archivePath := fs.Arg(0)
	archive, err := os.ReadFile(archivePath)
	if err != nil {
		return err
	}
	// The toolchain and target come from the binary itself.
	bin, err := dist.ReadFromArchive(archivePath, dist.BinaryIn(archivePath))
	if err != nil {
		return err
	}
	info, err := buildinfo.Read(bytes.NewReader(bin))
	if err != nil {
		return fmt.Errorf("%s: %w", archivePath, err)
	}
	in := provenance.Input{ArchiveName: filepath.Base(archivePath), Archive: archive, Commit: *commit, Ref: *ref,
		Version: *version, GoVersion: info.GoVersion, BuilderID: *builder}
	for _, s := range info.Settings {
		switch s.Key {
		case "GOOS":
			in.GOOS = s.Value
		case "GOARCH":
			in.GOARCH = s.Value
		}
	}
	payload, err := json.Marshal(provenance.New(in))
	if err != nil {
		return err
	}
	env, err := signing.SignEnvelope(priv, signing.InTotoPayloadType, payload)
	if err != nil {
		return err
	}
	return os.WriteFile(fs.Arg(1), env, 0o644)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
