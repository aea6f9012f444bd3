package upstream

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"runtime"
	"slices"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// childUser is the identity a child is started under when [[upstream]]
// user (or write_user) is set.
type childUser struct {
	name     string
	uid, gid uint32
	// home is the child's HOME: the user's home directory when it exists,
	// else "/", so the child never gets the broker's.
	home string
}

// sysProcAttr starts the child as u with its primary group only: an empty
// Groups (not nil) makes the start call setgroups(0), so no supplementary
// group of the broker's (its own group, the bridge group) reaches the
// child.
func (u *childUser) sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: u.uid, Gid: u.gid, Groups: []uint32{}}}
}

// resolveChildUser looks name up and refuses a user through whom a child
// would reach what the broker protects: root, the broker's own user, a
// user whose primary group is one the broker holds (the broker's files are
// group-readable to it), and a user who owns, is in the group of, or by
// the mode bits could read the secrets file. It runs at start and again
// before every child starts, so a user changed since is caught.
func resolveChildUser(name, secretsFile string) (*childUser, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("user %q: %w", name, err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %q: uid %q: %w", name, u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %q: gid %q: %w", name, u.Gid, err)
	}
	cu := &childUser{name: name, uid: uint32(uid), gid: uint32(gid), home: "/"}
	if fi, err := os.Stat(u.HomeDir); err == nil && fi.IsDir() && u.HomeDir != "" {
		cu.home = u.HomeDir
	}
	var errs []error
	switch {
	case uid == 0:
		errs = append(errs, fmt.Errorf("user %q is root; name an unprivileged user", name))
	case int(uid) == os.Geteuid() || int(uid) == os.Getuid():
		errs = append(errs, fmt.Errorf("user %q is the broker's own user: the child could read the broker's files and other children's tokens; name a user of its own", name))
	}
	brokerGroups, err := os.Getgroups()
	if err != nil {
		return nil, fmt.Errorf("the broker's groups: %w", err)
	}
	brokerGroups = append(brokerGroups, os.Getegid(), os.Getgid())
	switch {
	case gid == 0:
		errs = append(errs, fmt.Errorf("user %q has root's group (gid 0) as its primary group", name))
	case slices.Contains(brokerGroups, int(gid)):
		errs = append(errs, fmt.Errorf("user %q's primary group (gid %d) is one the broker holds: the child could read what the broker shares with that group", name, gid))
	}
	if secretsFile != "" {
		if err := cu.refuseSecrets(u, secretsFile); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return cu, nil
}

// refuseSecrets fails when the user could read the secrets file: owning it
// (the owner may chmod it), in its group (primary or supplementary, as a
// login would give them), or by the mode's other bits. Directories on the
// way are not counted: the file alone must refuse.
func (cu *childUser) refuseSecrets(u *user.User, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("user %q: checking the secrets file: %w", cu.name, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("user %q: checking the secrets file %s: no owner information", cu.name, path)
	}
	ids, err := u.GroupIds()
	if err != nil {
		return fmt.Errorf("user %q: its groups: %w", cu.name, err)
	}
	inGroup := st.Gid == cu.gid || slices.Contains(ids, strconv.FormatUint(uint64(st.Gid), 10))
	switch {
	case st.Uid == cu.uid:
		return fmt.Errorf("user %q owns the secrets file %s", cu.name, path)
	case inGroup:
		return fmt.Errorf("user %q is in the group (gid %d) of the secrets file %s; name a user outside it", cu.name, st.Gid, path)
	case fi.Mode().Perm()&0o004 != 0:
		return fmt.Errorf("user %q could read the secrets file %s (mode %04o)", cu.name, path, fi.Mode().Perm())
	}
	return nil
}

// canSwitchUsers reports why the broker could not start a child as
// another user: it needs CAP_SETUID and CAP_SETGID in its effective set
// (root has them), and capset(2) to clear the capabilities a child would
// otherwise inherit.
func canSwitchUsers() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("reading the broker's capabilities: %w", err)
	}
	const need = 1<<unix.CAP_SETUID | 1<<unix.CAP_SETGID
	if data[0].Effective&need != need {
		return errors.New("the broker cannot switch users: it needs CAP_SETUID and CAP_SETGID (as root, or given to its user: " +
			"the unit drop-in deploy/ghgate-broker-upstream-users.conf); without them, remove user and write_user " +
			"and the children run as the broker's own user, trusted with every credential it holds")
	}
	return lockedDropInherited()
}

// lockedDropInherited runs dropInheritedCaps on a locked thread: at start,
// it proves the broker may clear the sets before any child needs it.
func lockedDropInherited() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return dropInheritedCaps()
}

// dropInheritedCaps clears the calling thread's inheritable and ambient
// capability sets, keeping its permitted and effective ones. A process
// that got CAP_SETUID as an ambient capability (systemd's
// AmbientCapabilities=, setpriv --ambient-caps) passes the ambient set to
// every program it runs, across a switch between two non-root users, so
// a child started without this could switch to any user, root included;
// and an inheritable capability would pass to a program carrying it as a
// file capability. Capabilities are per thread: the caller locks its
// thread and starts the child on it.
func dropInheritedCaps() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("reading capabilities: %w", err)
	}
	if data[0].Inheritable != 0 || data[1].Inheritable != 0 {
		data[0].Inheritable, data[1].Inheritable = 0, 0
		if err := unix.Capset(&hdr, &data[0]); err != nil {
			return fmt.Errorf("clearing the inheritable capabilities (capset, which the unit drop-in allows): %w", err)
		}
	}
	// Lowering the inheritable set lowers the ambient one with it; this
	// covers a kernel that kept it. EINVAL: a kernel without ambient
	// capabilities (before 4.3) has none to clear.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing the ambient capabilities: %w", err)
	}
	return nil
}
