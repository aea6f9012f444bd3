package clientsetup

import (
	"errors"
	"fmt"
	"os"
	"path"
	"runtime"
	"strings"
)

// Env is what a configuration file's location depends on. [HostEnv] fills it
// from this machine; tests fill it by hand, for any OS.
type Env struct {
	GOOS string // runtime.GOOS: linux, darwin, windows, …
	Home string // the user's home directory
	// AppData is %APPDATA% on Windows (the roaming profile); empty means
	// Home\AppData\Roaming.
	AppData string
	// XDGConfigHome is $XDG_CONFIG_HOME on Linux and the BSDs; empty means
	// Home/.config.
	XDGConfigHome string
	// CodexHome is $CODEX_HOME; empty means Home/.codex.
	CodexHome string
	// WorkDir is the project a project-scoped file belongs to.
	WorkDir string
}

// HostEnv describes this machine and this process's working directory.
func HostEnv() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("finding the home directory: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return Env{}, fmt.Errorf("finding the working directory: %w", err)
	}
	return Env{GOOS: runtime.GOOS, Home: home, AppData: os.Getenv("APPDATA"), XDGConfigHome: os.Getenv("XDG_CONFIG_HOME"),
		CodexHome: os.Getenv("CODEX_HOME"), WorkDir: wd}, nil
}

// Path is the file client c reads for scope s on e's OS.
func Path(c Client, s Scope, e Env) (string, error) {
	if _, ok := specs[c]; !ok {
		return "", fmt.Errorf("unknown client %q", c)
	}
	if s == Project {
		if e.WorkDir == "" {
			return "", errors.New("no working directory for a project-scoped file")
		}
		switch c {
		case ClaudeCode:
			return e.join(e.WorkDir, ".mcp.json"), nil
		case VSCode:
			return e.join(e.WorkDir, ".vscode", "mcp.json"), nil
		case Cursor:
			return e.join(e.WorkDir, ".cursor", "mcp.json"), nil
		case Gemini:
			return e.join(e.WorkDir, ".gemini", "settings.json"), nil
		}
		return "", fmt.Errorf("%s has no project scope", c.Title())
	}
	if e.Home == "" {
		return "", errors.New("no home directory")
	}
	switch c {
	case ClaudeCode:
		return e.join(e.Home, ".claude.json"), nil
	case ClaudeDesktop:
		// Anthropic ships Claude Desktop for macOS and Windows; on Linux
		// the community builds read the same name under ~/.config.
		return e.join(e.appConfigDir(), "Claude", "claude_desktop_config.json"), nil
	case VSCode:
		return e.join(e.appConfigDir(), "Code", "User", "mcp.json"), nil
	case Cursor:
		return e.join(e.Home, ".cursor", "mcp.json"), nil
	case Codex:
		if e.CodexHome != "" {
			return e.join(e.CodexHome, "config.toml"), nil
		}
		return e.join(e.Home, ".codex", "config.toml"), nil
	case Gemini:
		return e.join(e.Home, ".gemini", "settings.json"), nil
	case Zed:
		// Zed keeps ~/.config/zed on macOS too, not Application Support.
		switch e.GOOS {
		case "windows":
			return e.join(e.appData(), "Zed", "settings.json"), nil
		case "darwin":
			return e.join(e.Home, ".config", "zed", "settings.json"), nil
		}
		return e.join(e.xdgConfig(), "zed", "settings.json"), nil
	case Windsurf:
		return e.join(e.Home, ".codeium", "windsurf", "mcp_config.json"), nil
	}
	return "", fmt.Errorf("%s has no user scope", c.Title())
}

// appConfigDir is where desktop (Electron) apps keep their settings: what
// [os.UserConfigDir] answers, computed for e's OS rather than this one's.
func (e Env) appConfigDir() string {
	switch e.GOOS {
	case "windows":
		return e.appData()
	case "darwin", "ios":
		return e.join(e.Home, "Library", "Application Support")
	}
	return e.xdgConfig()
}

func (e Env) appData() string {
	if e.AppData != "" {
		return e.AppData
	}
	return e.join(e.Home, "AppData", "Roaming")
}

func (e Env) xdgConfig() string {
	if e.XDGConfigHome != "" {
		return e.XDGConfigHome
	}
	return e.join(e.Home, ".config")
}

// join joins with e's separator, so a Windows path computed on Linux (in a
// test) reads as Windows writes it.
func (e Env) join(elem ...string) string {
	if e.GOOS != "windows" {
		return path.Join(elem...)
	}
	parts := make([]string, 0, len(elem))
	for i, el := range elem {
		el = strings.ReplaceAll(el, "/", `\`)
		if i > 0 {
			el = strings.TrimLeft(el, `\`)
		}
		if i < len(elem)-1 {
			el = strings.TrimRight(el, `\`)
		}
		if el != "" {
			parts = append(parts, el)
		}
	}
	return strings.Join(parts, `\`)
}
