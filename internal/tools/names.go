package tools

import (
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// checkNames refuses an owner or repository name GitHub would not accept,
// before it is put in a request path: "widgets/issues/2?" as a repo would
// otherwise reach another endpoint. repo may be empty where the tool
// allows it (a search across repositories); owner too, then.
func checkNames(owner, repo string) *contract.Error {
	if owner == "" && repo == "" {
		return nil
	}
	if err := github.CheckOwner(owner); err != nil {
		return contract.Errorf(contract.CodeInvalidField, "%s", err.Error()).
			WithField("owner", "must be a GitHub user or organization name (letters, digits, hyphens)")
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
