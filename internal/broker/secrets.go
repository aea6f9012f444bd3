package broker

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ghgate/ghgate/internal/redact"
)

// CredentialsDirEnv is where systemd's LoadCredential= puts credentials.
const CredentialsDirEnv = "CREDENTIALS_DIRECTORY"

// allowedSecretsMode is the widest mode a secrets file may have: the owner
// reads and writes, the group reads at most, others nothing.
const allowedSecretsMode fs.FileMode = 0o640

// secretName is what a secret name may be: it becomes a file name under
// $CREDENTIALS_DIRECTORY, so no separators and no leading dot.
var secretName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// SecretStore holds the broker's credentials in memory. Values never leave
// it except to authenticate to GitHub (or an upstream); every message about
// a secret names it, never its value.
type SecretStore struct {
	values map[string]string
}

// Get returns a secret's value by name.
func (s *SecretStore) Get(name string) (string, bool) {
	if s == nil {
		return "", false
	}
	v, ok := s.values[name]
	return v, ok
}

// Register adds every value held to secrets, so that text leaving the
// broker is scrubbed of them in any form.
func (s *SecretStore) Register(secrets *redact.Registry) {
	if s == nil {
		return
	}
	for _, v := range s.values {
		secrets.Add(v)
	}
}

// Values lists every value held, sorted, for tests that scan output for
// leaked credentials.
func (s *SecretStore) Values() []string {
	out := make([]string, 0, len(s.values))
	for _, v := range s.values {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// LoadSecrets reads the secrets the config's routes name: each from
// $CREDENTIALS_DIRECTORY/<name> when that file exists, else from the
// secrets file (TOML, name = "value"). It refuses a secrets file anyone
// but its owner and group can read or that its group can write, and a
// route naming a secret found nowhere.
func LoadSecrets(cfg *Config) (*SecretStore, error) {
	s := &SecretStore{values: map[string]string{}}
	var errs []error
	if cfg.Secrets.File != "" {
		file, err := readSecretsFile(cfg.Secrets.File)
		if err != nil {
			return nil, err
		}
		for name, v := range file {
			s.values[name] = v
		}
	}
	dir := os.Getenv(CredentialsDirEnv)
	for _, name := range cfg.SecretNames() {
		if !secretName.MatchString(name) {
			errs = append(errs, fmt.Errorf("secret name %q: use letters, digits, '_', '-' and '.' (not first)", name))
			continue
		}
		if dir == "" {
			continue
		}
		v, ok, err := readCredential(dir, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			s.values[name] = v
		}
	}
	errs = append(errs, s.missing(cfg)...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return s, nil
}

// missing names every route whose secrets exist nowhere.
func (s *SecretStore) missing(cfg *Config) []error {
	where := "$" + CredentialsDirEnv
	if cfg.Secrets.File != "" {
		where += " or " + cfg.Secrets.File
	}
	var errs []error
	for _, r := range cfg.Routes {
		for _, name := range []string{r.Read, r.Write, r.AppKey} {
			if name == "" || !secretName.MatchString(name) {
				continue
			}
			if _, ok := s.values[name]; !ok {
				errs = append(errs, fmt.Errorf("route %q: secret %q is not in %s", r.Owner, name, where))
			}
		}
	}
	return errs
}

func checkSecretsInfo(path string, fi os.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("secrets file %s is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&^allowedSecretsMode != 0 {
		return fmt.Errorf("secrets file %s has mode %04o: it must be 0600 or 0640 (chmod 0600 %s)", path, perm, path)
	}
	return nil
}

// readSecretsFile checks the file's mode and parses it. Parse errors give
// a line number only: the TOML decoder's messages can quote the text
// around the fault, which may be a token.
func readSecretsFile(path string) (map[string]string, error) {
	// The mode is checked on the file that is read, not on the path, so a
	// file swapped in between cannot slip past the check.
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("secrets file %s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("secrets file %s: %w", path, unwrapPathError(err))
	}
	if err := checkSecretsInfo(path, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("secrets file %s: %w", path, unwrapPathError(err))
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("secrets file %s: line %d is not name = \"value\"", path, pe.Position.Line)
		}
		return nil, fmt.Errorf("secrets file %s: not name = \"value\" lines", path)
	}
	out := make(map[string]string, len(raw))
	var errs []error
	for name, v := range raw {
		str, ok := v.(string)
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("secrets file %s: %q must be a string (name = \"value\")", path, name))
		case strings.TrimSpace(str) == "":
			errs = append(errs, fmt.Errorf("secrets file %s: %q is empty", path, name))
		default:
			out[name] = strings.TrimSpace(str)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// readCredential reads $CREDENTIALS_DIRECTORY/<name>; a missing file is
// not an error (the name may be in the secrets file instead).
func readCredential(dir, name string) (string, bool, error) {
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("credential %s: %w", path, unwrapPathError(err))
	}
	v := strings.TrimSpace(string(data))
	if v == "" {
		return "", false, fmt.Errorf("credential %s is empty", path)
	}
	return v, true, nil
}

// unwrapPathError drops the path [*fs.PathError] repeats, since the caller's
// message names the file already.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
