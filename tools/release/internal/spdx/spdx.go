// Package spdx writes an SPDX 2.3 JSON document for a Go binary from the
// build information the Go toolchain embeds in it (what `go version -m`
// prints): the main module, every module linked in, and the toolchain.
//
// It writes the fields SPDX 2.3 requires of a document and its packages
// (spec clauses 6 and 7) and nothing it cannot know: the modules' licences
// are NOASSERTION, since the build information does not carry them.
package spdx

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"time"
)

// Document is an SPDX 2.3 document in its JSON form.
type Document struct {
	SPDXVersion       string         `json:"spdxVersion"`
	DataLicense       string         `json:"dataLicense"`
	SPDXID            string         `json:"SPDXID"`
	Name              string         `json:"name"`
	DocumentNamespace string         `json:"documentNamespace"`
	CreationInfo      CreationInfo   `json:"creationInfo"`
	Packages          []Package      `json:"packages"`
	Relationships     []Relationship `json:"relationships"`
}

// CreationInfo says when and by what the document was made.
type CreationInfo struct {
	Created  string   `json:"created"`
	Creators []string `json:"creators"`
}

// Package is one SPDX package: the archive, the binary's main module, a
// dependency module, or the Go standard library.
type Package struct {
	SPDXID                string        `json:"SPDXID"`
	Name                  string        `json:"name"`
	VersionInfo           string        `json:"versionInfo,omitempty"`
	PackageFileName       string        `json:"packageFileName,omitempty"`
	Supplier              string        `json:"supplier,omitempty"`
	DownloadLocation      string        `json:"downloadLocation"`
	FilesAnalyzed         bool          `json:"filesAnalyzed"`
	Checksums             []Checksum    `json:"checksums,omitempty"`
	LicenseConcluded      string        `json:"licenseConcluded"`
	LicenseDeclared       string        `json:"licenseDeclared"`
	CopyrightText         string        `json:"copyrightText"`
	PrimaryPackagePurpose string        `json:"primaryPackagePurpose,omitempty"`
	ExternalRefs          []ExternalRef `json:"externalRefs,omitempty"`
	Comment               string        `json:"comment,omitempty"`
}

// Checksum is a package's digest.
type Checksum struct {
	Algorithm     string `json:"algorithm"`
	ChecksumValue string `json:"checksumValue"`
}

// ExternalRef is a package URL (purl), how scanners match Go modules.
type ExternalRef struct {
	ReferenceCategory string `json:"referenceCategory"`
	ReferenceType     string `json:"referenceType"`
	ReferenceLocator  string `json:"referenceLocator"`
}

// Relationship links two SPDX elements.
type Relationship struct {
	SPDXElementID      string `json:"spdxElementId"`
	RelationshipType   string `json:"relationshipType"`
	RelatedSPDXElement string `json:"relatedSpdxElement"`
}

const noAssertion = "NOASSERTION"

// Input is what a document describes: an archive holding one Go binary.
type Input struct {
	ArchiveName string
	Archive     []byte
	BinaryName  string
	Binary      []byte
	Build       *debug.BuildInfo
	// Version is the release version; the build information's main module
	// version is "(devel)" for a build from a checkout.
	Version string
	// License is the main module's declared licence (an SPDX expression).
	License string
	// Created is the document's time: the commit's, so the document is the
	// same for every build of one commit.
	Created time.Time
	// Namespace is a URI prefix unique to the project; the archive's digest
	// is appended to make the document's namespace unique.
	Namespace string
	Tool      string
}

// New describes in.
func New(in Input) (*Document, error) {
	if in.Build == nil || in.Build.Main.Path == "" {
		return nil, fmt.Errorf("%s: no Go build information", in.BinaryName)
	}
	archiveSum := sha256.Sum256(in.Archive)
	binSum := sha256.Sum256(in.Binary)
	doc := &Document{
		SPDXVersion:       "SPDX-2.3",
		DataLicense:       "CC0-1.0",
		SPDXID:            "SPDXRef-DOCUMENT",
		Name:              in.ArchiveName,
		DocumentNamespace: strings.TrimSuffix(in.Namespace, "/") + "/" + in.ArchiveName + "-" + hex.EncodeToString(archiveSum[:]),
		CreationInfo: CreationInfo{
			Created:  in.Created.UTC().Format(time.RFC3339),
			Creators: []string{"Tool: " + in.Tool},
		},
	}
	archive := Package{
		SPDXID: "SPDXRef-Archive", Name: in.ArchiveName, PackageFileName: in.ArchiveName,
		DownloadLocation: noAssertion, Checksums: []Checksum{{"SHA256", hex.EncodeToString(archiveSum[:])}},
		LicenseConcluded: noAssertion, LicenseDeclared: noAssertion, CopyrightText: noAssertion,
		PrimaryPackagePurpose: "ARCHIVE",
	}
	main := in.Build.Main
	mainPkg := Package{
		SPDXID: "SPDXRef-Package-" + id(main.Path), Name: main.Path, VersionInfo: in.Version,
		PackageFileName: in.BinaryName, DownloadLocation: "https://" + main.Path,
		Checksums:        []Checksum{{"SHA256", hex.EncodeToString(binSum[:])}},
		LicenseConcluded: noAssertion, LicenseDeclared: orNoAssertion(in.License), CopyrightText: noAssertion,
		PrimaryPackagePurpose: "APPLICATION",
		ExternalRefs:          []ExternalRef{purl(main.Path, in.Version)},
		Comment:               "build settings: " + settings(in.Build),
	}
	stdlib := Package{
		SPDXID: "SPDXRef-Package-stdlib", Name: "stdlib", VersionInfo: in.Build.GoVersion,
		DownloadLocation: "https://go.dev/dl/", LicenseConcluded: noAssertion, LicenseDeclared: "BSD-3-Clause",
		CopyrightText: noAssertion, PrimaryPackagePurpose: "LIBRARY",
		ExternalRefs: []ExternalRef{purl("stdlib", in.Build.GoVersion)},
	}
	doc.Packages = []Package{archive, mainPkg, stdlib}
	doc.Relationships = []Relationship{
		{"SPDXRef-DOCUMENT", "DESCRIBES", archive.SPDXID},
		{archive.SPDXID, "CONTAINS", mainPkg.SPDXID},
		{mainPkg.SPDXID, "DEPENDS_ON", stdlib.SPDXID},
	}
	for _, dep := range in.Build.Deps {
		m := dep
		var comment string
		if dep.Replace != nil {
			comment = "replaces " + dep.Path + " " + dep.Version
			m = dep.Replace
		}
		p := Package{
			SPDXID: "SPDXRef-Package-" + id(m.Path+"-"+m.Version), Name: m.Path, VersionInfo: m.Version,
			DownloadLocation: "https://proxy.golang.org/" + m.Path + "/@v/" + m.Version + ".zip",
			LicenseConcluded: noAssertion, LicenseDeclared: noAssertion, CopyrightText: noAssertion,
			PrimaryPackagePurpose: "LIBRARY", ExternalRefs: []ExternalRef{purl(m.Path, m.Version)},
			Comment: strings.TrimSpace(comment + " go.sum " + m.Sum),
		}
		doc.Packages = append(doc.Packages, p)
		doc.Relationships = append(doc.Relationships, Relationship{mainPkg.SPDXID, "DEPENDS_ON", p.SPDXID})
	}
	return doc, nil
}

var notIDChar = regexp.MustCompile(`[^A-Za-z0-9.-]+`)

// id makes an SPDX identifier's suffix from s: SPDX allows only letters,
// digits, "." and "-".
func id(s string) string { return notIDChar.ReplaceAllString(s, "-") }

func purl(path, version string) ExternalRef {
	return ExternalRef{"PACKAGE-MANAGER", "purl", "pkg:golang/" + path + "@" + version}
}

func orNoAssertion(s string) string {
	if s == "" {
		return noAssertion
	}
	return s
}

// settings is the build's settings that matter to a reader: GOOS, GOARCH,
// CGO_ENABLED, -trimpath, -ldflags.
func settings(b *debug.BuildInfo) string {
	var out []string
	for _, s := range b.Settings {
		switch s.Key {
		case "GOOS", "GOARCH", "GOAMD64", "GOARM64", "CGO_ENABLED", "-trimpath", "-ldflags":
			out = append(out, s.Key+"="+s.Value)
		}
	}
	return strings.Join(out, " ")
}
