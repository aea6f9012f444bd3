package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/credentials"
	"github.com/spf13/cobra"
)

// authEnv is what the auth commands reach outside the process; tests
// replace each part.
type authEnv struct {
	getenv  func(string) string
	keyring credentials.Keyring
	http    *http.Client
	// wait pauses between device flow polls; nil waits on the clock.
	wait func(ctx context.Context, d time.Duration) error
}

func newAuthCommand() *cobra.Command {
	return newAuthCommandWith(authEnv{getenv: os.Getenv, keyring: credentials.System})
}

func newAuthCommandWith(env authEnv) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Sign in to GitHub in a browser (OAuth device flow) instead of pasting a token",
		Long: `Sign ghgate in to GitHub without handling a token: login shows a code to
enter on GitHub, stores the token it gets in the OS keyring (or, with none
reachable, a private file), and serve finds it there. status says what is
stored and who it signs in as; logout removes ghgate's entry. Tokens are
never printed. docs/auth.md has the details, including registering the
OAuth app whose client id login needs.`,
	}
	cmd.AddCommand(newAuthLoginCommand(env), newAuthStatusCommand(env), newAuthLogoutCommand(env))
	return cmd
}

// authTarget is the host an auth command works on: --hostname, else the
// config file's github_url, else github.com.
type authTarget struct {
	hostname string
	config   string
}

func (t *authTarget) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&t.hostname, "hostname", "", "GitHub host: github.com (default), a GitHub Enterprise Server host name, or http(s)://HOST[:PORT]")
	cmd.Flags().StringVar(&t.config, "config", "", "serve's config file: its github_url names the host and oauth_client_id the OAuth app (default: none)")
}

func (t *authTarget) resolve() (credentials.Host, fileConfig, error) {
	var fc fileConfig
	if t.config != "" {
		var err error
		if fc, err = loadConfigFile(t.config); err != nil {
			return credentials.Host{}, fc, err
		}
	}
	if t.hostname != "" {
		h, err := credentials.ParseHost(t.hostname)
		return h, fc, err
	}
	h, err := credentials.HostFromAPI(fc.GitHubURL)
	return h, fc, err
}

func (env authEnv) store() credentials.Store {
	return credentials.Store{Keyring: env.keyring, File: credentials.DefaultFile(env.getenv)}
}

func newAuthLoginCommand(env authEnv) *cobra.Command {
	var (
		target   authTarget
		clientID string
		scopes   []string
	)
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in through GitHub's device flow and store the token",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			host, fc, err := target.resolve()
			if err != nil {
				return err
			}
			id := firstNonEmpty(clientID, env.getenv("GHGATE_OAUTH_CLIENT_ID"), fc.OAuthClientID)
			if id == "" {
				return errors.New("no OAuth app client id: pass --client-id, set GHGATE_OAUTH_CLIENT_ID, or oauth_client_id in the config file. " +
					"Register an OAuth app on " + host.Web + " (Settings > Developer settings > OAuth Apps > New OAuth App), tick \"Enable Device Flow\", " +
					"and use its client id (no secret is needed); docs/auth.md walks through it")
			}
			flow := credentials.DeviceFlow{Host: host, ClientID: id, Scopes: scopes, HTTP: env.http, Wait: env.wait}
			return login(cmd.Context(), cmd.OutOrStdout(), env, flow)
		},
	}
	target.register(cmd)
	cmd.Flags().StringVar(&clientID, "client-id", "", "client id of the OAuth app to sign in through (default: GHGATE_OAUTH_CLIENT_ID, then the config's oauth_client_id)")
	cmd.Flags().StringSliceVar(&scopes, "scopes", credentials.DefaultScopes, "OAuth scopes to ask for, comma-separated")
	return cmd
}

// login runs the device flow, checks the token with GET /user and stores
// it. What it prints names the user and the place, never the token.
func login(ctx context.Context, out io.Writer, env authEnv, flow credentials.DeviceFlow) error {
	da, err := flow.Start(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "First copy your one-time code: %s\nThen open %s in a browser, signed in to %s, and enter it.\nWaiting for GitHub",
		da.UserCode, da.VerificationURI, flow.Host.Name)
	if !da.Expiry.IsZero() {
		fmt.Fprintf(out, " (the code expires at %s)", da.Expiry.Local().Format(time.Kitchen))
	}
	fmt.Fprintln(out, "...")
	tok, err := flow.Poll(ctx, da)
	if err != nil {
		return err
	}
	who, err := credentials.Identify(ctx, env.http, flow.Host, tok.AccessToken)
	if err != nil {
		return fmt.Errorf("GitHub issued a token, but it does not work: %w (nothing was stored)", err)
	}
	loc, note, err := env.store().Save(flow.Host.Name, who.Login, tok.AccessToken)
	if err != nil {
		return fmt.Errorf("signed in as %s, but the token could not be stored: %w", who.Login, err)
	}
	fmt.Fprintf(out, "Signed in to %s as %s (scopes: %s).\n", flow.Host.Name, who.Login, scopeList(who))
	if note != "" {
		fmt.Fprintf(out, "%s: the token is in %s (mode 0600, directory 0700).\n", note, loc)
	} else {
		fmt.Fprintf(out, "The token is in %s.\n", loc)
	}
	if missing := missingScopes(who, flow.Scopes); len(missing) > 0 {
		fmt.Fprintf(out, "GitHub did not grant %s: the tools that need them will be refused.\n", strings.Join(missing, ", "))
	}
	return nil
}

func newAuthStatusCommand(env authEnv) *cobra.Command {
	var target authTarget
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Say which credentials serve would find, for whom, with which scopes (never the token)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			hosts, err := statusHosts(env, target)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			found := 0
			for _, name := range envTokenNames {
				if strings.TrimSpace(env.getenv(name)) != "" {
					fmt.Fprintf(out, "%s is set: serve uses it for every host, before anything stored.\n", name)
					break
				}
			}
			for _, h := range hosts {
				found += printHostStatus(cmd.Context(), out, env, h)
			}
			if found == 0 {
				return fmt.Errorf("no stored credential found: run `ghgate auth login`")
			}
			return nil
		},
	}
	target.register(cmd)
	return cmd
}

// envTokenNames are the variables serve takes a token from, in order.
var envTokenNames = []string{"GITHUB_TOKEN", "GH_TOKEN"}

// statusHosts are the hosts status reports: the one asked for, else
// github.com and every host a credentials file names.
func statusHosts(env authEnv, target authTarget) ([]credentials.Host, error) {
	if target.hostname != "" || target.config != "" {
		h, _, err := target.resolve()
		return []credentials.Host{h}, err
	}
	names := []string{credentials.DefaultHost}
	names = append(names, env.store().FileHosts()...)
	names = append(names, credentials.GH{Dir: credentials.GHConfigDir(env.getenv)}.Hosts()...)
	slices.Sort(names[1:])
	names = slices.Compact(names)
	var hosts []credentials.Host
	for _, n := range names {
		if h, err := credentials.ParseHost(n); err == nil && !slices.ContainsFunc(hosts, func(x credentials.Host) bool { return x.Name == h.Name }) {
			hosts = append(hosts, h)
		}
	}
	return hosts, nil
}

// printHostStatus writes what is stored for h, ghgate's then gh's, and
// says which serve would use; it returns how many it found.
func printHostStatus(ctx context.Context, out io.Writer, env authEnv, h credentials.Host) int {
	fmt.Fprintf(out, "%s\n", h.Name)
	loaders := []func(string) (string, credentials.Location, error){
		env.store().Load,
		credentials.GH{Dir: credentials.GHConfigDir(env.getenv), Keyring: env.keyring}.Load,
	}
	found := 0
	for _, load := range loaders {
		tok, loc, err := load(h.Name)
		if errors.Is(err, credentials.ErrNotFound) {
			continue
		}
		if err != nil {
			fmt.Fprintf(out, "  ! %v\n", err)
			continue
		}
		found++
		used := ""
		if found == 1 {
			used = " [serve uses this one]"
		}
		who, err := credentials.Identify(ctx, env.http, h, tok)
		if err != nil {
			fmt.Fprintf(out, "  - %s%s: %v\n", loc, used, err)
			continue
		}
		fmt.Fprintf(out, "  - %s%s: signed in as %s, scopes: %s\n", loc, used, who.Login, scopeList(who))
	}
	if found == 0 {
		fmt.Fprintf(out, "  not signed in (ghgate auth login --hostname %s)\n", h.Name)
	}
	return found
}

func newAuthLogoutCommand(env authEnv) *cobra.Command {
	var target authTarget
	cmd := &cobra.Command{
		Use:   "logout",
		Short: "Remove ghgate's stored token for a host (gh's is left alone)",
		Long: `Remove ghgate's own stored token for the host: its OS keyring entry and its
line in the credentials file. gh's credential is gh's (gh auth logout). The
token stays valid on GitHub until revoked there (Settings > Applications >
Authorized OAuth Apps).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, _, err := target.resolve()
			if err != nil {
				return err
			}
			removed, err := env.store().Delete(h.Name)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(removed) == 0 {
				fmt.Fprintf(out, "ghgate has no stored token for %s.\n", h.Name)
				return nil
			}
			for _, loc := range removed {
				fmt.Fprintf(out, "Removed %s.\n", loc)
			}
			return nil
		},
	}
	target.register(cmd)
	return cmd
}

func scopeList(who credentials.Identity) string {
	switch {
	case !who.ScopesReported:
		return "none reported (a fine-grained or App token)"
	case len(who.Scopes) == 0:
		return "none"
	}
	return strings.Join(who.Scopes, ", ")
}

// missingScopes are the scopes asked for that GitHub did not report
// granting (project granted covers read:project, as GitHub's does).
func missingScopes(who credentials.Identity, asked []string) []string {
	if !who.ScopesReported {
		return nil
	}
	var missing []string
	for _, s := range asked {
		if !slices.Contains(who.Scopes, s) && !(s == "read:project" && slices.Contains(who.Scopes, "project")) {
			missing = append(missing, s)
		}
	}
	return missing
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
