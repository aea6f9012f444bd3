// Package seed builds the emulator's demo world in a state.State: the acme
// organization and its widgets and gadgets repositories, alice's notes,
// their users and tokens, and a history of issues, comments, pull requests,
// reviews, checks, releases, teams and issue fields, generated from a fixed
// random seed so every run sees the same world. The Demo* names are its
// landmarks for tests and the demo.
package seed
