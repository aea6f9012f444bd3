package prompts

import (
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// defaultDays is how far back a Date argument left out reaches: a week.
const defaultDays = 7

// maxMilestoneTitle is GitHub's limit on a milestone's title.
const maxMilestoneTitle = 255

// Parse checks a prompts/get's arguments against p's, as a tool's are
// checked: a missing required one, an unknown one or a value of the wrong
// shape is an invalid_field naming it. A Date left out is defaultDays
// before now.
func (p Prompt) Parse(args map[string]string, now time.Time) (Input, *contract.Error) {
	for name := range args {
		if _, ok := p.Arg(name); !ok {
			return Input{}, contract.Errorf(contract.CodeInvalidField, "%s takes no argument %s", p.Name, name).
				WithField(name, "unknown argument; this prompt takes "+p.argNames())
		}
	}
	in := Input{Since: daysBefore(now, defaultDays)}
	for _, a := range p.Args {
		v, ok := args[a.Name]
		if v = strings.TrimSpace(v); !ok || v == "" {
			if a.Required {
				return Input{}, contract.Errorf(contract.CodeInvalidField, "%s needs %s", p.Name, a.Name).
					WithField(a.Name, "is required: "+a.Description)
			}
			continue
		}
		if e := a.set(&in, v); e != nil {
			return Input{}, e
		}
	}
	// A repository name is checked with its owner (GitHub's rules for
	// both), as a tool's arguments are.
	if in.Repo != "" {
		if err := github.CheckRepo(in.Owner, in.Repo); err != nil {
			return Input{}, contract.Errorf(contract.CodeInvalidField, "repo is not a GitHub repository name").
				WithField("repo", "must be a repository name (letters, digits, '.', '-', '_'), without the owner")
		}
	}
	return in, nil
}

// set checks v as a's kind and stores it in in.
func (a Arg) set(in *Input, v string) *contract.Error {
	switch a.Kind {
	case Owner:
		if github.CheckOwner(v) != nil {
			return contract.Errorf(contract.CodeInvalidField, "owner is not a GitHub user or organization name").
				WithField(a.Name, github.OwnerRule)
		}
		in.Owner = v
	case Repo:
		in.Repo = v
	case IssueNumber:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1<<31-1 {
			return contract.Errorf(contract.CodeInvalidField, "%s is not an issue number", a.Name).
				WithField(a.Name, "must be a whole number from 1, as in #123 without the #")
		}
		in.IssueNumber = n
	case Milestone:
		// The title goes into a search qualifier in quotes, which a
		// quote in it would end early.
		if strings.Contains(v, `"`) || len(v) > maxMilestoneTitle {
			return contract.Errorf(contract.CodeInvalidField, "milestone title cannot be searched for").
				WithField(a.Name, "must be a milestone's title, without double quotes, at most 255 characters")
		}
		in.Milestone = v
	case Date:
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return contract.Errorf(contract.CodeInvalidField, "%s is not a date", a.Name).
				WithField(a.Name, "must be a date, YYYY-MM-DD")
		}
		in.Since = v
	}
	return nil
}

func (p Prompt) argNames() string {
	names := make([]string, len(p.Args))
	for i, a := range p.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}
