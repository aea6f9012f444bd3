package image

import (
	"archive/tar"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/validate"
)

var testBuild = Build{Version: "v1.0.0", Commit: "abc", Created: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Source: "https://example.com", ServerName: "io.github.example/server"}

func TestIndex(t *testing.T) {
	platforms := []Platform{{Arch: "amd64", Binary: []byte("amd64 binary")}, {Arch: "arm64", Binary: []byte("arm64 binary")}}
	built, err := Index(testBuild, platforms)
	if err != nil {
		t.Fatal(err)
	}
	// Read back as written, as the release check reads it.
	dir := t.TempDir()
	if _, err := layout.Write(dir, built); err != nil {
		t.Fatal(err)
	}
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Index(idx); err != nil {
		t.Fatal(err)
	}
	// The same input is the same image, to the byte.
	again, err := Index(testBuild, platforms)
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := idx.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Fatalf("two builds: %s and %s", d1, d2)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Manifests) != 2 {
		t.Fatalf("%d manifests, want 2", len(im.Manifests))
	}
	for i, m := range im.Manifests {
		if m.Platform.Architecture != platforms[i].Arch {
			t.Errorf("manifest %d: architecture = %q, want %q", i, m.Platform.Architecture, platforms[i].Arch)
		}
		if m.Platform.OS != "linux" {
			t.Errorf("manifest %d: OS = %q, want linux", i, m.Platform.OS)
		}
		img, err := idx.Image(m.Digest)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		c := cf.Config
		if c.User != "65532:65532" {
			t.Errorf("manifest %d: config User = %q, want 65532:65532", i, c.User)
		}
		if want := []string{"/ghgate", "serve", "--http", "0.0.0.0:8080", "--auth", "/etc/ghgate/auth.toml"}; !slices.Equal(c.Entrypoint, want) {
			t.Errorf("manifest %d: config Entrypoint = %q, want %q", i, c.Entrypoint, want)
		}
		if c.Healthcheck == nil {
			t.Errorf("manifest %d: config has no Healthcheck, want one", i)
		} else if len(c.Healthcheck.Test) == 0 || c.Healthcheck.Test[0] != "CMD" {
			t.Errorf("manifest %d: config Healthcheck.Test = %q, want it to start CMD", i, c.Healthcheck.Test)
		}
		for label, want := range map[string]string{"org.opencontainers.image.version": "v1.0.0", "io.modelcontextprotocol.server.name": "io.github.example/server"} {
			if got := c.Labels[label]; got != want {
				t.Errorf("manifest %d: config label %s = %q, want %q", i, label, got, want)
			}
		}
		if !cf.Created.Time.Equal(testBuild.Created) {
			t.Errorf("manifest %d: config Created = %v, want the commit's %v", i, cf.Created.Time, testBuild.Created)
		}
		if cf.Architecture != platforms[i].Arch {
			t.Errorf("manifest %d: config Architecture = %q, want %q", i, cf.Architecture, platforms[i].Arch)
		}
		layers, err := img.Layers()
		if err != nil {
			t.Fatalf("manifest %d: layers: %v", i, err)
		}
		if len(layers) != 1 {
			t.Fatalf("manifest %d: %d layers, want 1", i, len(layers))
		}
		rc, err := layers[0].Uncompressed()
		if err != nil {
			t.Fatal(err)
		}
		entries := map[string]*tar.Header{}
		var bin []byte
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			entries[h.Name] = h
			if h.Name == "ghgate" {
				bin, _ = io.ReadAll(tr)
			}
			if !h.ModTime.Equal(testBuild.Created) {
				t.Errorf("%s mtime %v, want the commit's", h.Name, h.ModTime)
			}
		}
		rc.Close()
		if string(bin) != string(platforms[i].Binary) {
			t.Errorf("/ghgate is %q, want %q", bin, platforms[i].Binary)
		}
		// The user must not be able to replace the binary.
		h := entries["ghgate"]
		if h.Uid != 0 {
			t.Errorf("/ghgate uid = %d, want 0", h.Uid)
		}
		if h.Mode != 0o755 {
			t.Errorf("/ghgate mode = %o, want 755", h.Mode)
		}
		if h := entries["var/lib/ghgate/"]; h == nil {
			t.Errorf("no state directory var/lib/ghgate/, want one")
		} else {
			if h.Uid != UID {
				t.Errorf("state directory uid = %d, want %d", h.Uid, UID)
			}
			if h.Mode != 0o700 {
				t.Errorf("state directory mode = %o, want 700", h.Mode)
			}
		}
	}
}
