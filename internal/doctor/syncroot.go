package doctor

import (
	"io/fs"
)

// syncRoot: the directory mirrors are written under, when one is
// configured, can be changed only by root and the service user, as can
// every directory above it. Whoever else can write it plants files the
// broker serves agents as issues (the sticky bit does not stop a name
// nobody has made yet); whoever can rename a directory above it puts a
// tree of their own in its place. The broker refuses to start on either,
// and on a missing one.
func (c *checker) syncRoot() {
	const name = "sync root"
	if c.cfg == nil || c.cfg.Tools.SyncRoot == "" {
		return
	}
	dir := c.cfg.Tools.SyncRoot
	fix := "make it a directory only " + c.opts.ServiceUser + " can write (owned by it, mode 0700)"
	fi, err := c.env.Lstat(dir)
	if isNotExist(err) {
		c.add(name, Fail, "%s does not exist: the broker refuses to start; create it, owned by %s, mode 0700", dir, c.opts.ServiceUser)
		return
	}
	if err != nil {
		c.add(name, Fail, "%v", err)
		return
	}
	desc := c.describeDir(fi)
	switch {
	case fi.Mode.Type() == fs.ModeSymlink:
		c.add(name, Fail, "%s is a symbolic link (%s): whoever can change it can point mirrors elsewhere; configure the directory it leads to", dir, c.owner(fi))
		return
	case !fi.Mode.IsDir():
		c.add(name, Fail, "%s is not a directory", dir)
		return
	case !c.ownedByRootOrService(fi):
		c.add(name, Fail, "%s is %s: owned by neither root nor %s, so its owner can plant files agents read as issues; %s", dir, desc, c.opts.ServiceUser, fix)
		return
	case fi.Mode.Perm()&0o022 != 0:
		c.add(name, Fail, "%s is %s: group or others can plant files agents read as issues; %s", dir, desc, fix)
		return
	}
	if problem := c.aboveProblem(dir, "sync_root", "put mirrors of their own in its place", fix); problem != "" {
		c.add(name, Fail, "%s", problem)
		return
	}
	if c.svc != nil && !mayAccess(fi, c.svc, accWrite|accExecute) {
		c.add(name, Warn, "%s is %s: %s cannot write it, so every sync fails", dir, desc, c.opts.ServiceUser)
		return
	}
	c.add(name, Pass, "%s is %s, below directories only root or %s can change", dir, desc, c.opts.ServiceUser)
}
