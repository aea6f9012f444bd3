package main

import (
	"github.com/ghgate/ghgate/internal/contract"
)

// renderTroubleshooting is docs/troubleshooting.md: every error code of
// the contract's catalog ([contract.Catalog], the same text an agent reads
// at ghgate://errors) with what it means and what to do, so a code added
// to the catalog is documented here by the next `make docs`.
func renderTroubleshooting() ([]byte, error) {
	var w mdWriter
	w.p("# Troubleshooting: error codes\n\n")
	w.p(generatedNote)
	w.p("Every failed tool call answers `isError: true` with the error envelope in\n" +
		"`structuredContent`: `{code, message, details, temporary, retry_after_ms,\n" +
		"repair, settlement (writes), request_id, fingerprint}`. `code` names what\n" +
		"failed and never changes meaning; `repair`, when present, is a literal call\n" +
		"that fixes or works around the failure; `settlement` says whether a write\n" +
		"reached GitHub. An agent reads the same table at `ghgate://errors`.\n" +
		"A log line of a failed call carries the `request_id` its envelope gave the\n" +
		"agent, so an operator can find it (`--log-json` for JSON lines).\n\n")
	w.p("A resource read (`resources/read`) that fails is a JSON-RPC error with the\n"+
		"envelope in `error.data`: `-32002` when the issue or repository is not\n"+
		"there, `%d` when the rate budget is spent and `%d` when GitHub is\n"+
		"unavailable (both with `retry_after_ms`), so a client tells them from a\n"+
		"server bug (`-32603`). The broker's `[limits]` and the task limits\n"+
		"(`max_tasks`, `max_tasks_per_client`) refuse with `-32000` and the envelope\n"+
		"(`rate_limited` with `retry_after_ms` where waiting helps).\n\n", contract.RPCRateLimited, contract.RPCUpstreamUnavailable)
	w.p("A temporary code may succeed when called again after `retry_after_ms`;\n" +
		"the others fail the same way until something changes.\n\n")
	w.p("| code | what it means | temporary | what to do |\n|---|---|---|---|\n")
	for _, c := range contract.Catalog() {
		temp := "no"
		if c.Temporary {
			temp = "yes"
		}
		w.p("| `%s` | %s | %s | %s |\n", c.Code, cell(c.Meaning), temp, cell(c.WhatToDo))
	}
	w.p("\nThe settings that lead to some of these (`read_only`, `allowed_issue_creator`,\n" +
		"`sync_root`, the write policy, lockdown) are in [configuration.md](configuration.md);\n" +
		"credentials and the permissions each tool needs are in [tools.md](tools.md).\n")
	return w.Bytes(), nil
}
