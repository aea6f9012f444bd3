# ghgate's build and test entry points. `make test` is the test command: it
# installs what the tests read (pinned npm packages, Go modules) and runs the
# whole suite with the race detector.

GO      ?= go
NPM     ?= npm
PKGS    ?= ./...
# How many inputs each fuzz target runs in `make fuzz` (and in CI), sized
# to about ten seconds of each on an idle two-core machine. A count, not a
# duration: go1.26's fuzz coordinator can report a duration's end as a
# failure, "context deadline exceeded", when a loaded machine leaves a
# worker mid-input (go.dev/issue/75804, fixed in go1.27). FUZZTIME, when
# set (e.g. 30s), replaces all three.
FUZZ_FAST ?= 100000x
FUZZ_MID  ?= 40000x
FUZZ_SLOW ?= 8000x

.PHONY: all build test deps npm-deps go-deps sys-deps vet fuzz bench bench-replicas prune clean docs

all: build

build:
	$(GO) build -o bin/ghgate ./cmd/ghgate

deps: npm-deps go-deps sys-deps

# Debian packages the tests run, never as services: systemd-analyze checks
# the unit files; redis-server and haproxy are started by the shared-state
# and scale-out tests on loopback ports of their own and stopped by them.
# dbus-run-session and gnome-keyring-daemon give secret-service-test a
# Secret Service of its own.
# Installed with apt-get when missing and make runs as root; otherwise the
# tests that need them say what is missing (and fail under CI).
# jq and openssl run the release verification steps docs/install.md gives
# users, which `make release-snapshot` checks. cmark-gfm, GitHub's markdown
# renderer, judges the outbound mention policy (internal/policy/outbound).
SYS_TOOLS = systemd-analyze:systemd redis-server:redis-server haproxy:haproxy dbus-run-session:dbus-bin dbus-daemon:dbus-daemon gnome-keyring-daemon:gnome-keyring jq:jq openssl:openssl cmark-gfm:cmark-gfm
sys-deps:
	@missing=""; for t in $(SYS_TOOLS); do command -v $${t%%:*} >/dev/null || missing="$$missing $${t#*:}"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing:$$missing"; apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; \
		else \
			echo "not installed:$$missing (install them, or the tests that need them skip; under CI they fail)"; \
		fi; \
	fi

# npm ci installs exactly what package-lock.json pins; it is re-run only
# when the lockfile changes.
npm-deps: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

go-deps:
	$(GO) mod download

vet:
	$(GO) vet $(PKGS)
	@unformatted=$$(gofmt -l cmd internal scripts); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi

# -timeout: a package's whole run under -race on a loaded two-core machine
# can pass go test's default ten minutes; no test waits on a clock.
# GORACE: the race runtime sleeps a second as each test binary exits, for
# reports from goroutines still running; 100 ms keeps that window without
# a second per package. The emulator's suites leave their fidelity tallies
# in $(TALLY) (emulatortest.Tally), printed after the run.
TALLY = $(CURDIR)/.fidelity-tally

test: deps vet
	@rm -f $(TALLY)
	GORACE=atexit_sleep_ms=100 GHGATE_FIDELITY_TALLY=$(TALLY) $(GO) test -race -count=1 -timeout 30m $(PKGS)
	@echo "== fidelity tallies (what was validated against GitHub's published descriptions)"
	@grep -E '^(openapi fidelity|graphql fidelity|fixture replay):' $(TALLY) && rm -f $(TALLY)
	$(MAKE) secret-service-test
	$(MAKE) e2e conformance
	$(MAKE) fuzz
	$(MAKE) peers-test

# ghgate's credential store against a real Secret Service: gnome-keyring
# on a D-Bus session bus of its own (dbus-run-session, gone with the
# test), its login keyring created and unlocked with a throwaway password
# in a throwaway HOME. GHGATE_REQUIRE_SECRET_SERVICE makes the test fail,
# not skip, when that Secret Service is not reached.
.PHONY: secret-service-test
secret-service-test:
	@if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then \
		echo "secret-service-test: dbus-run-session or gnome-keyring-daemon missing (make sys-deps as root installs them)"; \
		if [ -n "$$CI" ]; then exit 1; fi; exit 0; \
	fi; \
	home=$$(mktemp -d) && mkdir -m 700 $$home/run && \
	GOPATH=$$($(GO) env GOPATH) GOCACHE=$$($(GO) env GOCACHE) HOME=$$home XDG_DATA_HOME=$$home/data XDG_RUNTIME_DIR=$$home/run \
	dbus-run-session -- sh -c 'echo ghgate-test | gnome-keyring-daemon --unlock >/dev/null && \
		GHGATE_REQUIRE_SECRET_SERVICE=1 $(GO) test -count=1 -v ./internal/credentials/secretservice'; \
	rc=$$?; rm -rf $$home; exit $$rc

# Each fuzz target runs briefly; a finding fails the run and leaves the
# input under testdata/fuzz for the regular tests to replay.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzSanitize$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/contract
	$(GO) test -run '^$$' -fuzz '^FuzzCursorOpen$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_MID)) ./internal/contract
	$(GO) test -run '^$$' -fuzz '^FuzzArguments$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_MID)) ./internal/tooldef
	$(GO) test -run '^$$' -fuzz '^FuzzCompact$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/tooldef
	$(GO) test -run '^$$' -fuzz '^FuzzToolArguments$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_MID)) ./internal/tools
	$(GO) test -run '^$$' -fuzz '^FuzzBrokerRouting$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_SLOW)) ./internal/broker
	$(GO) test -run '^$$' -fuzz '^FuzzUpstreamRouting$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_SLOW)) ./internal/broker
	$(GO) test -run '^$$' -fuzz '^FuzzCommandWords$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/broker/callargs
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/github
	$(GO) test -run '^$$' -fuzz '^FuzzMessageCheck$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/server
	$(GO) test -run '^$$' -fuzz '^FuzzClean$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/redact
	$(GO) test -run '^$$' -fuzz '^FuzzApply$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/policy/outbound
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_FAST)) ./internal/prompts

# End to end through independent clients, against the built binary: the
# TypeScript MCP SDK over stdio and HTTP, then the official MCP conformance
# suite (0.1.16 for 2025-11-25, the 0.2.0 prerelease for 2026-07-28) over
# HTTP, compared with e2e/conformance-expected-failures.txt. Both run under
# Node 22 from the npm package node (the conformance suite needs it), each
# with a HOME of its own so the servers they start never share the user's
# state file.
.PHONY: e2e conformance
NODE22  ?= node_modules/.bin/node

e2e: npm-deps build
	HOME=$$(mktemp -d) GHGATE_BIN=$(CURDIR)/bin/ghgate GHGATE_CHECK_OUTPUTS=1 $(NODE22) --test 'e2e/*.test.mjs'

# Both suites against ghgate and against the test-only fixture server (the
# same stack built with -tags conformance; see internal/conformance).
conformance: npm-deps build
	$(GO) build -tags conformance -o bin/ghgate-conformance ./cmd/ghgate
	HOME=$$(mktemp -d) GHGATE_BIN=$(CURDIR)/bin/ghgate GHGATE_FIXTURES_BIN=$(CURDIR)/bin/ghgate-conformance $(NODE22) e2e/conformance.mjs

bench: build
	./bin/ghgate bench

# Replicas behind HAProxy, SQLite vs Redis state (needs redis-server, haproxy).
bench-replicas: build
	./bin/ghgate bench --replicas 1,3

# Regenerate the pruned copies of GitHub's OpenAPI description and GraphQL
# schema from the pinned npm packages.
prune: npm-deps
	$(GO) run ./scripts/pruneopenapi
	$(GO) run ./scripts/prunegraphql

clean:
	rm -rf bin dist build

# The documentation pages generated from the code: docs/configuration.md
# (every setting), docs/tools.md (every tool, with the hand-written
# docs/tools/*.md), docs/troubleshooting.md (every error code), and the
# emulator's coverage. TestDocPagesFresh and TestCoverageDocIsCurrent fail
# when one is stale.
docs:
	$(GO) run ./cmd/ghgate gen-docs --pages docs
	$(GO) run ./cmd/ghgate emulator --coverage > docs/emulator-coverage.md

# Peer tools: GitHub's CLI and GitHub's MCP server, pinned in their own Go
# module (e2e/peers/go.mod, never imported by ghgate) and built from the Go
# module proxy into e2e/peers/bin. The first build downloads and compiles
# both (minutes); later ones are cached.
.PHONY: peers peers-test bench-peer
PEERS_DIR = e2e/peers

peers:
	cd $(PEERS_DIR) && $(GO) build -o bin/gh github.com/cli/cli/v2/cmd/gh
	cd $(PEERS_DIR) && $(GO) build -o bin/github-mcp-server github.com/github/github-mcp-server/cmd/github-mcp-server

# Scripted sessions of gh and of GitHub's MCP server against a fresh
# emulator, in private network and mount namespaces (needs root; skipped
# otherwise), compared with e2e/peers/gh-expected-failures.txt and
# e2e/peers/mcp-expected-failures.txt (the projects toolset's session with
# e2e/peers/mcp-projects-expected-failures.txt); each prints a tally line.
peers-test: peers build
	cd $(PEERS_DIR) && GHGATE_BIN=$(CURDIR)/bin/ghgate $(GO) test -count=1 -v -timeout 20m ./...

# The same scripted tasks through ghgate and through GitHub's MCP server,
# side by side on one emulator behind one counting proxy (no namespace
# needed: GitHub's server reaches the emulator through HTTP_PROXY).
bench-peer: peers build
	./bin/ghgate bench --peer $(PEERS_DIR)/bin/github-mcp-server

# Releases: GoReleaser and the small programs around it (the SBOM writer,
# the OCI image writer and the offline checks) are pinned in their own Go
# module, tools/release, and built into tools/release/bin. GoReleaser's
# first build downloads and compiles it (many minutes); later ones are
# rebuilt only when that module's go.mod or go.sum changes.
.PHONY: release-tools release-snapshot windows-check
RELEASE_DIR = tools/release

$(RELEASE_DIR)/bin/goreleaser: $(RELEASE_DIR)/go.mod $(RELEASE_DIR)/go.sum
	cd $(RELEASE_DIR) && $(GO) build -o bin/goreleaser github.com/goreleaser/goreleaser/v2

release-tools: $(RELEASE_DIR)/bin/goreleaser
	cd $(RELEASE_DIR) && $(GO) vet ./... && $(GO) test -count=1 ./...
	@unformatted=$$(gofmt -l $(RELEASE_DIR)); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	cd $(RELEASE_DIR) && $(GO) build -o bin/ ./cmd/...

# A whole release, built locally and published nowhere, then checked: two
# builds byte-identical, checksums and their signature, `ghgate version`,
# archives, SBOMs, signed provenance, server.json, the container image and
# the user's verification steps (tools/release/snapshot.sh says what each
# check is).
release-snapshot: release-tools windows-check sys-deps
	$(RELEASE_DIR)/snapshot.sh

# Windows: every package builds for it (the broker's audit file and peer
# checks need a Unix system and say so there at run time); the packages
# that handle file paths are also vetted, and their tests compiled, for it.
WINDOWS_PKGS ?= ./internal/clientsetup ./internal/credentials ./internal/privdir ./internal/store ./internal/tools/issuesync ./internal/tools/toolkit
windows-check:
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) vet $(WINDOWS_PKGS)
	rm -rf build/windows-tests
	GOOS=windows GOARCH=amd64 $(GO) test -c -o build/windows-tests/ $(WINDOWS_PKGS)
	@ls build/windows-tests
