package toolkit

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// Lockdown is the operator's rule on strangers' text, for one server, HTTP
// client or broker route. An agent that reads an outsider's issue can be
// steered by what it says (the "toxic flow": a public issue asking it to
// copy private data into a comment); under lockdown it never reads it.
type Lockdown struct {
	// On withholds, in public repositories, the bodies and comments of
	// authors whose author_association is not OWNER, MEMBER or
	// COLLABORATOR (GitHub's own lockdown asks for push access; these
	// three are how GitHub marks the people who have it). Titles stay.
	On bool
	// AllowInclude accepts a read's include_untrusted: true, which shows
	// them anyway; every such call is audited.
	AllowInclude bool
}

// IncludeUntrustedGate is what the read tools gate include_untrusted on
// (tooldef.Tool's Gated): the server serves it where some caller may use
// include_untrusted, so the default tools/list neither lists nor accepts
// the field.
const IncludeUntrustedGate = "allow_include_untrusted"

// IncludeUntrustedField is the read tools' argument.
const IncludeUntrustedField = "include_untrusted"

// TrustedAssociation reports whether GitHub's author_association names
// someone who can push to the repository: its owner, a member of its
// organization, or a collaborator. Everyone else (CONTRIBUTOR,
// FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN, NONE, or nothing said)
// is a stranger.
func TrustedAssociation(a string) bool {
	switch strings.ToUpper(a) {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return true
	}
	return false
}

// Withheld marks an issue whose text lockdown withheld: its body (with
// the body author's association and size), and how many of the comments
// in the same answer.
type Withheld struct {
	Body        bool   `json:"body,omitempty" jsonschema:"the body is withheld"`
	Association string `json:"association,omitempty" jsonschema:"the body author's author_association"`
	Bytes       int    `json:"withheld_bytes,omitempty" jsonschema:"the body's size"`
	Comments    int    `json:"comments,omitempty" jsonschema:"comments withheld in this answer"`
}

// WithheldText stands where lockdown withheld one comment's text: whose
// it is, why (the association), and how much is missing.
type WithheldText struct {
	Author      string `json:"author"`
	Association string `json:"association"`
	Bytes       int    `json:"withheld_bytes"`
}

// lockdownFor is the rule for a call on owner's repositories: off where
// the Service has none.
func (s *Service) lockdownFor(ctx context.Context, owner string) Lockdown {
	if s.Lockdown == nil {
		return Lockdown{}
	}
	return s.Lockdown(ctx, owner)
}

// UntrustedCall names a read for OpenUntrusted.
type UntrustedCall struct {
	Tool string
	// Owner and Repo are the repository the call names; Repo is empty for
	// an owner-wide read, Owner too for a search of everything.
	Owner, Repo string
	// Include is the call's include_untrusted.
	Include bool
	// Again is the call's arguments without include_untrusted: the repair
	// of a refused include.
	Again any
}

// Untrusted is one read's decision on strangers' text: every view that
// shows a body or a comment asks it (Text), so none can forget lockdown.
// It looks a repository's visibility up once per call, through the read
// client (whose ETags the state store keeps), and only when a stranger's
// text is there to judge. One call's: not for use by several goroutines.
type Untrusted struct {
	ctx     context.Context
	svc     *Service
	c       *github.Client
	tool    string
	owner   string
	include bool
	rules   map[string]Lockdown // by lower-case owner
	public  map[string]bool     // by lower-case owner/name
	noted   map[string]bool     // repositories whose include_untrusted was recorded
}

// OpenUntrusted opens a read's decision on strangers' text. A call asking
// include_untrusted where the operator does not allow it is refused with
// invalid_field, and the call without it as the repair.
func (s *Service) OpenUntrusted(ctx context.Context, c *github.Client, call UntrustedCall) (*Untrusted, error) {
	u := &Untrusted{ctx: ctx, svc: s, c: c, tool: call.Tool, owner: call.Owner, include: call.Include,
		rules: map[string]Lockdown{}, public: map[string]bool{}, noted: map[string]bool{}}
	rule := u.rule(call.Owner)
	if call.Include && !rule.AllowInclude {
		e := contract.Errorf(contract.CodeInvalidField, "include_untrusted is not allowed here: the operator keeps strangers' text withheld").
			WithField(IncludeUntrustedField, "not allowed by this deployment")
		e.Settlement = contract.NotStarted
		return nil, e.WithRepair(contract.Repair{NextStep: "call " + call.Tool + " again without include_untrusted; withheld text stays withheld",
			Tool: call.Tool, Arguments: call.Again})
	}
	if call.Include && rule.On && call.Repo != "" {
		u.noteIncluded(call.Owner + "/" + call.Repo)
	}
	return u, nil
}

// rule is the operator's rule for owner's repositories, asked once.
func (u *Untrusted) rule(owner string) Lockdown {
	if owner == "" {
		owner = u.owner
	}
	k := strings.ToLower(owner)
	r, ok := u.rules[k]
	if !ok {
		r = u.svc.lockdownFor(u.ctx, owner)
		u.rules[k] = r
	}
	return r
}

// Withholds reports whether this call withholds anything at all: lockdown
// on for the call's owner and no include_untrusted. A mirror records it,
// so that a sync under another rule rewrites every file.
func (u *Untrusted) Withholds() bool {
	r := u.rule(u.owner)
	return r.On && !(u.include && r.AllowInclude)
}

// Text decides one body or comment by author (with association) in repo
// ("owner/name"): shown, it is returned as it is; withheld, the text is
// "" and the marker says whose it was and how long. Empty text is never
// withheld: there is nothing to keep back.
func (u *Untrusted) Text(repo, author, association, text string) (string, *WithheldText, error) {
	if text == "" || TrustedAssociation(association) {
		return text, nil, nil
	}
	owner, name, _ := strings.Cut(repo, "/")
	r := u.rule(owner)
	if !r.On {
		return text, nil, nil
	}
	pub, err := u.isPublic(owner, name)
	if err != nil {
		return "", nil, err
	}
	if !pub {
		// A private repository's authors were let in by its owners.
		return text, nil, nil
	}
	if u.include && r.AllowInclude {
		u.noteIncluded(repo)
		return text, nil, nil
	}
	if association == "" {
		association = "NONE"
	}
	return "", &WithheldText{Author: author, Association: strings.ToUpper(association), Bytes: len(text)}, nil
}

// isPublic looks owner/name's visibility up, once per call. Internal
// repositories (an enterprise's) are not public.
func (u *Untrusted) isPublic(owner, name string) (bool, error) {
	k := strings.ToLower(owner + "/" + name)
	if v, ok := u.public[k]; ok {
		return v, nil
	}
	r, _, err := u.c.GetRepo(u.ctx, owner, name)
	if err != nil {
		return false, err
	}
	pub := r.GetVisibility() == "public" || (r.GetVisibility() == "" && !r.GetPrivate())
	u.public[k] = pub
	return pub, nil
}

// noteIncluded audits that the call was shown strangers' text of repo
// through include_untrusted: on the call's audit line where a deployment
// writes one ([caller.Reach]), else on the server's log.
func (u *Untrusted) noteIncluded(repo string) {
	k := strings.ToLower(repo)
	if u.noted[k] {
		return
	}
	u.noted[k] = true
	if r := caller.ReachFrom(u.ctx); r != nil {
		owner, name, _ := strings.Cut(repo, "/")
		r.Untrusted(owner, name)
		return
	}
	u.svc.Logger().Info("include_untrusted", "tool", u.tool, "repo", repo, "caller", caller.ID(u.ctx))
}

// Thread renders a review thread of repository repo ("owner/name") as
// [ThreadOf] does, each comment's text decided by u.
func (u *Untrusted) Thread(t *github.ReviewThread) (Thread, int, error) {
	out := ThreadOf(t)
	withheld := 0
	for i, c := range t.Comments {
		body, w, err := u.Text(t.Repo, c.Author, c.Association, c.Body)
		if err != nil {
			return Thread{}, 0, err
		}
		if w != nil {
			out.Comments[i].Body, out.Comments[i].Sanitized, out.Comments[i].Withheld = body, nil, w
			withheld++
		}
	}
	return out, withheld, nil
}

// ThreadView renders a review thread a write answers with (the thread as
// github_update_review_thread leaves it): the other authors' comments in
// it are judged as a read's are, so a write cannot be used to read what
// lockdown withholds.
func (s *Service) ThreadView(ctx context.Context, c *github.Client, tool string, t *github.ReviewThread) (Thread, error) {
	owner, repo, _ := strings.Cut(t.Repo, "/")
	u, err := s.OpenUntrusted(ctx, c, UntrustedCall{Tool: tool, Owner: owner, Repo: repo})
	if err != nil {
		return Thread{}, err
	}
	out, _, err := u.Thread(t)
	return out, err
}
