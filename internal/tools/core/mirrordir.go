package core

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
)

// MirrorDir is a local mirror's directory, opened under the operator's
// sync_root. Every file operation goes through Root, which the kernel
// keeps inside the directory: a name that is, or becomes, a symbolic link
// cannot lead a read or a write out of it.
type MirrorDir struct {
	Root *os.Root
	// Path is the directory's absolute path, for reports.
	Path string
	// Rel is Path relative to sync_root, as an agent names it in dir.
	Rel string
}

// Close releases the directory.
func (m *MirrorDir) Close() error { return m.Root.Close() }

// DefaultMirrorDir is where a repository's mirror lives when no dir is
// named: sync_root/OWNER/REPO. github_get_issue's source mirror reads it.
func DefaultMirrorDir(owner, repo string) string { return owner + "/" + repo }

// SyncNotConfigured is the refusal of a deployment without sync_root.
func SyncNotConfigured() *contract.Error {
	e := contract.Errorf(contract.CodeSyncNotConfigured,
		"this deployment keeps no local mirror: the operator has not set sync_root; nothing was read or written")
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "stop: the operator must set sync_root (config file key sync_root, " +
		"or --sync-root; the broker: sync_root under [tools]) to a directory mirrors may be written under; retrying will not help",
		Alternative: "read issues from GitHub with " + NameGetIssue})
}

// dirRefused refuses a dir argument; reason is what details.reason says.
// The repair syncs into the default directory, which the checks accept
// unless the operator's own tree is what fails them.
func dirRefused(dir, owner, repo, reason string) *contract.Error {
	e := contract.Errorf(contract.CodeSyncDirRefused, "dir %q refused: %s; nothing was written", dir, reason).WithField("dir", reason)
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "omit dir: the mirror then goes to sync_root/" + DefaultMirrorDir(owner, repo),
		Tool: NameSyncIssues, Arguments: map[string]any{"owner": owner, "repo": repo}})
}

// ErrNoMirror is OpenMirrorDir's answer, with create false, for a
// directory that does not exist yet.
var ErrNoMirror = errors.New("no mirror directory")

// OpenMirrorDir opens dir under SyncRoot: dir is relative to sync_root,
// or absolute and under it; "" is DefaultMirrorDir. It refuses, before
// touching anything: no sync_root; a dir that leaves sync_root (an
// absolute path elsewhere, a ".." component); a dir with a ".git"
// component (git's own files are never a mirror's place); a component
// that is a symbolic link or not a directory. With create, a component
// that holds a ".git" entry is refused too: it is a project's working
// tree, whose files a sync must not write among. With create, missing
// directories are made (0700: a mirror holds issue text that may be
// private, not for every local user); without it, a missing one is
// ErrNoMirror.
//
// The checks name the reason; the confinement is os.Root's: a component
// swapped for a link after it was checked still resolves inside
// sync_root, never outside it.
func (s *Service) OpenMirrorDir(dir, owner, repo string, create bool) (*MirrorDir, error) {
	if s.SyncRoot == "" || !filepath.IsAbs(s.SyncRoot) {
		return nil, SyncNotConfigured()
	}
	base := filepath.Clean(s.SyncRoot)
	name := dir
	if name == "" {
		name = DefaultMirrorDir(owner, repo)
	}
	rel := name
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(base, filepath.Clean(name))
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return nil, dirRefused(dir, owner, repo, "outside sync_root "+base)
		}
		rel = r
	}
	var parts []string
	for _, p := range strings.Split(filepath.ToSlash(rel), "/") {
		switch {
		case p == "" || p == ".":
			continue
		case p == "..":
			return nil, dirRefused(dir, owner, repo, `a ".." component: dir must stay under sync_root`)
		case strings.EqualFold(p, ".git"):
			return nil, dirRefused(dir, owner, repo, "inside a .git directory")
		}
		parts = append(parts, p)
	}
	for _, p := range strings.Split(filepath.ToSlash(base), "/") {
		if strings.EqualFold(p, ".git") {
			return nil, dirRefused(dir, owner, repo, "sync_root is inside a .git directory")
		}
	}
	if len(parts) == 0 {
		return nil, dirRefused(dir, owner, repo, "names sync_root itself: a mirror needs its own directory below it")
	}
	root, err := os.OpenRoot(base)
	if err != nil {
		return nil, contract.Errorf(contract.CodeSyncNotConfigured, "sync_root %s cannot be opened: %v", base, err).
			WithRepair(contract.Repair{NextStep: "stop: the operator must make sync_root an existing directory ghgate can write"})
	}
	defer root.Close()
	for i := range parts {
		p := filepath.Join(parts[:i+1]...)
		fi, err := root.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if !create {
				return nil, ErrNoMirror
			}
			if err = root.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
				return nil, dirRefused(dir, owner, repo, "cannot create "+p+": "+errText(err))
			}
			fi, err = root.Lstat(p)
		}
		switch {
		case err != nil:
			return nil, dirRefused(dir, owner, repo, "cannot read "+p+": "+errText(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, dirRefused(dir, owner, repo, p+" is a symbolic link: links are not followed")
		case !fi.IsDir():
			return nil, dirRefused(dir, owner, repo, p+" is not a directory")
		}
		if create {
			if _, err := root.Lstat(filepath.Join(p, ".git")); err == nil {
				return nil, dirRefused(dir, owner, repo, p+" holds .git: a repository's working tree is no mirror's place")
			}
		}
	}
	relPath := filepath.Join(parts...)
	mr, err := root.OpenRoot(relPath)
	if err != nil {
		return nil, dirRefused(dir, owner, repo, "cannot open: "+errText(err))
	}
	return &MirrorDir{Root: mr, Path: filepath.Join(base, relPath), Rel: filepath.ToSlash(relPath)}, nil
}

// errText is an error without the path os puts in front (the caller
// names the path the agent gave, not the one resolved).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
