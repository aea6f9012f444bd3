package state

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// State is the emulator's whole world. Every handler takes mu for the
// duration of its work, so a request sees and leaves a consistent state.
type State struct {
	mu sync.RWMutex

	now    func() time.Time
	lastID int64

	accounts  map[string]*Account // by lower-case login
	tokens    map[string]*Token
	repos     map[string]*Repo // by lower-case "owner/name"
	repoOrder []*Repo
	// renamed are repositories by a former lower-case "owner/name", which
	// GitHub redirects to them (repo_writes.go).
	renamed    map[string]*Repo
	issueTypes map[string][]*IssueType // by lower-case org login
	nodes      map[string]any          // node_id -> *Issue, *Repo, *Account, *Label, *Milestone, *Comment, *IssueType
	issuesByID map[int64]*Issue
	apps       map[int64]*App // GitHub Apps by id (apps.go)
	// issueFields are organizations' issue fields by lower-case login
	// (issue_fields.go); nil until one is added.
	issueFields map[string][]*IssueField
	// teams are organizations' teams by lower-case login (teams.go).
	teams map[string][]*Team
	// projects are Projects (v2) boards by lower-case owner login
	// (projects.go); nil until one is added.
	projects map[string][]*Project
	// projectNumbers is the last board number given per owner: a deleted
	// board's number is not given again.
	projectNumbers map[string]int
	// orgRoles are users' organization roles (owner, security manager)
	// by lower-case org and user login (security.go).
	orgRoles map[string]map[string]string
	// logKey signs job log and release asset URLs (actions.go), made on
	// first use.
	logKey     []byte
	logKeyOnce sync.Once
	// search is what the search index holds when it trails writes
	// (search_lag.go); nil when it does not.
	search *searchView
}

// NewState returns an empty world whose clock is now.
func NewState(now func() time.Time) *State {
	if now == nil {
		now = time.Now
	}
	return &State{
		now:        now,
		accounts:   map[string]*Account{},
		tokens:     map[string]*Token{},
		repos:      map[string]*Repo{},
		issueTypes: map[string][]*IssueType{},
		nodes:      map[string]any{},
		issuesByID: map[int64]*Issue{},
	}
}

// Now is the emulator's clock, truncated to seconds as GitHub's timestamps are.
func (s *State) Now() time.Time { return s.now().UTC().Truncate(time.Second) }

// nextID hands out database ids. One counter serves every kind of object, so
// ids never collide across kinds (GitHub's do not either, in practice).
func (s *State) nextID() int64 {
	s.lastID++
	return s.lastID
}

// NodeID mints an opaque global id with GitHub's type prefix convention
// (I_ for issues, R_ for repositories, ...).
func NodeID(prefix string, id int64) string {
	return prefix + "_kwDO" + base64.RawURLEncoding.EncodeToString([]byte("emu:"+strconv.FormatInt(id, 10)))
}

// Lock and Unlock give a writing request, seeding code and tests exclusive
// access; RLock and RUnlock let reading requests share it.
func (s *State) Lock()    { s.mu.Lock() }
func (s *State) Unlock()  { s.mu.Unlock() }
func (s *State) RLock()   { s.mu.RLock() }
func (s *State) RUnlock() { s.mu.RUnlock() }

// Clock reads the emulator's clock untruncated, as rate-limit windows and
// token expiry compare it.
func (s *State) Clock() time.Time { return s.now() }

// SetClock replaces the clock and returns the one it replaced, so the seed
// can run on its own time and restore the caller's.
func (s *State) SetClock(now func() time.Time) (previous func() time.Time) {
	previous, s.now = s.now, now
	return previous
}

// AddAccount creates a user or organization.
func (s *State) AddAccount(login, name string, isOrg bool, created time.Time) *Account {
	id := s.nextID()
	prefix := "U"
	if isOrg {
		prefix = "O"
	}
	a := &Account{ID: id, NodeID: NodeID(prefix, id), Login: login, Name: name, IsOrg: isOrg, CreatedAt: created}
	s.accounts[strings.ToLower(login)] = a
	s.nodes[a.NodeID] = a
	return a
}

// addBot creates the bot account of the App with this slug, with a bot's
// global id (BOT_...).
func (s *State) addBot(slug string, created time.Time) *Account {
	id := s.nextID()
	a := &Account{ID: id, NodeID: NodeID("BOT", id), Login: slug + botSuffix, Name: slug, IsBot: true, CreatedAt: created}
	s.accounts[strings.ToLower(a.Login)] = a
	s.nodes[a.NodeID] = a
	return a
}

// Account finds a user or organization by login, case-insensitively.
func (s *State) Account(login string) *Account { return s.accounts[strings.ToLower(login)] }

// AddToken registers a credential.
func (s *State) AddToken(t *Token) {
	perms := make(map[string]Permission, len(t.Perms))
	for repo, p := range t.Perms {
		perms[strings.ToLower(repo)] = p
	}
	t.Perms = perms
	s.tokens[t.Value] = t
}

// Token looks a credential up by its value.
func (s *State) Token(value string) *Token { return s.tokens[value] }

// AddRepo creates a repository owned by owner.
func (s *State) AddRepo(owner *Account, name, description string, private bool, created time.Time) *Repo {
	id := s.nextID()
	r := &Repo{ID: id, NodeID: NodeID("R", id), Owner: owner, Name: name, Description: description,
		Private: private, CreatedAt: created, UpdatedAt: created, Files: map[string]string{}}
	s.repos[strings.ToLower(r.FullName())] = r
	s.repoOrder = append(s.repoOrder, r)
	s.nodes[r.NodeID] = r
	return r
}

// Repo finds a repository by owner and name, case-insensitively.
func (s *State) Repo(owner, name string) *Repo {
	return s.repos[strings.ToLower(owner+"/"+name)]
}

// Repos lists every repository in creation order.
func (s *State) Repos() []*Repo { return s.repoOrder }

// AddLabel creates a repository label.
func (s *State) AddLabel(r *Repo, name, color string, description *string) *Label {
	id := s.nextID()
	l := &Label{ID: id, NodeID: NodeID("LA", id), Name: name, Color: color, Description: description}
	r.Labels = append(r.Labels, l)
	s.nodes[l.NodeID] = l
	return l
}

// FindLabel matches a label name case-insensitively, as GitHub does.
func (r *Repo) FindLabel(name string) *Label {
	for _, l := range r.Labels {
		if strings.EqualFold(l.Name, name) {
			return l
		}
	}
	return nil
}

// AddMilestone creates a repository milestone.
func (s *State) AddMilestone(r *Repo, title string, description *string, dueOn *time.Time, creator *Account, created time.Time) *Milestone {
	id := s.nextID()
	r.nextMilestone++
	m := &Milestone{ID: id, NodeID: NodeID("MI", id), Number: r.nextMilestone, Title: title, Description: description,
		State: "open", DueOn: dueOn, Creator: creator, CreatedAt: created, UpdatedAt: created}
	r.Milestones = append(r.Milestones, m)
	s.nodes[m.NodeID] = m
	return m
}

// FindMilestone finds a milestone by number.
func (r *Repo) FindMilestone(number int) *Milestone {
	for _, m := range r.Milestones {
		if m.Number == number {
			return m
		}
	}
	return nil
}

// AddIssueType creates an organization issue type.
func (s *State) AddIssueType(org *Account, name string, description, color *string, created time.Time) *IssueType {
	id := s.nextID()
	t := &IssueType{ID: id, NodeID: NodeID("IT", id), Name: name, Description: description, Color: color,
		IsEnabled: true, CreatedAt: created, UpdatedAt: created}
	key := strings.ToLower(org.Login)
	s.issueTypes[key] = append(s.issueTypes[key], t)
	s.nodes[t.NodeID] = t
	return t
}

// IssueTypes lists an organization's issue types.
func (s *State) IssueTypes(org string) []*IssueType { return s.issueTypes[strings.ToLower(org)] }

// FindIssueType matches an issue type name case-insensitively within the
// repository owner's organization.
func (s *State) FindIssueType(r *Repo, name string) *IssueType {
	for _, t := range s.IssueTypes(r.Owner.Login) {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// AddIssue creates an issue (or, with isPull, a pull request) with the next
// number in the repository, and cross-references the issues its body
// mentions. hosts are web hosts besides github.com whose issue URLs count
// as mentions (see CrossReference).
func (s *State) AddIssue(r *Repo, author *Account, title string, body *string, isPull bool, created time.Time, hosts ...string) *Issue {
	is := s.NewIssue(r, author, title, body, isPull, created)
	if isPull {
		s.openBranchPull(is)
	}
	if body != nil {
		s.CrossReference(is, author, *body, created, hosts...)
	}
	return is
}

// NewIssue creates the issue alone: the seed, which records mentions at
// their seeded moment, uses it directly.
func (s *State) NewIssue(r *Repo, author *Account, title string, body *string, isPull bool, created time.Time) *Issue {
	id := s.nextID()
	prefix := "I"
	if isPull {
		prefix = "PR"
	}
	is := &Issue{ID: id, NodeID: NodeID(prefix, id), Repo: r, Number: len(r.Issues) + 1, Title: title, Body: body,
		State: "open", User: author, IsPull: isPull, CreatedAt: created, UpdatedAt: created}
	r.Issues = append(r.Issues, is)
	s.nodes[is.NodeID] = is
	s.issuesByID[id] = is
	s.recordVersion(is)
	return is
}

// Issue finds an issue or pull request by number, including deleted ones.
func (r *Repo) Issue(number int) *Issue {
	if number < 1 || number > len(r.Issues) {
		return nil
	}
	return r.Issues[number-1]
}

// IssueByID finds an issue by database id.
func (s *State) IssueByID(id int64) *Issue { return s.issuesByID[id] }

// Node finds any object by its global node id.
func (s *State) Node(id string) any { return s.nodes[id] }

// AddComment appends a comment to an issue, records the timeline event and
// cross-references the issues the comment mentions (hosts as AddIssue's).
func (s *State) AddComment(is *Issue, author *Account, body string, created time.Time, hosts ...string) *Comment {
	id := s.nextID()
	c := &Comment{ID: id, NodeID: NodeID("IC", id), Issue: is, User: author, Body: body, CreatedAt: created, UpdatedAt: created}
	is.Comments = append(is.Comments, c)
	s.nodes[c.NodeID] = c
	s.addEvent(is, &Event{Event: "commented", Actor: author, CreatedAt: created, Comment: c})
	s.CrossReference(is, author, body, created, hosts...)
	return c
}

// EditComment replaces a comment's text; issues the new text mentions are
// cross-referenced (hosts as AddIssue's).
func (s *State) EditComment(c *Comment, editor *Account, body string, hosts ...string) {
	now := s.Now()
	c.Body = body
	c.UpdatedAt = now
	c.LastEditedAt = &now
	s.CrossReference(c.Issue, editor, body, now, hosts...)
}

// FindComment finds a live comment in a repository by id.
func (r *Repo) FindComment(id int64) *Comment {
	for _, is := range r.Issues {
		for _, c := range is.Comments {
			if c.ID == id {
				return c
			}
		}
	}
	return nil
}

// addEvent records a timeline event on an issue, keeping the timeline in
// time order: an event recorded after the fact (the demo seed reviews its
// pull requests once their fates are known) goes before those that
// happened later; one at the same moment as others goes after them.
func (s *State) addEvent(is *Issue, e *Event) {
	if e.Event != "committed" {
		// A committed event is its commit, named by sha; it takes no id.
		e.ID = s.nextID()
		e.NodeID = NodeID("E", e.ID)
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.Now()
	}
	i := len(is.Events)
	for i > 0 && is.Events[i-1].CreatedAt.After(e.CreatedAt) {
		i--
	}
	is.Events = slices.Insert(is.Events, i, e)
}

// Permission is the token's access level on a repository.
func (t *Token) Permission(r *Repo) Permission {
	if p, ok := t.Perms[strings.ToLower(r.FullName())]; ok {
		return p
	}
	if strings.EqualFold(r.Owner.Login, t.Login) {
		return PermAdmin
	}
	if r.Private {
		return PermNone
	}
	return PermRead
}

// AccountsInOrder lists every account in creation order.
func (s *State) AccountsInOrder() []*Account {
	out := make([]*Account, 0, len(s.accounts))
	for _, a := range s.accounts {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *Account) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
