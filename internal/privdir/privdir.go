// Package privdir says whether a directory can be changed only by this
// process's user and root: the rule the broker applies to its socket
// directory and audit log, and every deployment to sync_root. Whoever can
// write a directory can put files of their own in it (a listener where
// agents connect, a mirror file read as an issue); whoever can rename a
// directory above it can put a whole directory of their own in its place.
package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
)

// Check refuses dir unless only this process's user and root can change
// it or what is in it: dir must exist and pass [Problem], and every
// directory above it [Ancestors]. The error names the directory at fault
// and why; the caller adds what to do.
func Check(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s does not exist", dir)
	}
	if err != nil {
		return err
	}
	if problem := Problem(fi); problem != "" {
		return fmt.Errorf("%s %s", dir, problem)
	}
	return Ancestors(dir)
}

// Problem says why a directory (as Lstat saw it) is not one only this
// process's user and root can change, or "" when it is. The sticky bit is
// not an exception: it stops others from renaming what they do not own,
// but not from creating names nobody has created yet.
func Problem(fi fs.FileInfo) string {
	uid, ok := FileUID(fi)
	desc := Describe(fi, uid, ok)
	switch {
	case fi.Mode().Type() == fs.ModeSymlink:
		return "is a symbolic link, which whoever owns it or its directory can point elsewhere"
	case !fi.IsDir():
		return fmt.Sprintf("is not a directory (%s)", fi.Mode().Type())
	case !ok:
		return "has no owner this system reports"
	case uid != uint32(os.Geteuid()) && uid != 0:
		return fmt.Sprintf("is %s: owned by neither this process's user (uid %d) nor root", desc, os.Geteuid())
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Sprintf("is %s: writable by group or others", desc)
	}
	return ""
}

// Ancestors refuses a directory any of whose ancestors someone other than
// root or this process's user could change: whoever can rename an
// ancestor can put a directory of their own in dir's place. An ancestor
// writable by group or others is accepted only with the sticky bit (as
// /tmp), which keeps others from renaming what they do not own. The
// ancestors are checked both as written and, where a symbolic link leads
// elsewhere (/var/run to /run), as resolved.
func Ancestors(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	paths := []string{abs}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil && resolved != abs {
		paths = append(paths, resolved)
	}
	for _, p := range paths {
		for a := filepath.Dir(p); ; a = filepath.Dir(a) {
			fi, err := os.Lstat(a)
			if err != nil {
				return err
			}
			if problem := ancestorProblem(fi); problem != "" {
				return fmt.Errorf("the directory above it, %s, %s", a, problem)
			}
			if a == filepath.Dir(a) {
				break
			}
		}
	}
	return nil
}

// ancestorProblem says why an ancestor directory lets someone other than
// root or this process's user replace what is below it, or "".
func ancestorProblem(fi fs.FileInfo) string {
	uid, ok := FileUID(fi)
	switch {
	case !ok:
		return "has no owner this system reports"
	case uid != uint32(os.Geteuid()) && uid != 0:
		return fmt.Sprintf("is %s: owned by neither this process's user (uid %d) nor root", Describe(fi, uid, ok), os.Geteuid())
	case fi.Mode().Type() == fs.ModeSymlink:
		// Only its directory's writers can replace it, and that directory
		// is checked too; where it leads is checked as resolved.
		return ""
	case fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0:
		return fmt.Sprintf("is %s: writable by group or others without the sticky bit", Describe(fi, uid, ok))
	}
	return ""
}

// Describe is "owned by NAME (uid N), mode 0755" for refusals.
func Describe(fi fs.FileInfo, uid uint32, known bool) string {
	mode := fmt.Sprintf("mode %04o", modeBits(fi.Mode()))
	if !known {
		return mode
	}
	return fmt.Sprintf("owned by %s, %s", OwnerName(uid), mode)
}

// modeBits are the permission bits with setuid, setgid and sticky, in the
// octal form chmod takes.
func modeBits(m fs.FileMode) uint32 {
	bits := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		bits |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		bits |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		bits |= 0o1000
	}
	return bits
}

// OwnerName is "name (uid N)", or "uid N" for a uid without an account.
func OwnerName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil {
		return u.Username + " (uid " + id + ")"
	}
	return "uid " + id
}
