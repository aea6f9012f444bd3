// Package credentials signs ghgate in to GitHub without a pasted token:
// GitHub's OAuth device flow ([DeviceFlow]), a store for the token it
// yields (the OS keyring, or a private file where none is reachable:
// [Store]), and the lookup serve makes at start ([Discover]), which also
// reads what GitHub's CLI has stored.
package credentials

import (
	"fmt"
	"net/url"
	"strings"
)

// Host is one GitHub: github.com or an Enterprise Server. Name keys the
// stored credentials ("github.com", "ghe.example.com",
// "127.0.0.1:8080"); Web is where the OAuth endpoints are, API the REST
// API's base.
type Host struct {
	Name string
	Web  string
	API  string
}

// DefaultHost is github.com.
const DefaultHost = "github.com"

// ParseHost reads --hostname: a bare host name (github.com, whose API is
// at api.github.com; any other is an Enterprise Server, API under
// /api/v3), or a URL with a scheme, for a server reached over plain HTTP
// such as the emulator on loopback (API under /api/v3 too).
func ParseHost(s string) (Host, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = DefaultHost
	}
	scheme := "https"
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || strings.Trim(u.Path, "/") != "" {
			return Host{}, fmt.Errorf("hostname %q: want a host name (github.com, ghe.example.com) or an http(s)://HOST[:PORT] URL without a path", s)
		}
		scheme, s = u.Scheme, u.Host
	}
	name := strings.ToLower(s)
	if strings.ContainsAny(name, "/ @?#") {
		return Host{}, fmt.Errorf("hostname %q: want a host name such as github.com or ghe.example.com", s)
	}
	if name == "api.github.com" {
		name = DefaultHost
	}
	if name == DefaultHost {
		return Host{Name: name, Web: "https://github.com", API: "https://api.github.com"}, nil
	}
	web := scheme + "://" + name
	return Host{Name: name, Web: web, API: web + "/api/v3"}, nil
}

// HostFromAPI is the host a github_url (serve's API base) belongs to:
// "" and https://api.github.com are github.com; https://HOST/api/v3 is
// HOST with its web pages at https://HOST; any other URL (the emulator's,
// served at its root) is its host, its web pages at the same origin.
func HostFromAPI(apiURL string) (Host, error) {
	apiURL = strings.TrimRight(strings.TrimSpace(apiURL), "/")
	if apiURL == "" {
		return ParseHost(DefaultHost)
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return Host{}, fmt.Errorf("github_url %q: want an http(s) URL", apiURL)
	}
	name := strings.ToLower(u.Host)
	if name == "api.github.com" {
		return ParseHost(DefaultHost)
	}
	return Host{Name: name, Web: u.Scheme + "://" + u.Host, API: apiURL}, nil
}
