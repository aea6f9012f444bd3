package credentials

import (
	"errors"
	"fmt"
)

// Store is where ghgate keeps the tokens it signed in with: the OS
// keyring under service "ghgate:HOST", or, where no keyring answers, the
// credentials file.
type Store struct {
	// Keyring is the OS keyring; nil skips it.
	Keyring Keyring
	// File is the fallback file ([DefaultFile]); "" has none.
	File string
}

// Location says where a token is, never what it is.
type Location struct {
	Kind  LocationKind
	Where string // the keyring service or the file's path
}

// LocationKind is the kind of place a token is stored in.
type LocationKind string

const (
	InKeyring   LocationKind = "keyring"      // ghgate's keyring entry
	InFile      LocationKind = "file"         // ghgate's credentials file
	InGHKeyring LocationKind = "gh keyring"   // gh's keyring entry
	InGHHosts   LocationKind = "gh hosts.yml" // gh's hosts.yml
)

func (l Location) String() string {
	switch l.Kind {
	case InKeyring:
		return "ghgate's OS keyring entry (service " + l.Where + ")"
	case InFile:
		return "ghgate's credentials file " + l.Where
	case InGHKeyring:
		return "gh's OS keyring entry (service " + l.Where + ")"
	case InGHHosts:
		return "gh's " + l.Where
	}
	return string(l.Kind) + " " + l.Where
}

// KeyringService is the keyring entry's service for a host. The entry's
// user is empty: one token per host, as gh keeps its active one.
func KeyringService(host string) string { return "ghgate:" + host }

const keyringUser = ""

// Save stores token for host: in the keyring when it answers, else in the
// file. The returned note says why the keyring was passed over, if it
// was. A file entry left from before is removed once the keyring holds
// the token, so a host has one entry.
func (s Store) Save(host, login, token string) (loc Location, note string, err error) {
	if s.Keyring != nil {
		kerr := s.Keyring.Set(KeyringService(host), keyringUser, token)
		if kerr == nil {
			if s.File != "" {
				if _, err := s.deleteFromFile(host); err != nil {
					return Location{}, "", fmt.Errorf("stored in the keyring, but the old entry in %s stays: %w", s.File, err)
				}
			}
			return Location{Kind: InKeyring, Where: KeyringService(host)}, "", nil
		}
		note = "No OS keyring reachable (" + kerr.Error() + ")"
	}
	if s.File == "" {
		return Location{}, note, errors.New("no OS keyring reachable and no home directory for a credentials file")
	}
	cf, err := readFile(s.File)
	if err != nil && !isNotExist(err) {
		return Location{}, note, err
	}
	if cf.Hosts == nil {
		cf.Hosts = map[string]fileEntry{}
	}
	cf.Hosts[host] = fileEntry{OAuthToken: token, User: login}
	if err := writeFile(s.File, cf); err != nil {
		return Location{}, note, err
	}
	return Location{Kind: InFile, Where: s.File}, note, nil
}

// Load finds host's token: the keyring first, then the file. It returns
// [ErrNotFound] when neither holds one; a keyring that does not answer
// counts as not holding it, and the file is still read.
func (s Store) Load(host string) (string, Location, error) {
	if s.Keyring != nil {
		if tok, err := s.Keyring.Get(KeyringService(host), keyringUser); err == nil && tok != "" {
			return tok, Location{Kind: InKeyring, Where: KeyringService(host)}, nil
		}
	}
	if s.File != "" {
		cf, err := readFile(s.File)
		if err != nil && !isNotExist(err) {
			return "", Location{}, err
		}
		if e, ok := cf.Hosts[host]; ok && e.OAuthToken != "" {
			return e.OAuthToken, Location{Kind: InFile, Where: s.File}, nil
		}
	}
	return "", Location{}, ErrNotFound
}

// Delete removes ghgate's own entries for host (never gh's), and says
// which there were.
func (s Store) Delete(host string) ([]Location, error) {
	var removed []Location
	if s.Keyring != nil {
		err := s.Keyring.Delete(KeyringService(host), keyringUser)
		if err == nil {
			removed = append(removed, Location{Kind: InKeyring, Where: KeyringService(host)})
		} else if !errors.Is(err, ErrNotFound) && s.File == "" {
			return removed, err
		}
	}
	if s.File != "" {
		ok, err := s.deleteFromFile(host)
		if err != nil {
			return removed, err
		}
		if ok {
			removed = append(removed, Location{Kind: InFile, Where: s.File})
		}
	}
	return removed, nil
}

func (s Store) deleteFromFile(host string) (bool, error) {
	cf, err := readFile(s.File)
	if isNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, ok := cf.Hosts[host]; !ok {
		return false, nil
	}
	delete(cf.Hosts, host)
	return true, writeFile(s.File, cf)
}

// FileHosts lists the hosts the credentials file holds.
func (s Store) FileHosts() []string {
	if s.File == "" {
		return nil
	}
	return fileHosts(s.File)
}
