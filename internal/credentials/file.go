package credentials

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/BurntSushi/toml"
)

// credentialsFile is the file ghgate keeps tokens in where no keyring is
// reachable: one table per host.
type credentialsFile struct {
	Hosts map[string]fileEntry `toml:"hosts"`
}

type fileEntry struct {
	OAuthToken string `toml:"oauth_token"`
	User       string `toml:"user,omitempty"`
}

// ConfigDir is ghgate's configuration directory: $XDG_CONFIG_HOME/ghgate,
// else ~/.config/ghgate (%APPDATA%\ghgate on Windows); "" when getenv
// names no home.
func ConfigDir(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "ghgate")
	}
	if runtime.GOOS == "windows" {
		if d := getenv("APPDATA"); d != "" {
			return filepath.Join(d, "ghgate")
		}
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "ghgate")
	}
	return ""
}

// DefaultFile is the credentials file under [ConfigDir], or "".
func DefaultFile(getenv func(string) string) string {
	if d := ConfigDir(getenv); d != "" {
		return filepath.Join(d, "credentials.toml")
	}
	return ""
}

func readFile(path string) (credentialsFile, error) {
	var cf credentialsFile
	b, err := os.ReadFile(path)
	if err != nil {
		return cf, err
	}
	if _, err := toml.Decode(string(b), &cf); err != nil {
		// The decoder's message may quote the line, which may be a token.
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return cf, fmt.Errorf("%s: not valid TOML at line %d", path, pe.Position.Line)
		}
		return cf, fmt.Errorf("%s: not a credentials file", path)
	}
	return cf, nil
}

// writeFile replaces path with cf: the directory made private (0700), the
// file written 0600 beside it and renamed over the old one, so a reader
// never sees half a file and nobody else ever sees any of it.
func writeFile(path string, cf credentialsFile) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString("# ghgate's GitHub credentials (ghgate auth login), kept here because no OS keyring was reachable.\n")
	if err := toml.NewEncoder(&buf).Encode(cf); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".credentials-*.toml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// fileHosts lists the hosts the file holds, sorted.
func fileHosts(path string) []string {
	cf, err := readFile(path)
	if err != nil {
		return nil
	}
	hosts := make([]string, 0, len(cf.Hosts))
	for h := range cf.Hosts {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	return hosts
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
