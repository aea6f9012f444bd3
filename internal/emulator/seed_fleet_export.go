package emulator

import "github.com/ghgate/ghgate/internal/emulator/seed"

// The fleet organization (Options.FleetRepos) through package emulator.
const (
	FleetOrg          = seed.FleetOrg
	DemoFleetRepos    = seed.DemoFleetRepos
	SecretCanary      = seed.SecretCanary
	FleetCanarySecret = seed.FleetCanarySecret
	FleetReleaseLabel = seed.FleetReleaseLabel
	// FleetTokenPublicOnly is alice with the public_repo and read:org
	// scopes only ([seed.FleetTokenPublicOnly]).
	FleetTokenPublicOnly = seed.FleetTokenPublicOnly
)

// FleetRepo is one fleet repository's settings.
type FleetRepo = seed.FleetRepo

// Fleet describes the i-th fleet repository (from 0).
func Fleet(i int) FleetRepo { return seed.Fleet(i) }
