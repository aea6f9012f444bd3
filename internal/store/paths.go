package store

import (
	"errors"
	"os"
	"path/filepath"
)

// DefaultPath is where ghgate keeps its state when not told otherwise:
// $XDG_STATE_HOME/ghgate/state.db, else ~/.local/state/ghgate/state.db. The
// XDG base-directory rules ignore a relative $XDG_STATE_HOME, and so does
// this. Open creates the directory.
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "ghgate", "state.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errors.New("store: cannot find the state directory: set XDG_STATE_HOME or HOME")
	}
	return filepath.Join(home, ".local", "state", "ghgate", "state.db"), nil
}
