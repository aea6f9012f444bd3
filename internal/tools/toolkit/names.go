package toolkit

import (
	"fmt"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// CheckNames refuses an owner or repository name GitHub would not accept
// ("widgets/issues/2?" as a repo would reach another endpoint) with the
// argument it came in. It is the access layer's own name check
// ([github.CheckOwner], [github.CheckRepo]), run when the input is validated so
// the refusal names the field; the access layer checks again before any
// path is built. repo may be empty where the tool allows it (a search
// across repositories); owner too, then.
func CheckNames(owner, repo string) *contract.Error {
	if owner == "" && repo == "" {
		return nil
	}
	if err := github.CheckOwner(owner); err != nil {
		return contract.Errorf(contract.CodeInvalidField, "%s", err.Error()).
			WithField("owner", github.OwnerRule)
	}
	if repo == "" {
		return nil
	}
	if err := github.CheckRepo(owner, repo); err != nil {
		return contract.Errorf(contract.CodeInvalidField, "%s", err.Error()).
			WithField("repo", "must be a repository name (letters, digits, '.', '-', '_'), without the owner")
	}
	return nil
}

// GitHub's limits on an issue's title and on issue and comment bodies, in
// characters.
const (
	MaxTitleChars = 256
	MaxBodyChars  = 65536
)

// CheckLength refuses a text over GitHub's limit before it is sent, saying
// by how much: GitHub would refuse it too, with less to go on.
func CheckLength(field, text string, limit int) *contract.Error {
	if n := utf8.RuneCountInString(text); n > limit {
		reason := fmt.Sprintf("is %d characters; GitHub allows %d", n, limit)
		return contract.Errorf(contract.CodeInvalidField, "%s %s", field, reason).WithField(field, reason)
	}
	return nil
}
