package broker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// socketDirAdvice is what to do about a socket directory others control.
const socketDirAdvice = "use a directory only the service user can write, such as the unit's RuntimeDirectory /run/ghgate"

// CheckSocketDir refuses a socket path whose directory someone other than
// the broker's user (or root) could change: whoever can write the
// directory can move the socket aside and listen in its place, and agents
// would hand their calls to the impostor. The directory must exist, not be
// a symbolic link, be owned by the broker's effective uid or root, and be
// writable by neither group nor others. A symbolic link at the socket path
// itself is refused too, never followed.
func CheckSocketDir(socketPath string) error {
	dir := filepath.Dir(socketPath)
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("socket %s: its directory %s does not exist; %s", socketPath, dir, socketDirAdvice)
	}
	if err != nil {
		return fmt.Errorf("socket %s: %w", socketPath, err)
	}
	if problem := privateDirProblem(fi); problem != "" {
		return fmt.Errorf("socket %s: its directory %s %s; %s", socketPath, dir, problem, socketDirAdvice)
	}
	if err := checkAncestors(dir); err != nil {
		return fmt.Errorf("socket %s: %w; %s", socketPath, err, socketDirAdvice)
	}
	if fi, err := os.Lstat(socketPath); err == nil && fi.Mode().Type() == fs.ModeSymlink {
		return fmt.Errorf("socket %s is a symbolic link: not following it nor replacing it, as something other than this broker put it there; remove it", socketPath)
	}
	return nil
}

// privateDirProblem says why a directory (as Lstat saw it) is not one only
// the broker's user and root can change, or "" when it is. The sticky bit
// is not an exception: it stops others from renaming the broker's files
// but not from creating names the broker has not created yet.
func privateDirProblem(fi fs.FileInfo) string {
	uid, ok := fileUID(fi)
	desc := describeDir(fi, uid, ok)
	switch {
	case fi.Mode().Type() == fs.ModeSymlink:
		return "is a symbolic link, which whoever owns it or its directory can point elsewhere"
	case !fi.IsDir():
		return fmt.Sprintf("is not a directory (%s)", fi.Mode().Type())
	case !ok:
		return "has no owner this system reports"
	case uid != uint32(os.Geteuid()) && uid != 0:
		return fmt.Sprintf("is %s: owned by neither this broker's user (uid %d) nor root", desc, os.Geteuid())
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Sprintf("is %s: writable by group or others", desc)
	}
	return ""
}

func fileUID(fi fs.FileInfo) (uint32, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}

// describeDir is "owned by NAME (uid N), mode 0755" for refusals.
func describeDir(fi fs.FileInfo, uid uint32, known bool) string {
	mode := fmt.Sprintf("mode %04o", modeBits(fi.Mode()))
	if !known {
		return mode
	}
	return fmt.Sprintf("owned by %s, %s", ownerName(uid), mode)
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

// ownerName is "name (uid N)", or "uid N" for a uid without an account.
func ownerName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil {
		return u.Username + " (uid " + id + ")"
	}
	return "uid " + id
}

// checkAncestors refuses a directory any of whose ancestors someone other
// than root or the broker's user could change: whoever can rename an
// ancestor can put a directory of their own, with their own listener, in
// the socket's place. An ancestor writable by group or others is accepted
// only with the sticky bit (as /tmp), which keeps others from renaming
// what they do not own. The ancestors are checked both as written and,
// where a symbolic link leads elsewhere (/var/run to /run), as resolved.
func checkAncestors(dir string) error {
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
// root or the broker's user replace what is below it, or "".
func ancestorProblem(fi fs.FileInfo) string {
	uid, ok := fileUID(fi)
	switch {
	case !ok:
		return "has no owner this system reports"
	case uid != uint32(os.Geteuid()) && uid != 0:
		return fmt.Sprintf("is %s: owned by neither this broker's user (uid %d) nor root", describeDir(fi, uid, ok), os.Geteuid())
	case fi.Mode().Type() == fs.ModeSymlink:
		// Only its directory's writers can replace it, and that directory
		// is checked too; where it leads is checked as resolved.
		return ""
	case fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0:
		return fmt.Sprintf("is %s: writable by group or others without the sticky bit", describeDir(fi, uid, ok))
	}
	return ""
}
