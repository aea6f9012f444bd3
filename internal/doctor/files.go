package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// configFile: only root or the service user may change the config (an
// upstream command in it runs as the broker, with the credentials), and
// the service user must be able to read it.
func (c *checker) configFile() {
	const name = "config file"
	fi, err := c.env.Stat(c.opts.ConfigPath)
	if err != nil {
		c.add(name, Fail, "%v", err)
		return
	}
	desc := c.describe(fi)
	switch {
	case !fi.Mode.IsRegular():
		c.add(name, Fail, "%s is not a regular file", c.opts.ConfigPath)
	case !c.ownedByRootOrService(fi):
		c.add(name, Fail, "%s is %s: owned by neither root nor %s, so its owner can change routes and upstream commands", c.opts.ConfigPath, desc, c.opts.ServiceUser)
	case fi.Mode.Perm()&0o022 != 0:
		c.add(name, Fail, "%s is %s: writable by group or others, who could change routes and upstream commands", c.opts.ConfigPath, desc)
	case c.svc != nil && !mayAccess(fi, c.svc, accRead):
		c.add(name, Fail, "%s is %s: %s cannot read it", c.opts.ConfigPath, desc, c.opts.ServiceUser)
	default:
		c.add(name, Pass, "%s is %s", c.opts.ConfigPath, desc)
	}
}

// serviceUser: the broker's own account exists and is not root.
func (c *checker) serviceUser() {
	const name = "service user"
	switch {
	case c.svcErr != nil:
		c.add(name, Fail, "%s: %v (provision.sh creates it)", c.opts.ServiceUser, c.svcErr)
	case c.svc.UID == 0:
		c.add(name, Fail, "%s is uid 0: the broker must not run as root", c.opts.ServiceUser)
	default:
		c.add(name, Pass, "%s is uid %d, gid %d", c.svc.Name, c.svc.UID, c.svc.GID)
	}
}

// bridgeGroup: the socket's group exists, is not the service user's own
// group (its members would read the broker's files), and the broker can
// give it to the socket.
func (c *checker) bridgeGroup() {
	const name = "bridge group"
	switch {
	case c.cfg == nil:
		c.add(name, Warn, "not checked: the config did not load")
	case c.cfg.Listen.Group == "":
		c.add(name, Warn, "[listen] group is empty: the socket keeps the broker's own group, so agents would have to join that group, which owns the broker's files")
	case c.bridgeErr != nil:
		c.add(name, Fail, "%s: %v (provision.sh creates it)", c.cfg.Listen.Group, c.bridgeErr)
	case c.svc != nil && c.svc.GID == c.bridge.GID:
		c.add(name, Fail, "%s is %s's primary group: agents in it could read the broker's group-readable files", c.bridge.Name, c.svc.Name)
	case c.svc != nil && !c.svc.InGroup(c.bridge.GID):
		c.add(name, Warn, "%s (gid %d) exists, but %s is not a member in the group database: fine under the shipped unit (SupplementaryGroups=), otherwise the broker cannot give the socket this group", c.bridge.Name, c.bridge.GID, c.svc.Name)
	default:
		c.add(name, Pass, "%s (gid %d) exists and %s is a member", c.bridge.Name, c.bridge.GID, c.opts.ServiceUser)
	}
}

// secretsPath is the configured secrets file, "" when none.
func (c *checker) secretsPath() string {
	if c.cfg == nil {
		return ""
	}
	return c.cfg.Secrets.File
}

// secretsFile: mode 0600 or 0640, owned by root or the service user, a
// readable group only the service's own, and readable by the broker.
func (c *checker) secretsFile() {
	const name = "secrets file"
	path := c.secretsPath()
	if c.cfg == nil {
		c.add(name, Warn, "not checked: the config did not load")
		return
	}
	if path == "" {
		c.add(name, Warn, "no [secrets] file: every secret must come from systemd credentials ($CREDENTIALS_DIRECTORY)")
		return
	}
	fi, err := c.env.Stat(path)
	if err != nil {
		c.add(name, Fail, "%v", err)
		return
	}
	desc := c.describe(fi)
	perm := fi.Mode.Perm()
	switch {
	case !fi.Mode.IsRegular():
		c.add(name, Fail, "%s is not a regular file", path)
	case !c.ownedByRootOrService(fi):
		c.add(name, Fail, "%s is %s: owned by neither root nor %s", path, desc, c.opts.ServiceUser)
	case perm&^0o640 != 0:
		c.add(name, Fail, "%s is %s: only 0600 or 0640 is allowed (no write for the group, nothing for others)", path, desc)
	case perm&0o040 != 0 && (c.svc == nil || fi.GID != c.svc.GID):
		c.add(name, Fail, "%s is %s: group-readable by a group other than %s's own", path, desc, c.opts.ServiceUser)
	case c.svc != nil && !mayAccess(fi, c.svc, accRead):
		c.add(name, Fail, "%s is %s: %s cannot read it", path, desc, c.opts.ServiceUser)
	case fi.ACL:
		c.add(name, Warn, "%s is %s but carries an ACL that may grant more than the bits show (getfacl %s)", path, desc, path)
	default:
		c.add(name, Pass, "%s is %s", path, desc)
	}
}

// secretsDir: whoever can write the secrets file's directory can replace
// the file, so only root or the service user may.
func (c *checker) secretsDir() {
	const name = "secrets directory"
	path := c.secretsPath()
	if path == "" {
		return
	}
	dir := filepath.Dir(path)
	fi, err := c.env.Stat(dir)
	if err != nil {
		c.add(name, Fail, "%v", err)
		return
	}
	desc := c.describe(fi)
	switch {
	case !c.ownedByRootOrService(fi):
		c.add(name, Fail, "%s is %s: its owner can replace the secrets file", dir, desc)
	case fi.Mode.Perm()&0o022 != 0:
		c.add(name, Fail, "%s is %s: group or others can replace the secrets file", dir, desc)
	default:
		c.add(name, Pass, "%s is %s", dir, desc)
	}
}

// secretNames: every secret a route names is in the secrets file or a
// systemd credential store. Only the names are read back, never values.
func (c *checker) secretNames() {
	const name = "route secrets"
	if c.cfg == nil {
		return
	}
	names := c.cfg.SecretNames()
	inFile := map[string]bool{}
	var fileNote string
	if path := c.secretsPath(); path != "" {
		data, err := c.env.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrPermission):
			c.add(name, Warn, "cannot read %s as this user: run doctor as root to check that every route's secret is there", path)
			return
		case err != nil:
			fileNote = fmt.Sprintf(" (%s unreadable: %v)", path, err)
		default:
			var m map[string]any
			if _, err := toml.Decode(string(data), &m); err != nil {
				// The parser's message can quote the file; give the line only.
				var pe toml.ParseError
				if errors.As(err, &pe) {
					c.add(name, Fail, "%s does not parse as TOML (line %d)", path, pe.Position.Line)
				} else {
					c.add(name, Fail, "%s does not parse as TOML", path)
				}
				return
			}
			for k := range m {
				inFile[k] = true
			}
		}
	}
	var missing []string
	for _, n := range names {
		if inFile[n] || c.inCredStore(n) {
			continue
		}
		if !slices.Contains(missing, n) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		c.add(name, Fail, "not in the secrets file nor in %s: %s%s", strings.Join(c.env.CredStores, " or "), strings.Join(missing, ", "), fileNote)
		return
	}
	c.add(name, Pass, "all %d secret names the routes use are present", len(names))
}

func (c *checker) inCredStore(secret string) bool {
	for _, dir := range c.env.CredStores {
		if _, err := c.env.Stat(filepath.Join(dir, secret)); err == nil {
			return true
		}
	}
	return false
}

// socket: a Unix socket of mode 0660 in the bridge group, the broker's own
// (owned by the service user), in a directory only the service user or
// root can write. Whoever can write the directory, or own the socket, can
// put another listener where agents connect and read their calls. The
// path and the directory are looked at themselves, never through a link:
// the broker creates neither as one. Missing is a warning: the broker may
// not be running yet.
func (c *checker) socket() {
	const name = "socket"
	if c.cfg == nil {
		return
	}
	path := c.cfg.Listen.Socket
	dir := filepath.Dir(path)
	dirDesc, problem := c.socketDir(dir)
	if problem != "" {
		c.add(name, Fail, "%s", problem)
		return
	}
	fi, err := c.env.Lstat(path)
	if isNotExist(err) {
		c.add(name, Warn, "%s does not exist: is the broker running?", path)
		return
	}
	if err != nil {
		c.add(name, Fail, "%v", err)
		return
	}
	desc := c.describe(fi)
	perm := fi.Mode.Perm()
	switch {
	case fi.Mode.Type() == fs.ModeSymlink:
		c.add(name, Fail, "%s is a symbolic link (%s): the broker never makes one, so agents may be connecting to another listener; stop the broker, remove the link and start it again", path, c.owner(fi))
	case fi.Mode.Type() != fs.ModeSocket:
		c.add(name, Fail, "%s is not a socket", path)
	case c.svc == nil || fi.UID != c.svc.UID:
		c.add(name, Fail, "%s is %s: not owned by %s, so it is not the broker's socket and another listener may be answering agents", path, desc, c.opts.ServiceUser)
	case perm&0o007 != 0:
		c.add(name, Fail, "%s is %s: others can connect and act with the broker's credentials", path, desc)
	case c.bridge != nil && fi.GID != c.bridge.GID:
		c.add(name, Fail, "%s is %s: its group is not %s", path, desc, c.bridge.Name)
	case perm != 0o660:
		c.add(name, Warn, "%s is %s: expected 0660 (the group needs read and write to connect)", path, desc)
	default:
		c.add(name, Pass, "%s is %s, in %s (%s)", path, desc, dir, dirDesc)
	}
}

// socketDir describes the socket's directory and says why it lets someone
// other than the service user or root replace the socket; problem is ""
// when it does not (or is missing, which the socket's absence reports).
func (c *checker) socketDir(dir string) (desc, problem string) {
	fi, err := c.env.Lstat(dir)
	if isNotExist(err) {
		return "", ""
	}
	if err != nil {
		return "", err.Error()
	}
	desc = c.describeDir(fi)
	const fix = "use a directory only the service user can write, such as the unit's RuntimeDirectory /run/ghgate"
	switch {
	case fi.Mode.Type() == fs.ModeSymlink:
		return desc, fmt.Sprintf("the socket's directory %s is a symbolic link (%s): whoever can change it can point agents at another listener; %s", dir, c.owner(fi), fix)
	case !fi.Mode.IsDir():
		return desc, fmt.Sprintf("the socket's directory %s is not a directory", dir)
	case !c.ownedByRootOrService(fi):
		return desc, fmt.Sprintf("the socket's directory %s is %s: owned by neither root nor %s, so its owner can move the socket aside and listen in its place; %s", dir, desc, c.opts.ServiceUser, fix)
	case fi.Mode.Perm()&0o022 != 0:
		return desc, fmt.Sprintf("the socket's directory %s is %s: group or others can move the socket aside and listen in its place; %s", dir, desc, fix)
	}
	return desc, c.aboveProblem(dir, "the socket's", "put another listener in its place", fix)
}

// aboveProblem says which directory above dir lets someone other than
// root or the service user rename what is below it and harm (what they
// could then do), or "". Group- or world-writable is safe only with the
// sticky bit (as /tmp), which keeps others from renaming what they do not
// own. The directories above dir as written and, where a link leads
// elsewhere (/var/run to /run), as resolved, as the broker checks them.
func (c *checker) aboveProblem(dir, what, harm, fix string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err.Error()
	}
	paths := []string{abs}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil && resolved != abs {
		paths = append(paths, resolved)
	}
	for _, p := range paths {
		if problem := c.ancestorsProblem(p, what, harm, fix); problem != "" {
			return problem
		}
	}
	return ""
}

// ancestorsProblem is aboveProblem for one spelling of dir.
func (c *checker) ancestorsProblem(dir, what, harm, fix string) string {
	for a := filepath.Dir(dir); ; a = filepath.Dir(a) {
		afi, err := c.env.Lstat(a)
		if err != nil {
			return err.Error()
		}
		switch {
		case !c.ownedByRootOrService(afi):
			return fmt.Sprintf("%s, a directory above %s, is owned by %s: its owner can rename it and %s; %s", a, what, c.owner(afi), harm, fix)
		case afi.Mode.Type() != fs.ModeSymlink && afi.Mode.Perm()&0o022 != 0 && afi.Mode&fs.ModeSticky == 0:
			return fmt.Sprintf("%s, a directory above %s, is %s %04o: group or others can rename what is in it and %s; %s",
				a, what, c.owner(afi), uint32(afi.Mode.Perm()), harm, fix)
		}
		if a == filepath.Dir(a) {
			return ""
		}
	}
}

// statSocket stats the configured socket for the check name; a missing
// socket is a warning (the broker may not be running yet), any other
// failure a fail. ok is false when the check has been reported already.
func (c *checker) statSocket(name string) (fi FileInfo, ok bool) {
	path := c.cfg.Listen.Socket
	fi, err := c.env.Stat(path)
	if isNotExist(err) {
		c.add(name, Warn, "%s does not exist: is the broker running?", path)
		return fi, false
	}
	if err != nil {
		c.add(name, Fail, "%v", err)
		return fi, false
	}
	return fi, true
}
