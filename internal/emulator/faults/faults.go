// Package faults holds the emulator's request-level misbehaviour: faults
// injected by tests and operators (a status, a dropped connection, a cut-short
// body, latency, a secondary rate limit) and the per-token rate-limit budgets
// GitHub keeps. It knows nothing of the API the requests carry.
package faults

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Kind names what an injected fault does to a matching request.
type Kind string

const (
	// Latency only delays the request.
	Latency Kind = "latency"
	// Status answers Status without handling the request.
	Status Kind = "status"
	// Secondary answers a secondary rate limit (403 by default, or
	// Status) with a retry-after header, without handling the request.
	Secondary Kind = "secondary_rate_limit"
	// DropBefore closes the connection before the request is handled.
	DropBefore Kind = "drop_before"
	// DropAfter handles the request (a write is applied) and then closes
	// the connection without answering.
	DropAfter Kind = "drop_after"
	// MalformedAfter handles the request and answers its status with a
	// truncated body.
	MalformedAfter Kind = "malformed_after"
	// RateLimit spends the token's whole budget before the request, so it
	// is refused as rate limited.
	RateLimit Kind = "rate_limit"
	// SearchTimeout makes a search run out of time, as GitHub's does on a
	// costly query: the answer holds the matches found so far (half of
	// them) and says incomplete_results. Other requests ignore it.
	SearchTimeout Kind = "search_timeout"
)

var kinds = []Kind{Latency, Status, Secondary, DropBefore, DropAfter, MalformedAfter, RateLimit, SearchTimeout}

// Fault is one injected misbehaviour.
type Fault struct {
	// Method matches the HTTP method; empty matches any.
	Method string `json:"method,omitempty"`
	// Path matches the request path (after any /api/v3 prefix is removed):
	// exactly, or as a prefix when it ends in "*". Empty matches any.
	Path string `json:"path,omitempty"`
	Kind Kind   `json:"kind"`
	// Status is the code for Status and Secondary.
	Status int `json:"status,omitempty"`
	// Latency is added before the request is handled, for any kind.
	Latency   time.Duration `json:"-"`
	LatencyMS int           `json:"latency_ms,omitempty"`
	// RetryAfter is the secondary limit's retry-after, in seconds (default 60).
	RetryAfter int `json:"retry_after,omitempty"`
	// Times is how many matching requests the fault hits; 0 means every one.
	Times int `json:"times,omitempty"`
	// After lets this many matching requests through untouched before the
	// fault hits: on /graphql, where a tool's read and its mutation share
	// one path, it lets a test fail the mutation alone.
	After int `json:"after,omitempty"`
}

// RetryAfterSeconds is the secondary limit's retry-after, 60 unless set.
func (f *Fault) RetryAfterSeconds() int {
	if f.RetryAfter > 0 {
		return f.RetryAfter
	}
	return 60
}

// Validate reports what is wrong with a fault, if anything.
func (f *Fault) Validate() error {
	known := false
	for _, k := range kinds {
		known = known || k == f.Kind
	}
	if !known {
		return fmt.Errorf("unknown fault kind %q", f.Kind)
	}
	if f.Kind == Status && (f.Status < 400 || f.Status > 599) {
		return fmt.Errorf("a status fault needs a status from 400 to 599, got %d", f.Status)
	}
	if f.LatencyMS < 0 || f.Times < 0 || f.After < 0 {
		return fmt.Errorf("latency_ms, times and after cannot be negative")
	}
	return nil
}

func (f *Fault) matches(method, path string) bool {
	if f.Method != "" && !strings.EqualFold(f.Method, method) {
		return false
	}
	if f.Path == "" {
		return true
	}
	if prefix, ok := strings.CutSuffix(f.Path, "*"); ok {
		return strings.HasPrefix(path, prefix)
	}
	return f.Path == path
}

// Table is the table of active faults; the first match wins.
type Table struct {
	mu   sync.Mutex
	list []*entry
}

type entry struct {
	f    Fault
	left int
	// passed counts the matching requests let through (Fault.After).
	passed int
}

// Add installs a fault.
func (fs *Table) Add(f Fault) error {
	if f.Latency == 0 && f.LatencyMS > 0 {
		f.Latency = time.Duration(f.LatencyMS) * time.Millisecond
	}
	if err := f.Validate(); err != nil {
		return err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = append(fs.list, &entry{f: f, left: f.Times})
	return nil
}

// Clear removes every fault.
func (fs *Table) Clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = nil
}

// Take returns the first fault matching the request and counts it used.
func (fs *Table) Take(method, path string) *Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, e := range fs.list {
		if !e.f.matches(method, path) {
			continue
		}
		if e.passed < e.f.After {
			e.passed++
			continue
		}
		f := e.f
		if e.f.Times > 0 {
			e.left--
			if e.left <= 0 {
				fs.list = append(fs.list[:i:i], fs.list[i+1:]...)
			}
		}
		return &f
	}
	return nil
}

// Parse reads the CLI form "kind[:status]@METHOD /path[xN]", e.g.
// "status:502@POST /repos/acme/widgets/issues", "drop_after@POST /repos/*x1",
// "latency:200@*" (latency's number is milliseconds).
func Parse(s string) (Fault, error) {
	var f Fault
	spec, target, ok := strings.Cut(s, "@")
	if !ok {
		return f, fmt.Errorf("fault %q: want kind[:n]@[METHOD ]path[xN]", s)
	}
	kind, arg, _ := strings.Cut(spec, ":")
	f.Kind = Kind(kind)
	if arg != "" {
		var n int
		if _, err := fmt.Sscanf(arg, "%d", &n); err != nil {
			return f, fmt.Errorf("fault %q: %q is not a number", s, arg)
		}
		if f.Kind == Latency {
			f.LatencyMS = n
		} else {
			f.Status = n
		}
	}
	if i := strings.LastIndex(target, "x"); i > 0 && i < len(target)-1 {
		var n int
		if _, err := fmt.Sscanf(target[i+1:], "%d", &n); err == nil {
			f.Times = n
			target = target[:i]
		}
	}
	if m, p, ok := strings.Cut(strings.TrimSpace(target), " "); ok {
		f.Method, f.Path = strings.ToUpper(m), strings.TrimSpace(p)
	} else {
		f.Path = strings.TrimSpace(target)
	}
	if f.Path == "*" {
		f.Path = ""
	}
	f.Latency = time.Duration(f.LatencyMS) * time.Millisecond
	return f, f.Validate()
}

// Header marks a response whose body an injected fault cut short, so
// test harnesses that check response shapes can tell it from a broken
// handler. GitHub never sends it.
const Header = "X-Emulator-Fault"
