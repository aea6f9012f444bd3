// Package provenance writes and checks the SLSA provenance of a release
// archive: an in-toto v1 statement whose subject is the archive (by its
// sha256) and whose predicate (https://slsa.dev/provenance/v1) names the
// source commit, the build's parameters and the builder.
//
// The statement holds nothing that differs between two builds of one
// commit (no build start or end time), so the snapshot's two builds write
// the same bytes. A release built on a maintainer's machine with its key is
// SLSA Build L1: the provenance exists and is signed, but the builder does
// not itself vouch for it.
package provenance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
)

// The in-toto and SLSA type names.
const (
	StatementType = "https://in-toto.io/Statement/v1"
	PredicateType = "https://slsa.dev/provenance/v1"
	// BuildType names how ghgate's releases are built: GoReleaser with
	// .goreleaser.yaml from tools/release's pinned module.
	BuildType = "https://github.com/ghgate/ghgate/tools/release/goreleaser@v1"
	// Repository is where the source comes from.
	Repository = "https://github.com/ghgate/ghgate"
)

// Statement is an in-toto v1 statement with a SLSA v1 predicate.
type Statement struct {
	Type          string    `json:"_type"`
	Subject       []Subject `json:"subject"`
	PredicateType string    `json:"predicateType"`
	Predicate     Predicate `json:"predicate"`
}

// Subject is one artifact the statement is about.
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// Predicate is SLSA provenance v1.
type Predicate struct {
	BuildDefinition BuildDefinition `json:"buildDefinition"`
	RunDetails      RunDetails      `json:"runDetails"`
}

// BuildDefinition says what was built from what.
type BuildDefinition struct {
	BuildType            string               `json:"buildType"`
	ExternalParameters   ExternalParameters   `json:"externalParameters"`
	InternalParameters   InternalParameters   `json:"internalParameters"`
	ResolvedDependencies []ResourceDescriptor `json:"resolvedDependencies"`
}

// ExternalParameters are what the person releasing chose.
type ExternalParameters struct {
	Repository string `json:"repository"`
	Ref        string `json:"ref"`
	Version    string `json:"version"`
	Config     string `json:"config"`
}

// InternalParameters are what the build chose: the toolchain and target,
// read from the binary in the archive.
type InternalParameters struct {
	GoVersion string `json:"goVersion"`
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
}

// ResourceDescriptor names an input by URI and digest.
type ResourceDescriptor struct {
	URI    string            `json:"uri"`
	Digest map[string]string `json:"digest"`
}

// RunDetails says who built it.
type RunDetails struct {
	Builder Builder `json:"builder"`
}

// Builder identifies the build platform.
type Builder struct {
	ID string `json:"id"`
}

// Input is what New needs to know of one archive's build.
type Input struct {
	ArchiveName string
	Archive     []byte
	Commit      string // the full git commit
	Ref         string // the tag, or the commit for a snapshot
	Version     string // the stamped version, v1.2.3
	GoVersion   string
	GOOS        string
	GOARCH      string
	BuilderID   string
}

// New is the statement for one archive.
func New(in Input) Statement {
	return Statement{
		Type:          StatementType,
		Subject:       []Subject{{Name: in.ArchiveName, Digest: map[string]string{"sha256": Sum(in.Archive)}}},
		PredicateType: PredicateType,
		Predicate: Predicate{
			BuildDefinition: BuildDefinition{
				BuildType:          BuildType,
				ExternalParameters: ExternalParameters{Repository: Repository, Ref: in.Ref, Version: in.Version, Config: ".goreleaser.yaml"},
				InternalParameters: InternalParameters{GoVersion: in.GoVersion, GOOS: in.GOOS, GOARCH: in.GOARCH},
				ResolvedDependencies: []ResourceDescriptor{{
					URI:    "git+" + Repository + "@" + in.Ref,
					Digest: map[string]string{"gitCommit": in.Commit},
				}},
			},
			RunDetails: RunDetails{Builder: Builder{ID: in.BuilderID}},
		},
	}
}

// Sum is the hex sha256 of data.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Parse decodes a statement strictly: an unknown field is an error.
func Parse(data []byte) (Statement, error) {
	var st Statement
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return st, fmt.Errorf("not a ghgate provenance statement: %w", err)
	}
	return st, nil
}

var gitCommit = regexp.MustCompile(`^[0-9a-f]{40}$`)

// Check verifies that st is provenance for archive (named name) built from
// commit at version: the subject's digest is the archive's, and the
// builder, build type, source and parameters are present and agree.
func Check(st Statement, name string, archive []byte, commit, version string) error {
	switch {
	case st.Type != StatementType:
		return fmt.Errorf("_type %q, want %q", st.Type, StatementType)
	case st.PredicateType != PredicateType:
		return fmt.Errorf("predicateType %q, want %q", st.PredicateType, PredicateType)
	case len(st.Subject) != 1 || st.Subject[0].Name != name:
		return fmt.Errorf("subject %+v, want the one archive %s", st.Subject, name)
	case st.Subject[0].Digest["sha256"] != Sum(archive):
		return fmt.Errorf("subject %s has sha256 %s, the archive's is %s", name, st.Subject[0].Digest["sha256"], Sum(archive))
	}
	bd, rd := st.Predicate.BuildDefinition, st.Predicate.RunDetails
	switch {
	case rd.Builder.ID == "":
		return fmt.Errorf("no runDetails.builder.id")
	case bd.BuildType != BuildType:
		return fmt.Errorf("buildType %q, want %q", bd.BuildType, BuildType)
	case bd.ExternalParameters.Repository != Repository || bd.ExternalParameters.Ref == "":
		return fmt.Errorf("externalParameters %+v: want repository %s and a ref", bd.ExternalParameters, Repository)
	case bd.ExternalParameters.Version != version:
		return fmt.Errorf("externalParameters.version %q, want %q", bd.ExternalParameters.Version, version)
	case bd.InternalParameters.GoVersion == "" || bd.InternalParameters.GOOS == "" || bd.InternalParameters.GOARCH == "":
		return fmt.Errorf("internalParameters %+v: want the Go version and target", bd.InternalParameters)
	case len(bd.ResolvedDependencies) != 1 || !gitCommit.MatchString(bd.ResolvedDependencies[0].Digest["gitCommit"]):
		return fmt.Errorf("resolvedDependencies %+v: want the source at one git commit", bd.ResolvedDependencies)
	case commit != "" && bd.ResolvedDependencies[0].Digest["gitCommit"] != commit:
		return fmt.Errorf("source commit %s, want %s", bd.ResolvedDependencies[0].Digest["gitCommit"], commit)
	}
	return nil
}
