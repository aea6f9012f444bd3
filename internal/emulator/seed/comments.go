package seed

import (
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Comment templates for generated issues, in the order a conversation
// usually goes: a maintainer's first answer, the reporter's reply, other
// people chiming in, and how it ended. Placeholders: {author} (the
// reporter), {maintainer}, {version}, {env}, {thing} (the component or the
// topic), {ref} (another issue number).

type commentPools struct {
	first, reply, others []string
	// closing ends an issue closed as completed, declined one closed as
	// not planned.
	closing, declined []string
}

var bugComments = commentPools{
	first: []string{
		"Thanks for the report, @{author}. I can reproduce this on {version} with {env}.",
		"Thanks! Could you share the output of `widgetctl version` and the full console log? I cannot reproduce it with the sample data yet.",
		"I think this is the same root cause as #{ref}, but the symptom is different enough that I'll keep both open for now.",
		"Confirmed. {thing} does not handle this case at all; the fix should be small.",
	},
	reply: []string{
		"Sure. Version {version}, environment: {env}. It happens every time the dashboard refreshes.",
		"Attached the log above. It also happens in a private window with no extensions.",
		"I tried again with a fresh profile and it still happens, so it is not a caching issue on my side.",
	},
	others: []string{
		"Same here on {env}. Happy to test a fix.",
		"We hit this too after upgrading to {version}. Our workaround is to pin the previous version for now.",
		":+1: we see this on several dashboards.",
		"For anyone else affected: disabling the query cache for that widget avoids it until there is a fix.",
	},
	closing: []string{
		"The fix is in and will ship in the next patch release. Thanks again for the detailed report, @{author}!",
		"This should be fixed on `main` now. Please reopen if you still see it after upgrading.",
		"Closing: the change in #{ref} addresses this.",
	},
	declined: []string{
		"We looked into this and it is working as designed: the behaviour follows the documented limits. Closing, but thanks for the report.",
		"This only happens with a configuration we no longer support. Closing as not planned.",
	},
}

var featureComments = commentPools{
	first: []string{
		"Thanks, @{author}! This has come up a few times. Would a dashboard-level setting cover your case, or do you need it per widget?",
		"I like this. Before anyone starts on it, let's agree on the API shape; I'll sketch a proposal here.",
		"Makes sense. It overlaps with #{ref}, so I'd like to design both together.",
	},
	reply: []string{
		"Per widget, ideally. Dashboard-level would already help though.",
		"Thanks for considering it! I can share our use case in more detail if that helps.",
	},
	others: []string{
		":+1: We'd use this for our operations dashboards too.",
		"Proposal: an option on the widget config, off by default, with the same name in the editor and the REST API. Feedback welcome.",
		"Any update on this? It is the most requested item from our users.",
	},
	closing: []string{
		"This is on `main` now and will be in the next release. Thanks for the suggestion!",
	},
	declined: []string{
		"We discussed this in the planning call and decided not to do it for now; it conflicts with the v2 layout work. Thanks for writing it up.",
		"Closing as not planned: it would add a setting almost nobody needs. A plugin could do this once the v5 plugin API is out.",
	},
}

var taskComments = commentPools{
	first: []string{
		"I'll pick this up.",
		"Sounds good. Let's keep the change small enough to review in one sitting.",
		"Related: #{ref}.",
	},
	reply: []string{
		"Started on this; a draft pull request is coming in the next few days.",
		"Found a few more places that need the same change, added them to the list.",
	},
	others: []string{
		"Please keep an eye on the size of the change; small reviews go faster.",
		"Let me know if you want a second pair of eyes on the review.",
	},
	closing: []string{
		"Done in #{ref}.",
		"Closing, this is finished.",
	},
	declined: []string{
		"Dropping this; the v2 work replaces this code anyway.",
	},
}

var questionComments = commentPools{
	// The first reply to a question is its answer, from the vocabulary.
	first: []string{"Let me check and get back to you."},
	reply: []string{
		"That worked, thanks!",
		"Thanks, that's what I needed. Might be worth adding to the docs.",
	},
	others: []string{
		"I had the same question. +1 for documenting this.",
	},
	closing: []string{
		"Glad it worked. Closing this; feel free to reopen if anything is unclear.",
	},
}

var pullComments = []string{
	"Looks good overall. One nit: the new test name could say what it checks rather than which issue it came from.",
	"Thanks! Could you add a line to CHANGELOG.md?",
	"Addressed the review comments in the last push.",
	"CI is green now.",
}

// widgetsComments picks acme/widgets' comment pools for a kind of issue.
func widgetsComments(k kind) commentPools {
	switch k {
	case kindBug:
		return bugComments
	case kindFeature:
		return featureComments
	case kindQuestion:
		return questionComments
	}
	return taskComments
}

// fill replaces a comment template's placeholders.
func fill(tmpl string, author, maintainer *state.Account, version, env, thing string, ref int) string {
	return strings.NewReplacer("{author}", author.Login, "{maintainer}", maintainer.Login, "{version}", version,
		"{env}", env, "{thing}", upper(thing), "{ref}", strconv.Itoa(ref)).Replace(tmpl)
}
