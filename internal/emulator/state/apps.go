package state

import (
	"crypto/rand"
	"crypto/rsa"
	"strconv"
	"strings"
	"time"
)

// defaultInstallationTokenTTL is how long GitHub's installation tokens live.
const defaultInstallationTokenTTL = time.Hour

// App is a GitHub App the emulator knows: the public half of its key (the
// JWTs it signs are checked against it) and where it is installed.
type App struct {
	ID        int64
	Slug      string
	PublicKey *rsa.PublicKey
	// Bot is the "<slug>[bot]" account installation tokens act as.
	Bot *Account
	// TokenTTL is how long minted installation tokens live; zero means
	// GitHub's hour. A test makes it short to exercise token refresh.
	TokenTTL time.Duration
	// Installations by id.
	Installations map[int64]*Installation

	// jwt is the identity a valid App JWT authenticates as; it is never in
	// the token table, so it opens nothing but the /app endpoints.
	jwt *Token
}

// Installation is an App installed on an account, with its access per
// repository ("owner/name") and the permissions it was granted.
type Installation struct {
	ID      int64
	App     *App
	Account string
	Perms   map[string]Permission
	// Permissions are what the account granted the App; a token may ask
	// for no more. AddInstallation grants DefaultInstallationPermissions.
	Permissions AppPermissions
	// RepositorySelection is "selected" (the repositories in Perms, the
	// default) or "all".
	RepositorySelection string
	CreatedAt           time.Time
	// Minted counts the installation tokens issued, and Requests holds
	// what each was asked with, in order, for tests.
	Minted   int
	Requests []TokenRequest

	live []*Token // unexpired tokens, pruned at each mint
}

// TokenRequest is the body of POST
// /app/installations/{installation_id}/access_tokens, as the App sent it:
// the repositories by name or id and the permissions the token is
// narrowed to (none: all the installation's).
type TokenRequest struct {
	Repositories  []string       `json:"repositories"`
	RepositoryIDs []int64        `json:"repository_ids"`
	Permissions   AppPermissions `json:"permissions"`
}

// AddApp registers a GitHub App and its bot account ("app-<id>[bot]").
// Call with the state locked.
func (s *State) AddApp(id int64, publicKey *rsa.PublicKey) *App {
	if s.apps == nil {
		s.apps = map[int64]*App{}
	}
	slug := "app-" + strconv.FormatInt(id, 10)
	bot := s.Account(slug + botSuffix)
	if bot == nil {
		bot = s.addBot(slug, s.Now())
	}
	bot.IsBot = true
	a := &App{ID: id, Slug: slug, PublicKey: publicKey, Bot: bot, Installations: map[int64]*Installation{},
		jwt: &Token{Value: "app-jwt:" + strconv.FormatInt(id, 10), Login: bot.Login}}
	s.apps[id] = a
	return a
}

// App finds a registered App by id.
func (s *State) App(id int64) *App { return s.apps[id] }

// AddInstallation installs the App on account with the given access per
// repository ("owner/name").
func (a *App) AddInstallation(id int64, account string, perms map[string]Permission) *Installation {
	p := make(map[string]Permission, len(perms))
	for repo, level := range perms {
		p[strings.ToLower(repo)] = level
	}
	in := &Installation{ID: id, App: a, Account: account, Perms: p, Permissions: DefaultInstallationPermissions(),
		RepositorySelection: "selected", CreatedAt: a.Bot.CreatedAt}
	a.Installations[id] = in
	return in
}

// AppForIdentity returns the App a request authenticated as with its JWT,
// or nil for any other credential.
func (s *State) AppForIdentity(t *Token) *App {
	for _, a := range s.apps {
		if a.jwt == t {
			return a
		}
	}
	return nil
}

// Mint issues an installation token limited to the repositories of perms
// and to grant's permissions, registered as an ordinary emulator token
// that expires.
func (s *State) Mint(in *Installation, perms map[string]Permission, grant AppPermissions, selection string) *Token {
	now := s.now()
	kept := in.live[:0]
	for _, t := range in.live {
		if now.Before(t.ExpiresAt) {
			kept = append(kept, t)
		} else {
			delete(s.tokens, t.Value)
		}
	}
	in.live = kept
	ttl := in.App.TokenTTL
	if ttl <= 0 {
		ttl = defaultInstallationTokenTTL
	}
	t := &Token{Value: "ghs_" + randomAlnum(36), Login: in.App.Bot.Login, Perms: perms,
		ExpiresAt: now.Add(ttl).Truncate(time.Second),
		App:       &InstallationGrant{Installation: in, Permissions: grant, RepositorySelection: selection}}
	s.AddToken(t)
	in.live = append(in.live, t)
	in.Minted++
	return t
}

// randomAlnum is n random characters from [A-Za-z0-9], as GitHub's token
// bodies are.
func randomAlnum(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// UserPermission is what an account may do on a repository: the owner
// administers it; a collaborator has the grant its tokens carry for the
// repository (the seed gives each user one token standing for the user's
// access), read when none names it.
func (s *State) UserPermission(a *Account, r *Repo) Permission {
	if a == r.Owner {
		return PermAdmin
	}
	best := PermRead
	for _, t := range s.tokens {
		if !strings.EqualFold(t.Login, a.Login) {
			continue
		}
		if p, ok := t.Perms[strings.ToLower(r.FullName())]; ok && p > best {
			best = p
		}
	}
	return best
}

// AddBotAccount creates (once) the bot account of an App known only by
// its slug, such as an automated reviewer's "<slug>[bot]".
func (s *State) AddBotAccount(slug string, created time.Time) *Account {
	if a := s.Account(slug + botSuffix); a != nil {
		return a
	}
	return s.addBot(slug, created)
}
