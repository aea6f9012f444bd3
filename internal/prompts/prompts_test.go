package prompts

import (
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func everything(string) bool { return true }

func byName(t *testing.T, name string) Prompt {
	t.Helper()
	for _, p := range All() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no prompt %s", name)
	return Prompt{}
}

// A date left out is a week before the clock's day, in UTC; one given is
// kept as given.
func TestSinceDefaultsToAWeekBefore(t *testing.T) {
	now := time.Date(2026, 3, 2, 23, 30, 0, 0, time.FixedZone("X", -5*3600)) // 2026-03-03 in UTC
	p := byName(t, "weekly_report")
	in, e := p.Parse(map[string]string{"owner": "acme", "repo": "widgets"}, now)
	if e != nil {
		t.Fatal(e)
	}
	if want := "2026-02-24"; in.Since != want {
		t.Errorf("since = %s, want %s", in.Since, want)
	}
	in, e = p.Parse(map[string]string{"owner": "acme", "repo": "widgets", "since": " 2025-12-31 "}, now)
	if e != nil {
		t.Fatal(e)
	}
	if want := "2025-12-31"; in.Since != want {
		t.Errorf("since given = %s, want %s", in.Since, want)
	}
}

// Every tool a prompt needs is called in its message when everything is
// served, and the message reads as sent: no HTML escapes in a qualifier.
func TestEveryNeededToolIsCalled(t *testing.T) {
	for _, p := range All() {
		args := map[string]string{"owner": "acme", "repo": "widgets", "issue_number": "7", "milestone": "v1.0"}
		for name := range args {
			if _, ok := p.Arg(name); !ok {
				delete(args, name)
			}
		}
		in, e := p.Parse(args, time.Now())
		if e != nil {
			t.Fatalf("%s: %v", p.Name, e)
		}
		text := p.text(in, everything)
		for _, tool := range p.Needs {
			if !strings.Contains(text, tool+" {") {
				t.Errorf("%s needs %s but calls it nowhere:\n%s", p.Name, tool, text)
			}
		}
		if strings.Contains(text, `\u00`) {
			t.Errorf("%s: escaped characters in the message:\n%s", p.Name, text)
		}
	}
}

// Served decides the write and report steps: nothing served beyond the
// needs leaves them out or words them as proposals.
func TestStepsFollowWhatIsServed(t *testing.T) {
	only := func(p Prompt) Served {
		return func(tool string) bool {
			for _, n := range p.Needs {
				if n == tool {
					return true
				}
			}
			return false
		}
	}
	in := Input{Owner: "acme", Repo: "widgets", IssueNumber: 7, Milestone: "v1.0", Since: "2026-01-01"}
	for _, c := range []struct {
		prompt string
		absent []string
	}{
		{"triage_issues", []string{"dry_run", toolkit.NameBulkUpdateIssues, "Apply each"}},
		{"weekly_report", []string{"github_report_"}},
		{"summarize_issue", []string{toolkit.NameListIssueItems}},
	} {
		p := byName(t, c.prompt)
		text := p.text(in, only(p))
		for _, a := range c.absent {
			if strings.Contains(text, a) {
				t.Errorf("%s with only its needs served says %q:\n%s", c.prompt, a, text)
			}
		}
	}
}

// A bad argument is an invalid_field naming it; Parse never panics on
// any strings.
func FuzzParse(f *testing.F) {
	f.Add("summarize_issue", "acme", "widgets", "7", "")
	f.Add("release_notes", "acme", "widgets", "", `v1"`)
	f.Add("weekly_report", "-x", "..", "", "2026-13-01")
	f.Fuzz(func(t *testing.T, prompt, owner, repo, number, other string) {
		for _, p := range All() {
			if p.Name != prompt {
				continue
			}
			args := map[string]string{"owner": owner, "repo": repo, "issue_number": number, "milestone": other, "since": other}
			for name := range args {
				if _, ok := p.Arg(name); !ok {
					delete(args, name)
				}
			}
			in, e := p.Parse(args, time.Now())
			if e != nil {
				if e.Code != contract.CodeInvalidField {
					t.Errorf("%s: refusal code = %s, want %s (%+v)", prompt, e.Code, contract.CodeInvalidField, e)
				}
				if e.Details == nil {
					t.Errorf("%s: refusal has no details, want the field it names (%+v)", prompt, e)
				} else if e.Details.Field == "" {
					t.Errorf("%s: refusal names no field, want one (%+v)", prompt, e)
				}
				return
			}
			_ = p.text(in, everything)
		}
	})
}
