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
	if doc.SPDXVersion != "SPDX-2.3" || doc.DataLicense != "CC0-1.0" || doc.CreationInfo.Created != "2025-12-01T00:00:00Z" {
		t.Fatalf("header: %+v", doc)
	}
	want := "https://example.com/spdx/ghgate_1.0.0_linux_amd64.tar.gz-"
	if len(doc.DocumentNamespace) != len(want)+64 || doc.DocumentNamespace[:len(want)] != want {
		t.Fatalf("namespace %q", doc.DocumentNamespace)
	}
	validID := regexp.MustCompile(`^SPDXRef-[A-Za-z0-9.-]+$`)
	byName := map[string]Package{}
	for _, p := range doc.Packages {
		if !validID.MatchString(p.SPDXID) {
			t.Errorf("invalid SPDXID %q", p.SPDXID)
		}
		if p.DownloadLocation == "" || p.LicenseConcluded == "" || p.LicenseDeclared == "" || p.CopyrightText == "" {
			t.Errorf("%s lacks a required field: %+v", p.SPDXID, p)
		}
		byName[p.Name] = p
	}
	main := byName["github.com/ghgate/ghgate"]
	if main.VersionInfo != "v1.0.0" || main.LicenseDeclared != "MIT" || main.ExternalRefs[0].ReferenceLocator != "pkg:golang/github.com/ghgate/ghgate@v1.0.0" {
		t.Errorf("main package: %+v", main)
	}
	if main.Comment != "build settings: GOOS=linux -trimpath=true" {
		t.Errorf("main comment %q", main.Comment)
	}
	// A replaced module is listed as what was linked: the replacement.
	if _, ok := byName["example.com/old"]; ok {
		t.Error("the replaced module is listed")
	}
	if p := byName["example.com/new"]; p.VersionInfo != "v1.1.0" || p.Comment != "replaces example.com/old v1.0.0 go.sum" {
		t.Errorf("replacement: %+v", p)
	}
	if byName["stdlib"].VersionInfo != "go1.26.8" {
		t.Errorf("stdlib: %+v", byName["stdlib"])
	}
	// Document describes archive, archive contains binary, binary depends on
	// stdlib and both modules.
	deps := 0
	for _, r := range doc.Relationships {
		if r.RelationshipType == "DEPENDS_ON" && r.SPDXElementID == main.SPDXID {
			deps++
		}
	}
	if deps != 3 || doc.Relationships[0] != (Relationship{"SPDXRef-DOCUMENT", "DESCRIBES", "SPDXRef-Archive"}) {
		t.Errorf("relationships: %+v", doc.Relationships)
	}
}

func TestNewNeedsBuildInfo(t *testing.T) {
	in := testInput()
	in.Build = nil
	if _, err := New(in); err == nil {
		t.Fatal("no build info: no error")
	}
}
