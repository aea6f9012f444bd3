package doctor

import (
	"errors"
	"fmt"
	"os/user"
	"slices"
	"strconv"
)

// ErrNotFound is returned for a user or group that does not exist.
var ErrNotFound = errors.New("not found")

// User is an account and every group it is in (its primary group included).
type User struct {
	Name     string
	UID, GID uint32
	Groups   []uint32
}

// InGroup reports membership, primary or supplementary.
func (u *User) InGroup(gid uint32) bool { return u.GID == gid || slices.Contains(u.Groups, gid) }

// Group is a group's name and id.
type Group struct {
	Name string
	GID  uint32
}

// Accounts looks up users and groups.
type Accounts interface {
	User(name string) (*User, error)
	UserByID(uid uint32) (*User, error)
	Group(name string) (*Group, error)
	GroupByID(gid uint32) (*Group, error)
}

// OSAccounts reads the host's user and group databases.
type OSAccounts struct{}

func (OSAccounts) User(name string) (*User, error) {
	u, err := user.Lookup(name)
	if err != nil {
		var unknown user.UnknownUserError
		if errors.As(err, &unknown) {
			return nil, fmt.Errorf("user %s: %w", name, ErrNotFound)
		}
		return nil, err
	}
	return fromOSUser(u)
}

func (OSAccounts) UserByID(uid uint32) (*User, error) {
	u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		var unknown user.UnknownUserIdError
		if errors.As(err, &unknown) {
			return nil, fmt.Errorf("uid %d: %w", uid, ErrNotFound)
		}
		return nil, err
	}
	return fromOSUser(u)
}

func fromOSUser(u *user.User) (*User, error) {
	uid, err := parseID(u.Uid)
	if err != nil {
		return nil, err
	}
	gid, err := parseID(u.Gid)
	if err != nil {
		return nil, err
	}
	out := &User{Name: u.Username, UID: uid, GID: gid}
	ids, err := u.GroupIds()
	if err != nil {
		return nil, fmt.Errorf("groups of %s: %w", u.Username, err)
	}
	for _, s := range ids {
		g, err := parseID(s)
		if err != nil {
			return nil, err
		}
		out.Groups = append(out.Groups, g)
	}
	return out, nil
}

func (OSAccounts) Group(name string) (*Group, error) {
	g, err := user.LookupGroup(name)
	if err != nil {
		var unknown user.UnknownGroupError
		if errors.As(err, &unknown) {
			return nil, fmt.Errorf("group %s: %w", name, ErrNotFound)
		}
		return nil, err
	}
	gid, err := parseID(g.Gid)
	if err != nil {
		return nil, err
	}
	return &Group{Name: g.Name, GID: gid}, nil
}

func (OSAccounts) GroupByID(gid uint32) (*Group, error) {
	g, err := user.LookupGroupId(strconv.FormatUint(uint64(gid), 10))
	if err != nil {
		var unknown user.UnknownGroupIdError
		if errors.As(err, &unknown) {
			return nil, fmt.Errorf("gid %d: %w", gid, ErrNotFound)
		}
		return nil, err
	}
	return &Group{Name: g.Name, GID: gid}, nil
}

func parseID(s string) (uint32, error) {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("id %q: %w", s, err)
	}
	return uint32(n), nil
}
