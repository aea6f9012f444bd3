//go:build !linux

package broker

import "errors"

// MakeNonDumpable has no equivalent here; the broker warns and goes on.
func MakeNonDumpable() error { return errors.ErrUnsupported }
