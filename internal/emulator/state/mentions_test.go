package state

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestParseMentionsForms(t *testing.T) {
	same := func(ns ...int) []issueMention {
		var out []issueMention
		for _, n := range ns {
			out = append(out, issueMention{number: n})
		}
		return out
	}
	for _, c := range []struct {
		name, text string
		hosts      []string
		want       []issueMention
	}{
		{"bare", "Fixes #145", nil, same(145)},
		{"punctuation around", "(#1), #2. [#3] #4:", nil, same(1, 2, 3, 4)},
		{"start of lines", "#7\n#8", nil, same(7, 8)},
		{"GH-N", "See GH-26.", nil, same(26)},
		{"glued to a word", "abc#1 x_#2 v#3", nil, nil},
		{"more word characters", "#5f6368 #12abc #3_", nil, nil},
		{"HTML entity", "&#123; and &#x41;", nil, nil},
		{"zero", "#0", nil, nil},
		{"headings are not references", "## Summary\n### 2. Steps", nil, nil},
		{"other repository", "see acme/widgets#31, carefully", nil,
			[]issueMention{{"acme", "widgets", 31}}},
		{"repository with dots and dashes", "my-org/my.repo_x#4", nil,
			[]issueMention{{"my-org", "my.repo_x", 4}}},
		{"a managed user's repository", "see mona_octo/notes#1 and https://github.com/mona_octo/notes/issues/2", nil,
			[]issueMention{{"mona_octo", "notes", 1}, {"mona_octo", "notes", 2}}},
		{"path is not a repository reference", "docs/a/b#3 and https://example.com/acme/widgets#5", nil, nil},
		{"github URLs", "https://github.com/acme/widgets/issues/9 and http://www.github.com/acme/gadgets/pull/3/files#diff-1", nil,
			[]issueMention{{"acme", "widgets", 9}, {"acme", "gadgets", 3}}},
		{"URL fragment is not a second reference", "https://github.com/acme/widgets/issues/9#issuecomment-12", nil,
			[]issueMention{{"acme", "widgets", 9}}},
		{"other hosts do not count", "https://gitlab.com/acme/widgets/issues/9 https://github.com/acme/widgets/blob/main/x.md", nil, nil},
		{"the emulator's own host counts when given", "http://127.0.0.1:4321/acme/widgets/issues/9", []string{"127.0.0.1:4321"},
			[]issueMention{{"acme", "widgets", 9}}},
		{"markdown link", "[the bug](https://github.com/acme/widgets/issues/2)", nil,
			[]issueMention{{"acme", "widgets", 2}}},
		{"text order", "acme/gadgets#2 then #1", nil, []issueMention{{"acme", "gadgets", 2}, {number: 1}}},
		{"inline code", "Not `#1` nor ``a ` #2`` but #3", nil, same(3)},
		{"unclosed backtick is literal", "a ` then #4", nil, same(4)},
		{"fenced code", "Before #1\n\n```go\nx := 1 // #2\n```\n\n~~~\n#3\n~~~\nAfter #4", nil, same(1, 4)},
		{"unclosed fence runs to the end", "#1\n```\n#2\n#3", nil, same(1)},
		{"indented code", "Text #1\n\n    code #2\n    more #3\n\nText #4", nil, same(1, 4)},
		{"indented continuation of a paragraph", "Text\n    still text #5", nil, same(5)},
		{"list continuation is not code", "1. Step\n\n    Details in #6\n", nil, same(6)},
		{"HTML comment", "<!-- ignore #1 --> #2 <!-- unclosed #3", nil, same(2)},
		{"blockquote", "> Duplicate of #9", nil, same(9)},
	} {
		if got := parseMentions(c.text, c.hosts...); !slices.Equal(got, c.want) {
			t.Errorf("%s: parseMentions(%q) = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// crossRefs lists the numbers of the issues that cross-referenced is, in
// timeline order.
func crossRefs(is *Issue) []string {
	var out []string
	for _, e := range is.Events {
		if e.Event == "cross-referenced" {
			out = append(out, e.Source.Repo.FullName()+"#"+strconv.Itoa(e.Source.Number)+" by "+e.Actor.Login)
		}
	}
	return out
}

func TestCrossReferencesFromBodiesAndComments(t *testing.T) {
	s, r, alice := newTestWorld(t)
	bob := s.AddAccount("bob", "Bob", false, s.Now())
	one := s.AddIssue(r, alice, "one", nil, false, s.Now())
	two := s.AddIssue(r, alice, "two", nil, false, s.Now())
	three := s.AddIssue(r, alice, "three", nil, false, s.Now())
	four := s.AddIssue(r, alice, "four", nil, false, s.Now())

	// A pull request whose body mentions #1 twice, itself (#5), a missing
	// issue and #2 inside code.
	body := "Fixes #1\n\nRegression test for #1, see #5 and #99 and `#2`."
	pr := s.AddIssue(r, bob, "Fix one", &body, true, s.Now())
	if pr.Number != 5 {
		t.Fatalf("pull request is #%d, want #5", pr.Number)
	}
	if got := crossRefs(one); !slices.Equal(got, []string{"acme/widgets#5 by bob"}) {
		t.Errorf("#1 cross-references %v, want one from #5", got)
	}
	if n := len(one.Events); n == 0 {
		t.Errorf("#1 has no events, want the pull request's cross-reference last")
	} else if src := one.Events[n-1].Source; src != pr {
		t.Errorf("#1's last event (%s) has source %s, want the pull request %q", one.Events[n-1].Event, issueName(src), pr.Title)
	}
	if !pr.IsPull {
		t.Errorf("#%d IsPull = false, want true", pr.Number)
	}
	for _, is := range []*Issue{two, three, four, pr} {
		if got := crossRefs(is); len(got) != 0 {
			t.Errorf("#%d has cross-references %v, want none", is.Number, got)
		}
	}

	// A comment mentioning #1 again adds nothing to it; #2 gets one.
	s.AddComment(pr, alice, "Also touches #2 and #1.", s.Now())
	if got := crossRefs(one); len(got) != 1 {
		t.Errorf("#1 after a second mention: %v, want the one event", got)
	}
	if got := crossRefs(two); !slices.Equal(got, []string{"acme/widgets#5 by alice"}) {
		t.Errorf("#2 after the comment = %v, want %v", got, []string{"acme/widgets#5 by alice"})
	}

	// Editing a body to add a mention records it, by the editor.
	edited := "Now about #3."
	s.SetBody(four, bob, &edited)
	if got := crossRefs(three); !slices.Equal(got, []string{"acme/widgets#4 by bob"}) {
		t.Errorf("#3 after #4's edit = %v, want %v", got, []string{"acme/widgets#4 by bob"})
	}
	s.SetBody(four, bob, &edited)
	if got := crossRefs(three); len(got) != 1 {
		t.Errorf("#3 after the same edit again: %v, want one event", got)
	}

	// Editing a comment to add a mention records it.
	c := s.AddComment(two, alice, "nothing yet", s.Now())
	s.EditComment(c, alice, "see #4")
	if got := crossRefs(four); !slices.Equal(got, []string{"acme/widgets#2 by alice"}) {
		t.Errorf("#4 after #2's comment edit = %v, want %v", got, []string{"acme/widgets#2 by alice"})
	}

	// A deleted issue is not there to mention.
	s.DeleteIssue(three)
	s.AddComment(one, alice, "#3", s.Now())
	if got := crossRefs(three); len(got) != 1 {
		t.Errorf("deleted #3 got another event: %v, want exactly 1", got)
	}
}

func TestCrossReferencesAcrossRepositories(t *testing.T) {
	s, widgets, alice := newTestWorld(t)
	bob := s.AddAccount("bob", "Bob", false, s.Now())
	vault := s.AddRepo(widgets.Owner, "vault", "", true, s.Now())
	vault.Collaborators = []string{"alice"}
	secret := s.AddIssue(vault, alice, "secret", nil, false, s.Now())
	public := s.AddIssue(widgets, alice, "public", nil, false, s.Now())

	// bob cannot see acme/vault: his mention of it records nothing there.
	body := "Related to acme/vault#1 and https://github.com/acme/widgets/issues/1"
	s.AddIssue(widgets, bob, "from bob", &body, false, s.Now())
	if got := crossRefs(secret); len(got) != 0 {
		t.Errorf("acme/vault#1 got %v from a user who cannot see it", got)
	}
	if got := crossRefs(public); !slices.Equal(got, []string{"acme/widgets#2 by bob"}) {
		t.Errorf("acme/widgets#1 from a full URL = %v, want %v", got, []string{"acme/widgets#2 by bob"})
	}

	// alice can: hers records, and a private source may mention a public
	// issue (who sees the event is decided when the timeline is read).
	s.AddIssue(widgets, alice, "from alice", new("Needs ACME/VAULT#1 first"), false, s.Now())
	if got := crossRefs(secret); !slices.Equal(got, []string{"acme/widgets#3 by alice"}) {
		t.Errorf("acme/vault#1 from alice = %v, want %v", got, []string{"acme/widgets#3 by alice"})
	}
	s.AddComment(secret, alice, "Public side: acme/widgets#1", s.Now())
	if got := crossRefs(public); !slices.Equal(got, []string{"acme/widgets#2 by bob", "acme/vault#1 by alice"}) {
		t.Errorf("acme/widgets#1 after the private mention = %v, want %v", got, []string{"acme/widgets#2 by bob", "acme/vault#1 by alice"})
	}

	// A repository that does not exist, and an issue written before its
	// target existed, record nothing.
	early := s.Now().Add(-time.Hour)
	later := s.AddIssue(widgets, alice, "later", nil, false, s.Now())
	s.CrossReference(public, alice, "acme/nowhere#1 and #"+strconv.Itoa(later.Number), early)
	if got := crossRefs(later); len(got) != 0 {
		t.Errorf("an issue mentioned before it existed got %v, want none", got)
	}
}

// MentionsUser (search's mentions:) finds a login only as a whole: a
// managed user's @mona_octo mentions mona_octo and not mona.
func TestMentionsUserReadsWholeLogins(t *testing.T) {
	body := "cc @mona_octo and @alice-b, mail carol@example.com"
	is := &Issue{Body: &body}
	for login, want := range map[string]bool{"mona_octo": true, "MONA_OCTO": true, "mona": false, "alice-b": true, "alice": false, "example": false, "carol": false} {
		if got := MentionsUser(is, login); got != want {
			t.Errorf("MentionsUser(%q) = %v, want %v", login, got, want)
		}
	}
}

// A closing keyword names a managed user's repository as any other.
func TestClosingRefsNameManagedUsersRepositories(t *testing.T) {
	body := "Fixes mona_octo/notes#3, closes #4"
	pr := &Issue{Body: &body, Repo: &Repo{Owner: &Account{Login: "acme"}, Name: "widgets"}}
	want := []closingRef{{"mona_octo/notes", 3}, {"acme/widgets", 4}}
	if got := closingRefs(pr); !slices.Equal(got, want) {
		t.Errorf("closingRefs = %v, want %v", got, want)
	}
}
