package seed

// README "What's new" blocks on maintenance release heads: the release
// report reads the README at each release pull request's head and says
// whether its "What's new" block names the release's version. Most heads
// keep the fleet's README, which has no such block; these cases give one
// head a block naming its version, one head no README at all, and one
// more release (its own case, so the cases before keep their verdicts)
// a block still announcing the previous release.

// fleetReadmeReleaseCases are release cases added for the README check,
// after fleetReleaseCases' of the same repository.
func fleetReadmeReleaseCases(i int) []releaseCase {
	if i == 45 {
		// doc_version_mismatch: ready and current, nothing open, but the
		// README's block still names v7.4.0.
		return []releaseCase{{version: "7.4.1", changelog: "docs", shipped: []caseChange{caseProbe}}}
	}
	return nil
}

// releaseReadme sets, in writes (the release head's commit), the README
// the case's head has when it differs from the repository's.
func (fs *fleetSeeder) releaseReadme(version string, writes map[string]*string) {
	name := fs.r.Name
	switch {
	case fs.i == 31 && version == "5.1.1":
		// Names its version: readme_mentions_version true.
		writes["README.md"] = ptr("# " + name + "\n\nPart of the fleet.\n\n## What's new in v5.1.1\n\n- A readiness probe.\n\n## Install\n\nSee the v5.1.0 notes for upgrades.\n")
	case fs.i == 38 && version == "6.2.1":
		// No README at the head: readme_mentions_version unknown.
		writes["README.md"] = nil
	case fs.i == 45 && version == "7.4.1":
		// Names the previous release only: readme_mentions_version false.
		writes["README.md"] = ptr("# " + name + "\n\nPart of the fleet.\n\n## What's New\n\n### v7.4.0\n\n- Faster start-up.\n\n## Install\n\nv7.4.1 and later need Go 1.24.\n")
	}
}
