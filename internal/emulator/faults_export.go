package emulator

import "github.com/ghgate/ghgate/internal/emulator/faults"

// The fault and rate-limit types live in package faults; these names keep
// the emulator's outside users (tests that inject faults, cmd/ghgate's
// -fault flag) compiling against package emulator alone.
type (
	// Fault is one injected misbehaviour.
	Fault = faults.Fault
	// FaultKind names what an injected fault does to a matching request.
	FaultKind = faults.Kind
)

// The kinds of fault; see package faults.
const (
	FaultLatency        = faults.Latency
	FaultStatus         = faults.Status
	FaultSecondary      = faults.Secondary
	FaultDropBefore     = faults.DropBefore
	FaultDropAfter      = faults.DropAfter
	FaultMalformedAfter = faults.MalformedAfter
	FaultRateLimit      = faults.RateLimit
	FaultSearchTimeout  = faults.SearchTimeout
)

// FaultHeader marks a response whose body an injected fault cut short.
const FaultHeader = faults.Header

// ParseFault reads the CLI form of a fault; see [faults.Parse].
func ParseFault(s string) (faults.Fault, error) { return faults.Parse(s) }
