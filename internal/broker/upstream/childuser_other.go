//go:build !linux

package upstream

import (
	"errors"
	"syscall"
)

// errUsersUnsupported: starting a child as another user relies on Linux
// credentials and capabilities.
var errUsersUnsupported = errors.New("user and write_user are only supported on Linux")

type childUser struct{ home string }

func (u *childUser) sysProcAttr() *syscall.SysProcAttr { return nil }

func resolveChildUser(name, secretsFile string) (*childUser, error) { return nil, errUsersUnsupported }

func canSwitchUsers() error { return errUsersUnsupported }

// dropInheritedCaps has nothing to clear where capabilities do not exist.
func dropInheritedCaps() error { return nil }
