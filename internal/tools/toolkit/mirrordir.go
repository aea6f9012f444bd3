package toolkit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/privdir"
)

// MirrorDir is a local mirror's directory, opened under the operator's
// sync_root. Every file operation goes through Root, which the kernel
// keeps inside the directory: a name that is, or becomes, a symbolic link
// cannot lead a read or a write out of it.
type MirrorDir struct {
	Root *os.Root
	// Path is the directory's absolute path, for reports.
	Path string
}

// Close releases the directory.
func (m *MirrorDir) Close() error { return m.Root.Close() }

// MirrorDirName is where a repository's mirror lives under sync_root:
// OWNER/REPO in lower case, as GitHub compares names. It is the only
// place: no caller chooses another, so a repository's mirror is never
// where another repository's belongs.
func MirrorDirName(owner, repo string) string {
	return strings.ToLower(owner) + "/" + strings.ToLower(repo)
}

// syncRootAdvice is what the operator does about a sync_root others can
// change.
const syncRootAdvice = "whoever can write it, or rename a directory above it, can plant files agents read as issues; " +
	"use a directory only the service user can write (owned by it, mode 0700)"

// CheckSyncRoot refuses a sync_root that anyone but this process's user
// and root could change: it must be an absolute path to an existing
// directory (not a symbolic link) owned by this user or root and writable
// by neither group nor others, below directories only this user or root
// can rename (group- or world-writable ones only with the sticky bit, as
// /tmp). The broker checks it at start; every mirror opened checks it
// again, as the tree may have changed since.
func CheckSyncRoot(root string) error {
	if !filepath.IsAbs(root) {
		return fmt.Errorf("sync_root %s is not an absolute path", root)
	}
	if err := privdir.Check(filepath.Clean(root)); err != nil {
		return fmt.Errorf("sync_root: %w; %s", err, syncRootAdvice)
	}
	return nil
}

// SyncNotConfigured is the refusal of a deployment without sync_root.
func SyncNotConfigured() *contract.Error {
	e := contract.Errorf(contract.CodeSyncNotConfigured,
		"this deployment keeps no local mirror: the operator has not set sync_root; nothing was read or written")
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "stop: the operator must set sync_root (config file key sync_root, " +
		"or --sync-root; the broker: sync_root under [tools]) to a directory only the service user can write; retrying will not help",
		Alternative: "read issues from GitHub with " + NameGetIssue})
}

// syncRootUnsafe refuses every mirror while sync_root fails
// [CheckSyncRoot]: nothing under it can be trusted, nor written for others.
func syncRootUnsafe(err error) *contract.Error {
	e := contract.Errorf(contract.CodeSyncNotConfigured, "%v; nothing was read or written", err)
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "stop: the operator must make sync_root a directory only the service user can write; " +
		"retrying will not help", Alternative: "read issues from GitHub with " + NameGetIssue})
}

// MirrorDirRefused refuses a mirror directory (or a file ghgate keeps in
// it) that the operator's tree, not the call, makes unusable: path is what
// is at fault, reason what details.reason says. The caller cannot name
// another directory, so the repair is the operator's.
func MirrorDirRefused(path, reason string) *contract.Error {
	e := contract.Errorf(contract.CodeSyncDirRefused, "%s: %s; nothing was written", path, reason)
	e.Details = &contract.Details{Reason: reason}
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "stop: a repository's mirror lives only at sync_root/OWNER/REPO; " +
		"the operator must move away what is there (details.reason says what); retrying will not help",
		Alternative: "read issues from GitHub with " + NameGetIssue})
}

// mirrorNotReadable refuses the mirror of a repository the caller's grant
// does not let it read: its files are that repository's issues.
func mirrorNotReadable(owner, repo string) *contract.Error {
	scope := "read:" + owner + "/" + repo
	e := contract.Errorf(contract.CodeInsufficientScope,
		"this caller may not read %s/%s, so it may neither sync nor read its mirror (missing %s); nothing was read or written", owner, repo, scope)
	e.Details = &contract.Details{RequiredScopes: []string{scope}}
	e.Settlement = contract.NotStarted
	return e.WithRepair(contract.Repair{NextStep: "mirror only repositories this caller may read, or ask the operator to widen its grant; retrying will not help"})
}

// ErrNoMirror is OpenMirrorDir's answer, with create false, for a
// directory that does not exist yet.
var ErrNoMirror = errors.New("no mirror directory")

// OpenMirrorDir opens the mirror of owner/repo, sync_root/[MirrorDirName].
// It refuses, before touching anything: no sync_root; a caller whose grant
// does not reach owner/repo; a sync_root others could change
// ([CheckSyncRoot]). On the way down it refuses a component that is a
// symbolic link, not a directory, named ".git" (git's own files are never
// a mirror's place) or that anyone but this user and root could change
// ([privdir.Problem]). With create, a component that holds a ".git" entry
// is refused too: it is a project's working tree, whose files a sync must
// not write among; and missing directories are made (0700: a mirror holds
// issue text that may be private, not for every local user). Without it,
// a missing one is [ErrNoMirror].
//
// The checks name the reason; the confinement is [os.Root]'s: a component
// swapped for a link after it was checked still resolves inside
// sync_root, never outside it.
func (s *Service) OpenMirrorDir(ctx context.Context, owner, repo string, create bool) (*MirrorDir, error) {
	if s.SyncRoot == "" || !filepath.IsAbs(s.SyncRoot) {
		return nil, SyncNotConfigured()
	}
	if !caller.From(ctx).CanRead(owner, repo) {
		return nil, mirrorNotReadable(owner, repo)
	}
	base := filepath.Clean(s.SyncRoot)
	if err := CheckSyncRoot(base); err != nil {
		return nil, syncRootUnsafe(err)
	}
	for _, p := range strings.Split(filepath.ToSlash(base), "/") {
		if strings.EqualFold(p, ".git") {
			return nil, MirrorDirRefused(base, "sync_root is inside a .git directory")
		}
	}
	parts := strings.Split(MirrorDirName(owner, repo), "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." || strings.EqualFold(p, ".git") {
			return nil, MirrorDirRefused(filepath.Join(base, p), fmt.Sprintf("%q names no directory a mirror may use", p))
		}
	}
	root, err := os.OpenRoot(base)
	if err != nil {
		return nil, syncRootUnsafe(fmt.Errorf("sync_root %s cannot be opened: %s", base, errText(err)))
	}
	defer root.Close()
	for i := range parts {
		if err := walkMirrorDir(root, base, filepath.Join(parts[:i+1]...), create); err != nil {
			return nil, err
		}
	}
	relPath := filepath.Join(parts...)
	mr, err := root.OpenRoot(relPath)
	if err != nil {
		return nil, MirrorDirRefused(filepath.Join(base, relPath), "cannot open: "+errText(err))
	}
	return &MirrorDir{Root: mr, Path: filepath.Join(base, relPath)}, nil
}

// walkMirrorDir checks (and with create, makes) one component p of a
// mirror's path under root.
func walkMirrorDir(root *os.Root, base, p string, create bool) error {
	path := filepath.Join(base, p)
	fi, err := root.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		if !create {
			return ErrNoMirror
		}
		if err = root.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return MirrorDirRefused(path, "cannot create it: "+errText(err))
		}
		fi, err = root.Lstat(p)
	}
	switch {
	case err != nil:
		return MirrorDirRefused(path, "cannot read it: "+errText(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return MirrorDirRefused(path, "a symbolic link: links are not followed")
	case !fi.IsDir():
		return MirrorDirRefused(path, "not a directory")
	}
	if problem := privdir.Problem(fi); problem != "" {
		return MirrorDirRefused(path, "it "+problem+": anyone who can change it can plant files agents read as issues")
	}
	if create {
		if _, err := root.Lstat(filepath.Join(p, ".git")); err == nil {
			return MirrorDirRefused(path, "it holds .git: a repository's working tree is no mirror's place")
		}
	}
	return nil
}

// errText is an error without the path os puts in front (the caller
// names the path itself).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
