package credentials

import (
	"errors"
	"fmt"
)

// Stored finds a token for host in what was stored by a sign-in: ghgate's
// own entry first ([Store]: keyring, then file), then GitHub's CLI's
// ([GH]). getenv locates the files (HOME, XDG_CONFIG_HOME,
// GH_CONFIG_DIR). A source that cannot be read is passed over, and its
// problem returned beside whatever a later source gave, so serve can say
// why a token it expected was not used.
func Stored(host string, getenv func(string) string, kr Keyring) (token string, loc Location, problems []error) {
	if host == "" {
		return "", Location{}, nil
	}
	sources := []func(string) (string, Location, error){
		Store{Keyring: kr, File: DefaultFile(getenv)}.Load,
		GH{Dir: GHConfigDir(getenv), Keyring: kr}.Load,
	}
	for _, load := range sources {
		tok, loc, err := load(host)
		if err == nil {
			return tok, loc, problems
		}
		if !errors.Is(err, ErrNotFound) {
			problems = append(problems, fmt.Errorf("reading stored credentials for %s: %w", host, err))
		}
	}
	return "", Location{}, problems
}
