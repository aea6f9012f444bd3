package issuesync

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// The mirror directory's own files besides the issues'.
const (
	gitignore  = ".gitignore"
	tmpPrefix  = ".ghgate-tmp-"
	maxFileLen = 16 << 20 // a larger file is no file this tool wrote
	// staleTmp is how old a temporary file of ghgate's making must be
	// before a sync removes it: a younger one may be another sync's
	// write in progress.
	staleTmp = time.Hour
)

// tmpName is the form of the temporary names writeFile mints.
var tmpName = regexp.MustCompile(`^\.ghgate-tmp-[0-9a-f]{16}$`)

// Invalid is a file the sync found but will not read, replace or remove.
type Invalid struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// entry is a valid mirror file as found on disk.
type entry struct {
	name string
	file mirrorfile.File
	raw  []byte
}

// scan reads the mirror directory: valid issue files by number, and every
// other entry (links, directories, foreign names, unreadable or foreign
// JSON) as invalid. Nothing found is followed: entries are classified by
// lstat, and reads go through the directory's [os.Root].
//
// A temporary file is removed only when its name is one writeFile mints
// and it is older than staleTmp: a write a crashed sync did not finish.
// Any other name, however it starts, is reported like a foreign file.
func scan(md *toolkit.MirrorDir, repo string, now time.Time) (map[int][]entry, []Invalid, error) {
	list, err := fs.ReadDir(md.Root.FS(), ".")
	if err != nil {
		return nil, nil, err
	}
	files := map[int][]entry{}
	var invalid []Invalid
	bad := func(name, reason string) {
		invalid = append(invalid, Invalid{Path: filepath.Join(md.Path, name), Reason: reason})
	}
	for _, d := range list {
		name := d.Name()
		t := d.Type()
		switch {
		case name == mirrorfile.StateFile || name == gitignore:
			continue // checked where they are read and written
		case tmpName.MatchString(name) && t.IsRegular():
			// A write of ghgate's that did not finish: never read; removed
			// once no sync can still be writing it.
			if fi, err := d.Info(); err == nil && now.Sub(fi.ModTime()) > staleTmp {
				_ = md.Root.Remove(name)
			}
			continue
		case t&fs.ModeSymlink != 0:
			bad(name, "a symbolic link: not followed")
			continue
		case t.IsDir():
			bad(name, "a directory")
			continue
		case !t.IsRegular():
			bad(name, "not a regular file")
			continue
		}
		n, ok := mirrorfile.Number(name)
		if !ok {
			bad(name, "name is not NUMBER-SLUG.json")
			continue
		}
		b, err := readRegular(md.Root, name)
		if err != nil {
			bad(name, err.Error())
			continue
		}
		f, err := mirrorfile.Parse(name, b, repo)
		if err != nil {
			bad(name, err.Error())
			continue
		}
		files[n] = append(files[n], entry{name: name, file: f, raw: b})
	}
	return files, invalid, nil
}

// readRegular reads name when it is a regular file of a sane size.
func readRegular(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, errors.New("unreadable")
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > maxFileLen {
		return nil, errors.New("larger than any mirror file")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileLen+1))
	if err != nil {
		return nil, errors.New("unreadable")
	}
	return b, nil
}

// writeFile replaces name with b atomically: a new file (O_EXCL: never an
// existing one, nor a link's target) renamed over it. A rename replaces a
// link at name rather than writing through it. The file is 0600: a
// mirror holds issue text that may be private, not for every local user.
// The temporary name is this call's own; only it is removed on failure.
func writeFile(root *os.Root, name string, b []byte) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := tmpPrefix + hex.EncodeToString(rnd[:])
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		_ = root.Remove(tmp)
	}
	return err
}

// kind says what name is in the directory, without following it: "" when
// it does not exist, "file" for a regular file, else what it is.
func kind(root *os.Root, name string) (string, error) {
	fi, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", err
	case fi.Mode()&fs.ModeSymlink != 0:
		return "a symbolic link", nil
	case fi.Mode().IsRegular():
		return "file", nil
	default:
		return "not a regular file", nil
	}
}

// ownFileRefused refuses a sync whose own file (state, .gitignore) is a
// link or something else ghgate will not replace.
func ownFileRefused(md *toolkit.MirrorDir, name, what string) *contract.Error {
	return toolkit.MirrorDirRefused(filepath.Join(md.Path, name), "it is "+what+", which ghgate never makes: "+
		name+" must be a regular file or absent; the operator should look at who put it there")
}

// claim refuses a directory that is not the mirror's to write in: one
// that holds anything while it holds no state file (a regular
// .ghgate-sync.json; readState refuses another repository's). A sync
// writes only in an empty directory or in a mirror of ghgate's, so it
// never replaces or removes files it did not write.
func claim(md *toolkit.MirrorDir) error {
	if k, err := kind(md.Root, mirrorfile.StateFile); err != nil || k == "file" {
		return err
	}
	list, err := fs.ReadDir(md.Root.FS(), ".")
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return nil
	}
	return toolkit.MirrorDirRefused(md.Path, fmt.Sprintf("not empty and holds no mirror (%s is missing): "+
		"a sync writes only in an empty directory or its own mirror", mirrorfile.StateFile))
}

// ensureGitignore keeps the mirror out of any git repository around it.
// ghgate creates the file with the mirror; one that is there without a
// "*" line is not ghgate's to replace, and is reported instead.
func ensureGitignore(md *toolkit.MirrorDir, invalid *[]Invalid) error {
	k, err := kind(md.Root, gitignore)
	if err != nil {
		return err
	}
	switch k {
	case "file":
		b, err := readRegular(md.Root, gitignore)
		if err == nil && containsLine(string(b), "*") {
			return nil
		}
		*invalid = append(*invalid, Invalid{Path: filepath.Join(md.Path, gitignore),
			Reason: "has no \"*\" line, so git may track the mirror; left as it is"})
		return nil
	case "":
		return writeFile(md.Root, gitignore, []byte("*\n"))
	default:
		return ownFileRefused(md, gitignore, k)
	}
}

func containsLine(s, line string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// readState reads the state file: nil when there is none (a first
// sync), or one this tool cannot read, which is then reported and
// replaced (the name is the tool's own). A state of another repository
// refuses the sync: the directory holds that repository's mirror.
func readState(md *toolkit.MirrorDir, repo string, invalid *[]Invalid) (*mirrorfile.State, error) {
	k, err := kind(md.Root, mirrorfile.StateFile)
	if err != nil {
		return nil, err
	}
	switch k {
	case "":
		return nil, nil
	case "file":
	default:
		return nil, ownFileRefused(md, mirrorfile.StateFile, k)
	}
	report := func(reason string) (*mirrorfile.State, error) {
		*invalid = append(*invalid, Invalid{Path: filepath.Join(md.Path, mirrorfile.StateFile), Reason: reason + "; replaced after a full sync"})
		return nil, nil
	}
	b, err := readRegular(md.Root, mirrorfile.StateFile)
	if err != nil {
		return report(err.Error())
	}
	var st mirrorfile.State
	if json.Unmarshal(b, &st) != nil {
		return report("not valid JSON")
	}
	if st.Schema != mirrorfile.Schema {
		return report(fmt.Sprintf("unknown schema version %d", st.Schema))
	}
	if !strings.EqualFold(st.Repo, repo) {
		// Only an older ghgate, which let a caller choose the directory,
		// put another repository's mirror here.
		return nil, toolkit.MirrorDirRefused(md.Path, "holds the mirror of "+st.Repo+", not "+repo)
	}
	return &st, nil
}

// writeState records where the next sync starts.
func writeState(md *toolkit.MirrorDir, st mirrorfile.State) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(md.Root, mirrorfile.StateFile, append(b, '\n'))
}

// localFailed is a failure of the mirror directory itself (its state or
// .gitignore cannot be written, it cannot be listed). Calling again will
// meet the same file system, so it is not temporary.
func localFailed(md *toolkit.MirrorDir, name string, err error) error {
	var ce *contract.Error
	if errors.As(err, &ce) {
		return err
	}
	e := contract.Errorf(contract.CodeInternal, "the mirror directory %s: %s: %s", md.Path, name, errText(err))
	e.Temporary = false
	return e.WithRepair(contract.Repair{NextStep: "stop: the operator should check that the mirror directory is writable and has space; " +
		"retrying will not help until then"})
}

// errText is an error without the path os puts in front.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Op + ": " + le.Err.Error()
	}
	return err.Error()
}
