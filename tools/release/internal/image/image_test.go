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
		t.Fatalf("%d manifests", len(im.Manifests))
	}
	for i, m := range im.Manifests {
		if m.Platform.Architecture != platforms[i].Arch || m.Platform.OS != "linux" {
			t.Errorf("manifest %d platform %+v", i, m.Platform)
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
		if c.User != "65532:65532" || !slices.Equal(c.Entrypoint, []string{"/ghgate", "serve", "--http", "0.0.0.0:8080", "--auth", "/etc/ghgate/auth.toml"}) ||
			c.Healthcheck == nil || c.Healthcheck.Test[0] != "CMD" || c.Labels["org.opencontainers.image.version"] != "v1.0.0" ||
			c.Labels["io.modelcontextprotocol.server.name"] != "io.github.example/server" ||
			!cf.Created.Time.Equal(testBuild.Created) || cf.Architecture != platforms[i].Arch {
			t.Errorf("config: %+v", cf)
		}
		layers, err := img.Layers()
		if err != nil || len(layers) != 1 {
			t.Fatalf("layers: %v %v", len(layers), err)
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
			t.Errorf("/ghgate is %q", bin)
		}
		if h := entries["ghgate"]; h.Uid != 0 || h.Mode != 0o755 {
			t.Errorf("/ghgate uid %d mode %o: the user must not be able to replace it", h.Uid, h.Mode)
		}
		if h := entries["var/lib/ghgate/"]; h == nil || h.Uid != UID || h.Mode != 0o700 {
			t.Errorf("state directory: %+v", h)
		}
	}
}
