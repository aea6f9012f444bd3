package doctor

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// Access bits, as in a permission triplet.
const (
	accRead    = 4
	accWrite   = 2
	accExecute = 1
)

// mayAccess applies the kernel's permission-bit rule: the owner class if
// the user owns the file, else the group class if any of its groups owns
// it, else the other class. Root passes. ACLs are not evaluated (FileInfo.ACL
// flags them).
func mayAccess(fi FileInfo, u *User, want uint32) bool {
	if u.UID == 0 {
		return true
	}
	perm := uint32(fi.Mode.Perm())
	var bits uint32
	switch {
	case fi.UID == u.UID:
		bits = perm >> 6
	case u.InGroup(fi.GID):
		bits = perm >> 3
	default:
		bits = perm
	}
	return bits&want == want
}

// accessClass names the class of bits that apply to u, for reasons.
func accessClass(fi FileInfo, u *User) string {
	switch {
	case u.UID == 0:
		return "root"
	case fi.UID == u.UID:
		return "owner"
	case u.InGroup(fi.GID):
		return "group"
	default:
		return "other"
	}
}

// blockingDir returns the first directory on path's way that u cannot
// search, or "" when every one is searchable (or cannot be inspected).
func (c *checker) blockingDir(path string, u *User) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	var dirs []string
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == "/" || d == "." {
			break
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		fi, err := c.env.Stat(dirs[i])
		if err != nil {
			continue
		}
		if !mayAccess(fi, u, accExecute) {
			return dirs[i]
		}
	}
	return ""
}

// owner formats a file's owner and group as user:group (ids when unnamed).
func (c *checker) owner(fi FileInfo) string {
	un := fmt.Sprint(fi.UID)
	if u, err := c.env.Accounts.UserByID(fi.UID); err == nil {
		un = u.Name
	}
	gn := fmt.Sprint(fi.GID)
	if g, err := c.env.Accounts.GroupByID(fi.GID); err == nil {
		gn = g.Name
	}
	return un + ":" + gn
}

// describe is "owner:group 0640" for reasons.
func (c *checker) describe(fi FileInfo) string {
	return fmt.Sprintf("%s %04o", c.owner(fi), uint32(fi.Mode.Perm()))
}

// describeDir is describe with the sticky bit, which matters for a
// directory: "owner:group 1777".
func (c *checker) describeDir(fi FileInfo) string {
	mode := uint32(fi.Mode.Perm())
	if fi.Mode&fs.ModeSticky != 0 {
		mode |= 0o1000
	}
	return fmt.Sprintf("%s %04o", c.owner(fi), mode)
}

// ownedByRootOrService reports whether only root or the service user can
// change the file's mode or contents through ownership.
func (c *checker) ownedByRootOrService(fi FileInfo) bool {
	return fi.UID == 0 || (c.svc != nil && fi.UID == c.svc.UID)
}
