package spdx

import (
	"regexp"
	"runtime/debug"
	"testing"
	"time"
)

func testInput() Input {
	return Input{
		ArchiveName: "ghgate_1.0.0_linux_amd64.tar.gz", Archive: []byte("archive"),
		BinaryName: "ghgate", Binary: []byte("binary"),
		Build: &debug.BuildInfo{
			GoVersion: "go1.26.8",
			Main:      debug.Module{Path: "github.com/ghgate/ghgate", Version: "(devel)"},
			Deps: []*debug.Module{
				{Path: "github.com/spf13/cobra", Version: "v1.10.2", Sum: "h1:abc="},
				{Path: "example.com/old", Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/new", Version: "v1.1.0"}},
			},
			Settings: []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "-trimpath", Value: "true"}, {Key: "vcs.revision", Value: "x"}},
		},
		Version: "v1.0.0", License: "MIT", Created: time.Unix(1764547200, 0),
		Namespace: "https://example.com/spdx/", Tool: "test",
	}
}

func TestNew(t *testing.T) {
	doc, err := New(testInput())
	if err != nil {
		t.Fatal(err)
	}
	if doc.SPDXVersion != "SPDX-2.3" {
		t.Errorf("SPDXVersion = %q, want SPDX-2.3", doc.SPDXVersion)
	}
	if doc.DataLicense != "CC0-1.0" {
		t.Errorf("DataLicense = %q, want CC0-1.0", doc.DataLicense)
	}
	if doc.CreationInfo.Created != "2025-12-01T00:00:00Z" {
		t.Errorf("CreationInfo.Created = %q, want 2025-12-01T00:00:00Z", doc.CreationInfo.Created)
	}
	if t.Failed() {
		t.FailNow()
	}
	want := "https://example.com/spdx/ghgate_1.0.0_linux_amd64.tar.gz-"
	if len(doc.DocumentNamespace) != len(want)+64 {
		t.Fatalf("DocumentNamespace %q is %d bytes, want %d (the prefix and 64 hex digits)", doc.DocumentNamespace, len(doc.DocumentNamespace), len(want)+64)
	}
	if doc.DocumentNamespace[:len(want)] != want {
		t.Fatalf("DocumentNamespace = %q, want it to start %q", doc.DocumentNamespace, want)
	}
	validID := regexp.MustCompile(`^SPDXRef-[A-Za-z0-9.-]+$`)
	byName := map[string]Package{}
	for _, p := range doc.Packages {
		if !validID.MatchString(p.SPDXID) {
			t.Errorf("invalid SPDXID %q", p.SPDXID)
		}
		for field, v := range map[string]string{"DownloadLocation": p.DownloadLocation, "LicenseConcluded": p.LicenseConcluded,
			"LicenseDeclared": p.LicenseDeclared, "CopyrightText": p.CopyrightText} {
			if v == "" {
				t.Errorf("%s: %s is empty, want the required field set", p.SPDXID, field)
			}
		}
		byName[p.Name] = p
	}
	main := byName["github.com/ghgate/ghgate"]
	if main.VersionInfo != "v1.0.0" {
		t.Errorf("main package VersionInfo = %q, want v1.0.0", main.VersionInfo)
	}
	if main.LicenseDeclared != "MIT" {
		t.Errorf("main package LicenseDeclared = %q, want MIT", main.LicenseDeclared)
	}
	if len(main.ExternalRefs) == 0 {
		t.Errorf("main package has no ExternalRefs, want its purl")
	} else if got, want := main.ExternalRefs[0].ReferenceLocator, "pkg:golang/github.com/ghgate/ghgate@v1.0.0"; got != want {
		t.Errorf("main package ExternalRefs[0].ReferenceLocator = %q, want %q", got, want)
	}
	if want := "build settings: GOOS=linux -trimpath=true"; main.Comment != want {
		t.Errorf("main package Comment = %q, want %q", main.Comment, want)
	}
	// A replaced module is listed as what was linked: the replacement.
	if _, ok := byName["example.com/old"]; ok {
		t.Error("the replaced module example.com/old is listed, want only its replacement")
	}
	p := byName["example.com/new"]
	if p.VersionInfo != "v1.1.0" {
		t.Errorf("replacement VersionInfo = %q, want v1.1.0", p.VersionInfo)
	}
	if want := "replaces example.com/old v1.0.0 go.sum"; p.Comment != want {
		t.Errorf("replacement Comment = %q, want %q", p.Comment, want)
	}
	if got := byName["stdlib"].VersionInfo; got != "go1.26.8" {
		t.Errorf("stdlib VersionInfo = %q, want go1.26.8", got)
	}
	// Document describes archive, archive contains binary, binary depends on
	// stdlib and both modules.
	deps := 0
	for _, r := range doc.Relationships {
		if r.RelationshipType == "DEPENDS_ON" && r.SPDXElementID == main.SPDXID {
			deps++
		}
	}
	if deps != 3 {
		t.Errorf("the binary has %d DEPENDS_ON relationships, want 3 (%+v)", deps, doc.Relationships)
	}
	if want := (Relationship{"SPDXRef-DOCUMENT", "DESCRIBES", "SPDXRef-Archive"}); len(doc.Relationships) == 0 {
		t.Errorf("no Relationships, want the first %+v", want)
	} else if doc.Relationships[0] != want {
		t.Errorf("Relationships[0] = %+v, want %+v", doc.Relationships[0], want)
	}
}

func TestNewNeedsBuildInfo(t *testing.T) {
	in := testInput()
	in.Build = nil
	if _, err := New(in); err == nil {
		t.Fatal("no build info: no error")
	}
}
