package clientsetup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/pmezard/go-difflib/difflib"
)

// Status is what setup did, or would do, to the entry.
type Status string

// The statuses.
const (
	Added     Status = "added"
	Updated   Status = "updated"
	Unchanged Status = "unchanged"
)

// A Change is the planned edit of one configuration file.
type Change struct {
	Client Client
	File   string // the file written: a symlink is followed to its target
	Name   string // the entry's name
	Status Status
	Before []byte // nil when the file does not exist yet
	After  []byte
	Entry  Entry
	Backup string // set by Write when the file existed
}

// Plan reads file and computes its content with ghgate's entry for client
// c; nothing is written. A file that does not parse is an error.
func Plan(c Client, file string, o Options) (*Change, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	sp := specs[c]
	target := file
	if resolved, err := filepath.EvalSymlinks(file); err == nil {
		target = resolved
	}
	before, err := os.ReadFile(target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	entry := BuildEntry(c, o)
	var (
		after            []byte
		existed, changed bool
	)
	if sp.toml {
		after, existed, changed, err = upsertTOML(before, sp.key, o.name(), tomlShape(entry))
	} else {
		after, existed, changed, err = upsertJSON(before, sp.key, o.name(), jsonShape(c, entry))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w; nothing was written", file, err)
	}
	ch := &Change{Client: c, File: target, Name: o.name(), Before: before, After: after, Entry: entry, Status: Added}
	switch {
	case !changed:
		ch.Status = Unchanged
	case existed:
		ch.Status = Updated
	}
	return ch, nil
}

// Diff is the change as a unified diff.
func (ch *Change) Diff() string {
	d, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(ch.Before)), B: difflib.SplitLines(string(ch.After)),
		FromFile: ch.File, ToFile: ch.File, Context: 3,
	})
	return d
}

// Write puts the change on disk: an unchanged file is not touched; an
// existing one is first copied to FILE.bak-YYYYMMDD-HHMMSS (its mode kept),
// then replaced atomically (a temporary file in the same directory, renamed
// over it) with the same mode. A new file gets its parent directories and
// mode newMode.
func (ch *Change) Write(now time.Time, newMode fs.FileMode) error {
	if ch.Status == Unchanged {
		return nil
	}
	mode := newMode
	if ch.Before != nil {
		info, err := os.Stat(ch.File)
		if err != nil {
			return err
		}
		mode = info.Mode().Perm()
		backup, err := writeBackup(ch.File, ch.Before, mode, now)
		if err != nil {
			return err
		}
		ch.Backup = backup
	} else if err := os.MkdirAll(filepath.Dir(ch.File), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(ch.File), err)
	}
	return writeAtomic(ch.File, ch.After, mode)
}

func writeBackup(file string, content []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := file + ".bak-" + now.Format("20060102-150405")
	name := base
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			name = fmt.Sprintf("%s-%d", base, i)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("backing up %s: %w", file, err)
		}
		_, werr := f.Write(content)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return "", fmt.Errorf("backing up %s: %w", file, werr)
		}
		return name, nil
	}
}

func writeAtomic(file string, content []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".ghgate-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up after a failure
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}
