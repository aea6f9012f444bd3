// Package image builds ghgate's container image from its static linux
// binaries, without Docker: one layer on an empty base, the config a
// runtime needs (non-root user, entry point, health check), as an OCI image
// index with one image per architecture. Every timestamp is the commit's,
// so two builds of one commit are the same bytes.
package image

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// What the image is; the offline check (ghgate-releasecheck) compares an
// image's config with these.
const (
	// UID and GID are the image's user: not root, and the uid distroless
	// images call nonroot, so volume permissions carry over between them.
	UID = 65532
	GID = 65532
	// BinaryPath is where the binary sits in the image.
	BinaryPath = "/ghgate"
	// StateDir holds the SQLite state (ETags, idempotency keys, the cursor
	// key), owned by the user: a volume to mount to keep it across restarts.
	StateDir = "/var/lib/ghgate"
	// Port is where `serve --http` listens inside the container.
	Port = "8080"
)

// User is the config's User field.
var User = fmt.Sprintf("%d:%d", UID, GID)

// AuthFile is where the operator mounts the client authentication file
// (serve's --auth): a server listening beyond loopback requires one.
const AuthFile = "/etc/ghgate/auth.toml"

// Entrypoint serves streamable HTTP on every interface of the container:
// the port is reached only through what the operator publishes, and only
// by clients the mounted --auth file admits.
var Entrypoint = []string{BinaryPath, "serve", "--http", "0.0.0.0:" + Port, "--auth", AuthFile}

// Healthcheck runs the binary itself (an empty base has no shell or curl)
// against serve's /healthz.
var Healthcheck = v1.HealthConfig{
	Test:        []string{"CMD", BinaryPath, "healthcheck", "--url", "http://127.0.0.1:" + Port + "/healthz"},
	Interval:    30 * time.Second,
	Timeout:     5 * time.Second,
	StartPeriod: 5 * time.Second,
	Retries:     3,
}

// Env makes the state file /var/lib/ghgate/state.db: the store puts it at
// $XDG_STATE_HOME/ghgate/state.db.
var Env = []string{"XDG_STATE_HOME=/var/lib"}

// Build is one release's metadata, stamped into the labels.
type Build struct {
	Version string
	Commit  string
	Created time.Time
	Source  string
	// ServerName is server.json's name, which the MCP registry requires
	// as the image's io.modelcontextprotocol.server.name label.
	ServerName string
}

// ServerNameLabel ties the image to its MCP registry entry.
const ServerNameLabel = "io.modelcontextprotocol.server.name"

// Platform is one architecture's image: its static binary.
type Platform struct {
	Arch   string
	Binary []byte
}

// Index is the multi-architecture image of the binaries.
func Index(b Build, platforms []Platform) (v1.ImageIndex, error) {
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, p := range platforms {
		img, err := Image(b, p)
		if err != nil {
			return nil, fmt.Errorf("linux/%s: %w", p.Arch, err)
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: p.Arch}},
		})
	}
	return idx, nil
}

// Image is one architecture's image.
func Image(b Build, p Platform) (v1.Image, error) {
	layerTar, err := rootfs(p.Binary, b.Created)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, History: v1.History{
		Created:   v1.Time{Time: b.Created.UTC()},
		CreatedBy: "ghgate release: " + BinaryPath + " from the linux/" + p.Arch + " archive",
		Comment:   "static binary on an empty base",
	}})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", p.Arch
	cf.Created = v1.Time{Time: b.Created.UTC()}
	hc := Healthcheck
	cf.Config = v1.Config{
		User:         User,
		Entrypoint:   Entrypoint,
		Env:          Env,
		WorkingDir:   "/",
		ExposedPorts: map[string]struct{}{Port + "/tcp": {}},
		Volumes:      map[string]struct{}{StateDir: {}},
		Healthcheck:  &hc,
		Labels: map[string]string{
			"org.opencontainers.image.title":    "ghgate",
			"org.opencontainers.image.version":  b.Version,
			"org.opencontainers.image.revision": b.Commit,
			"org.opencontainers.image.created":  b.Created.UTC().Format(time.RFC3339),
			"org.opencontainers.image.source":   b.Source,
			"org.opencontainers.image.licenses": "MIT",
			ServerNameLabel:                     b.ServerName,
		},
	}
	return mutate.ConfigFile(img, cf)
}

// rootfs is the layer: the binary (root-owned, so the user cannot replace
// it), the state directory the user owns, a /tmp, and /etc/passwd and
// /etc/group naming the user, for tools that look it up.
func rootfs(binary []byte, mtime time.Time) ([]byte, error) {
	mtime = mtime.UTC()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(name string, mode int64, uid, gid int) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, Uid: uid, Gid: gid, ModTime: mtime, Format: tar.FormatPAX})
	}
	file := func(name string, mode int64, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: mtime, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:%s:/sbin/nologin\n", UID, GID, StateDir)
	group := fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", GID)
	steps := []func() error{
		func() error { return file(BinaryPath[1:], 0o755, binary) },
		func() error { return dir("etc", 0o755, 0, 0) },
		func() error { return file("etc/group", 0o644, []byte(group)) },
		func() error { return file("etc/passwd", 0o644, []byte(passwd)) },
		func() error { return dir("tmp", 0o1777, 0, 0) },
		func() error { return dir("var", 0o755, 0, 0) },
		func() error { return dir("var/lib", 0o755, 0, 0) },
		func() error { return dir(StateDir[1:], 0o700, UID, GID) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
