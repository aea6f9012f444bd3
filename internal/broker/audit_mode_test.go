package broker

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAuditFileModeIsNarrowed(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	f, err := openAuditFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&^auditFileMode != 0 {
		t.Fatalf("audit file mode %04o is wider than %04o", fi.Mode().Perm(), auditFileMode)
	}
}
