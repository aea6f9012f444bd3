package emulator_test

import (
	"fmt"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// BenchmarkNewDemo is what every test that starts a demo emulator pays.
func BenchmarkNewDemo(b *testing.B) {
	for b.Loop() {
		if _, err := emulator.New(emulator.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSeedFleet is the demo seed with fleets of several sizes: the
// fleet's share of the startup cost.
func BenchmarkSeedFleet(b *testing.B) {
	for _, n := range []int{0, seed.DemoFleetRepos, 200} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if err := seed.SeedDemoWith(state.NewState(emulator.DemoNow), seed.DemoOptions{FleetRepos: n}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
