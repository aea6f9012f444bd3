package dist

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// Both archive forms a release ships are read, and a missing file is an
// error naming it.
func TestReadFromArchive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()

	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("ghgate.exe")
	w.Write([]byte("windows binary"))
	w, _ = zw.Create("LICENSE")
	w.Write([]byte("licence"))
	zw.Close()
	zpath := filepath.Join(dir, "ghgate_1.0.0_windows_amd64.zip")
	os.WriteFile(zpath, zbuf.Bytes(), 0o644)

	var tbuf bytes.Buffer
	gz := gzip.NewWriter(&tbuf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "ghgate", Mode: 0o755, Size: 12, Typeflag: tar.TypeReg})
	tw.Write([]byte("linux binary"))
	tw.Close()
	gz.Close()
	tpath := filepath.Join(dir, "ghgate_1.0.0_linux_amd64.tar.gz")
	os.WriteFile(tpath, tbuf.Bytes(), 0o644)

	for path, want := range map[string]string{zpath: "windows binary", tpath: "linux binary"} {
		got, err := ReadFromArchive(path, BinaryIn(path))
		if err != nil {
			t.Errorf("ReadFromArchive(%s, %s): %v", filepath.Base(path), BinaryIn(path), err)
		} else if string(got) != want {
			t.Errorf("ReadFromArchive(%s, %s) = %q, want %q", filepath.Base(path), BinaryIn(path), got, want)
		}
		if _, err := ReadFromArchive(path, "README.md"); err == nil {
			t.Errorf("ReadFromArchive(%s, README.md) found a file that is not there", filepath.Base(path))
		}
	}
}
