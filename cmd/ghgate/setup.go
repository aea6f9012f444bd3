package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/clientsetup"
	"github.com/spf13/cobra"
)

// setupFlags are `ghgate setup`'s flags.
type setupFlags struct {
	print    bool
	scope    string
	toolsets []string
	readOnly bool
	socket   string
	config   string
	name     string
	file     string
}

func newSetupCommand() *cobra.Command {
	var f setupFlags
	names := make([]string, 0, len(clientsetup.Clients()))
	for _, c := range clientsetup.Clients() {
		names = append(names, string(c))
	}
	cmd := &cobra.Command{
		Use:   "setup CLIENT",
		Short: "Add ghgate to an MCP client's configuration (" + strings.Join(names, ", ") + ")",
		Long: `Add ghgate's server entry to an MCP client's configuration file, or update it.
The entry runs this binary (its absolute path) with serve, or with connect
--socket PATH to a broker. Only that entry changes: other servers, comments and
trailing commas stay byte for byte; an existing file is backed up first
(FILE.bak-YYYYMMDD-HHMMSS) and replaced atomically. No token is ever written:
the command says where ghgate will find one (see docs/clients.md).

  ghgate setup claude-code                        # ~/.claude.json, user scope
  ghgate setup vscode --scope project --read-only # .vscode/mcp.json here
  ghgate setup claude-desktop --config ~/.config/ghgate/config.toml
  ghgate setup codex --socket /run/ghgate/ghgate.sock
  ghgate setup zed --print                        # show the change, write nothing`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: names,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSetup(cmd.OutOrStdout(), args[0], f, os.Getenv)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.print, "print", false, "show the change as a diff and write nothing")
	fs.StringVar(&f.scope, "scope", "", "user or project, where the client has both (default: user)")
	fs.StringSliceVar(&f.toolsets, "toolsets", nil, "serve --toolsets for the entry, comma-separated, or all (default: serve's default)")
	fs.BoolVar(&f.readOnly, "read-only", false, "serve --read-only in the entry")
	fs.StringVar(&f.socket, "socket", "", "the entry runs `ghgate connect --socket PATH` to a broker instead of serve")
	fs.StringVar(&f.config, "config", "", "serve --config FILE in the entry (made absolute; its token key is the token desktop clients need)")
	fs.StringVar(&f.name, "name", clientsetup.DefaultName, "the entry's name")
	fs.StringVar(&f.file, "file", "", "edit this file instead of the client's own (default: found per client and OS)")
	return cmd
}

func runSetup(out io.Writer, clientName string, f setupFlags, getenv func(string) string) error {
	c, err := clientsetup.ParseClient(clientName)
	if err != nil {
		return err
	}
	scope, err := c.ResolveScope(f.scope)
	if err != nil {
		return err
	}
	exe, err := ghgateExecutable()
	if err != nil {
		return err
	}
	o := clientsetup.Options{Name: f.name, Executable: exe, ReadOnly: f.readOnly}
	for _, n := range f.toolsets {
		if n = strings.TrimSpace(n); n != "" {
			o.Toolsets = append(o.Toolsets, n)
		}
	}
	// Refused now rather than when the client first starts ghgate.
	if err := checkToolsets(o.Toolsets); err != nil {
		return fmt.Errorf("--toolsets: %w", err)
	}
	configHasToken := false
	if f.config != "" {
		if o.Config, err = filepath.Abs(f.config); err != nil {
			return err
		}
		fc, err := loadConfigFile(o.Config)
		if err != nil {
			return err
		}
		configHasToken = fc.Token != ""
	}
	if f.socket != "" {
		if o.Socket, err = filepath.Abs(f.socket); err != nil {
			return err
		}
	}
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN"} {
		if strings.TrimSpace(getenv(name)) != "" {
			o.TokenVar = name
			break
		}
	}
	file := f.file
	if file == "" {
		env, err := clientsetup.HostEnv()
		if err != nil {
			return err
		}
		if file, err = clientsetup.Path(c, scope, env); err != nil {
			return err
		}
	} else if file, err = filepath.Abs(file); err != nil {
		return err
	}
	ch, err := clientsetup.Plan(c, file, o)
	if err != nil {
		return err
	}
	if f.print {
		return printSetupPlan(out, ch)
	}
	// A user's file is private to them; a project's is meant to be shared
	// through the repository.
	mode := fs.FileMode(0o600)
	if scope == clientsetup.Project {
		mode = 0o644
	}
	if err := ch.Write(time.Now(), mode); err != nil {
		return err
	}
	return printSetupResult(out, ch, o, configHasToken)
}

// ghgateExecutable is this binary's absolute path with symlinks resolved,
// what the client will start.
func ghgateExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding ghgate's own path: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return filepath.Abs(exe)
}

func printSetupPlan(out io.Writer, ch *clientsetup.Change) error {
	if ch.Status == clientsetup.Unchanged {
		_, err := fmt.Fprintf(out, "unchanged: %s already has this %q entry (--print: nothing written)\n", ch.File, ch.Name)
		return err
	}
	verb := map[clientsetup.Status]string{clientsetup.Added: "add", clientsetup.Updated: "update"}[ch.Status]
	_, err := fmt.Fprintf(out, "would %s %q in %s (--print: nothing written)\n%s", verb, ch.Name, ch.File, ch.Diff())
	return err
}

func printSetupResult(out io.Writer, ch *clientsetup.Change, o clientsetup.Options, configHasToken bool) error {
	var b strings.Builder
	switch ch.Status {
	case clientsetup.Unchanged:
		fmt.Fprintf(&b, "unchanged: %s already has this %q entry; nothing written\n", ch.File, ch.Name)
	default:
		fmt.Fprintf(&b, "%s %q in %s\n", ch.Status, ch.Name, ch.File)
		if ch.Backup != "" {
			fmt.Fprintf(&b, "backup: %s\n", ch.Backup)
		}
	}
	fmt.Fprintf(&b, "command: %s %s\n", ch.Entry.Command, strings.Join(ch.Entry.Args, " "))
	b.WriteString(clientsetup.TokenAdvice(ch.Client, o, ch.Entry, configHasToken) + "\n")
	if tempBuild(ch.Entry.Command) {
		b.WriteString("warning: this ghgate is a temporary build (go run); install it (go install) and run setup from the installed binary\n")
	}
	if ch.Status != clientsetup.Unchanged {
		fmt.Fprintf(&b, "restart %s (or reload its MCP servers) to start ghgate\n", ch.Client.Title())
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// tempBuild says whether path is a binary `go run` built, gone once it
// exits: an entry pointing there would break.
func tempBuild(path string) bool {
	if runtime.GOOS == "windows" {
		path = strings.ToLower(path)
	}
	return strings.Contains(path, string(filepath.Separator)+"go-build")
}
