package credentials

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"go.yaml.in/yaml/v4"
)

// GitHub's CLI (gh 2.x) keeps a host's token in one of two places, and
// reads them in this order: hosts.yml's oauth_token for the host (written
// when gh was told --insecure-storage or found no keyring), then the
// keyring under service "gh:HOST" with the host's active user as the
// entry's user, then the same service with an empty user (the active
// slot older versions wrote alone). ghgate reads them the same way and
// never writes them.

// ghHosts is hosts.yml: the host's active user and, with insecure
// storage, its token.
type ghHosts map[string]struct {
	User       string `yaml:"user"`
	OAuthToken string `yaml:"oauth_token"`
}

// GHConfigDir is where gh keeps its configuration: $GH_CONFIG_DIR, else
// $XDG_CONFIG_HOME/gh, else %AppData%\GitHub CLI on Windows, else
// ~/.config/gh; "" when getenv names none of them.
func GHConfigDir(getenv func(string) string) string {
	switch {
	case getenv("GH_CONFIG_DIR") != "":
		return getenv("GH_CONFIG_DIR")
	case getenv("XDG_CONFIG_HOME") != "":
		return filepath.Join(getenv("XDG_CONFIG_HOME"), "gh")
	case runtime.GOOS == "windows" && getenv("AppData") != "":
		return filepath.Join(getenv("AppData"), "GitHub CLI")
	case getenv("HOME") != "":
		return filepath.Join(getenv("HOME"), ".config", "gh")
	}
	return ""
}

// GHKeyringService is the keyring service gh stores a host's token under.
func GHKeyringService(host string) string { return "gh:" + host }

// GH reads the credentials GitHub's CLI stored.
type GH struct {
	// Dir is gh's configuration directory ([GHConfigDir]); "" skips
	// hosts.yml.
	Dir string
	// Keyring is the OS keyring; nil skips it.
	Keyring Keyring
}

// Load finds gh's token for host, in gh's own order.
func (g GH) Load(host string) (string, Location, error) {
	hosts, path, err := g.hosts()
	if err != nil {
		return "", Location{}, err
	}
	entry := hosts[ghHostKey(host)]
	if entry.OAuthToken != "" {
		return entry.OAuthToken, Location{Kind: InGHHosts, Where: path}, nil
	}
	if g.Keyring != nil {
		service := GHKeyringService(ghHostKey(host))
		users := []string{""}
		if entry.User != "" {
			users = []string{entry.User, ""}
		}
		for _, user := range users {
			if tok, err := g.Keyring.Get(service, user); err == nil && tok != "" {
				return tok, Location{Kind: InGHKeyring, Where: service}, nil
			}
		}
	}
	return "", Location{}, ErrNotFound
}

// Hosts lists the hosts hosts.yml names.
func (g GH) Hosts() []string {
	hosts, _, _ := g.hosts()
	out := make([]string, 0, len(hosts))
	for h := range hosts {
		out = append(out, h)
	}
	return out
}

func (g GH) hosts() (ghHosts, string, error) {
	if g.Dir == "" {
		return nil, "", nil
	}
	path := filepath.Join(g.Dir, "hosts.yml")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, path, nil
	}
	if err != nil {
		return nil, path, err
	}
	var h ghHosts
	if err := yaml.Unmarshal(b, &h); err != nil {
		// yaml's message may quote the file, which holds tokens.
		return nil, path, errors.New(path + ": not a hosts.yml gh could read")
	}
	return h, path, nil
}

// ghHostKey is the name gh files a host under: lower case, and any
// subdomain of github.com (api.github.com) as github.com.
func ghHostKey(host string) string {
	h := strings.ToLower(host)
	if strings.HasSuffix(h, ".github.com") {
		return DefaultHost
	}
	return h
}
