package privdir_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/privdir"
)

// Check accepts a directory only this user and root can change, below
// directories only they can rename things in (a sticky one, as /tmp,
// too), and names the directory at fault otherwise.
func TestCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		dir, parent os.FileMode // 0: dir is missing
		link        bool
		refused     bool
		says, whose string
	}{
		{name: "private", dir: 0o700, parent: 0o755},
		{name: "readable by all", dir: 0o755, parent: 0o755},
		{name: "below a sticky world-writable directory", dir: 0o700, parent: os.ModeSticky | 0o777},
		{name: "world-writable with the sticky bit", dir: os.ModeSticky | 0o777, parent: 0o755, refused: true, says: "writable by group or others", whose: "dir"},
		{name: "group-writable", dir: 0o770, parent: 0o755, refused: true, says: "writable by group or others", whose: "dir"},
		{name: "below a group-writable directory", dir: 0o700, parent: 0o775, refused: true, says: "without the sticky bit", whose: "parent"},
		{name: "missing", parent: 0o755, refused: true, says: "does not exist", whose: "dir"},
		{name: "a symbolic link", dir: 0o700, parent: 0o755, link: true, refused: true, says: "symbolic link", whose: "dir"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			parent := filepath.Join(t.TempDir(), "parent")
			dir := filepath.Join(parent, "dir")
			if err := os.Mkdir(parent, 0o700); err != nil {
				t.Fatal(err)
			}
			if c.dir != 0 {
				target := dir
				if c.link {
					target = filepath.Join(parent, "real")
				}
				if err := os.Mkdir(target, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(target, c.dir); err != nil {
					t.Fatal(err)
				}
				if c.link {
					if err := os.Symlink(target, dir); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := os.Chmod(parent, c.parent); err != nil {
				t.Fatal(err)
			}
			err := privdir.Check(dir)
			if got := err != nil; got != c.refused {
				t.Fatalf("refused = %v (%v), want %v", got, err, c.refused)
			}
			if err == nil {
				return
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("err = %q, want it to say %q", err, c.says)
			}
			at := map[string]string{"dir": dir + " ", "parent": "above it, " + parent + ","}[c.whose]
			if !strings.Contains(err.Error(), at) {
				t.Errorf("err = %q, want it to name the %s (%q)", err, c.whose, at)
			}
		})
	}
}
