package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// FaultKind names what an injected fault does to a matching request.
type FaultKind string

const (
	// FaultLatency only delays the request.
	FaultLatency FaultKind = "latency"
	// FaultStatus answers Status without handling the request.
	FaultStatus FaultKind = "status"
	// FaultSecondary answers a secondary rate limit (403 by default, or
	// Status) with a retry-after header, without handling the request.
	FaultSecondary FaultKind = "secondary_rate_limit"
	// FaultDropBefore closes the connection before the request is handled.
	FaultDropBefore FaultKind = "drop_before"
	// FaultDropAfter handles the request (a write is applied) and then closes
	// the connection without answering.
	FaultDropAfter FaultKind = "drop_after"
	// FaultMalformedAfter handles the request and answers its status with a
	// truncated body.
	FaultMalformedAfter FaultKind = "malformed_after"
	// FaultRateLimit spends the token's whole budget before the request, so it
	// is refused as rate limited.
	FaultRateLimit FaultKind = "rate_limit"
)

var faultKinds = []FaultKind{FaultLatency, FaultStatus, FaultSecondary, FaultDropBefore, FaultDropAfter, FaultMalformedAfter, FaultRateLimit}

// Fault is one injected misbehaviour.
type Fault struct {
	// Method matches the HTTP method; empty matches any.
	Method string `json:"method,omitempty"`
	// Path matches the request path (after any /api/v3 prefix is removed):
	// exactly, or as a prefix when it ends in "*". Empty matches any.
	Path string    `json:"path,omitempty"`
	Kind FaultKind `json:"kind"`
	// Status is the code for FaultStatus and FaultSecondary.
	Status int `json:"status,omitempty"`
	// Latency is added before the request is handled, for any kind.
	Latency   time.Duration `json:"-"`
	LatencyMS int           `json:"latency_ms,omitempty"`
	// RetryAfter is the secondary limit's retry-after, in seconds (default 60).
	RetryAfter int `json:"retry_after,omitempty"`
	// Times is how many matching requests the fault hits; 0 means every one.
	Times int `json:"times,omitempty"`
}

func (f *Fault) retryAfterSeconds() int {
	if f.RetryAfter > 0 {
		return f.RetryAfter
	}
	return 60
}

// Validate reports what is wrong with a fault, if anything.
func (f *Fault) Validate() error {
	known := false
	for _, k := range faultKinds {
		known = known || k == f.Kind
	}
	if !known {
		return fmt.Errorf("unknown fault kind %q", f.Kind)
	}
	if f.Kind == FaultStatus && (f.Status < 400 || f.Status > 599) {
		return fmt.Errorf("a status fault needs a status from 400 to 599, got %d", f.Status)
	}
	if f.LatencyMS < 0 || f.Times < 0 {
		return fmt.Errorf("latency_ms and times cannot be negative")
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

// Faults is the table of active faults; the first match wins.
type Faults struct {
	mu   sync.Mutex
	list []*entry
}

type entry struct {
	f    Fault
	left int
}

// Add installs a fault.
func (fs *Faults) Add(f Fault) error {
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
func (fs *Faults) Clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = nil
}

// take returns the first fault matching the request and counts it used.
func (fs *Faults) take(method, path string) *Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, e := range fs.list {
		if !e.f.matches(method, path) {
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

// ParseFault reads the CLI form "kind[:status]@METHOD /path[xN]", e.g.
// "status:502@POST /repos/acme/widgets/issues", "drop_after@POST /repos/*x1",
// "latency:200@*" (latency's number is milliseconds).
func ParseFault(s string) (Fault, error) {
	var f Fault
	spec, target, ok := strings.Cut(s, "@")
	if !ok {
		return f, fmt.Errorf("fault %q: want kind[:n]@[METHOD ]path[xN]", s)
	}
	kind, arg, _ := strings.Cut(spec, ":")
	f.Kind = FaultKind(kind)
	if arg != "" {
		var n int
		if _, err := fmt.Sscanf(arg, "%d", &n); err != nil {
			return f, fmt.Errorf("fault %q: %q is not a number", s, arg)
		}
		if f.Kind == FaultLatency {
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

// admin serves /_emulator/: faults and rate-limit exhaustion for tests and
// operators on the same loopback port. It needs no token: the emulator only
// ever listens where its user can reach it.
func (e *Emulator) admin(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_emulator/faults" && r.Method == http.MethodPost:
		var f Fault
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody{Message: "Problems parsing JSON: " + err.Error()})
			return
		}
		if err := e.faults.Add(f); err != nil {
			writeJSON(w, http.StatusUnprocessableEntity, errorBody{Message: err.Error()})
			return
		}
		writeJSON(w, http.StatusCreated, f)
	case r.URL.Path == "/_emulator/faults" && r.Method == http.MethodDelete:
		e.faults.Clear()
		w.WriteHeader(http.StatusNoContent)
	case r.URL.Path == "/_emulator/rate_limit/exhaust" && r.Method == http.MethodPost:
		var body struct {
			Token    string `json:"token"`
			Resource string `json:"resource"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Token == "" {
			writeJSON(w, http.StatusBadRequest, errorBody{Message: `want {"token": "...", "resource": "core|search|graphql"}`})
			return
		}
		if body.Resource == "" {
			body.Resource = "core"
		}
		e.limits.exhaust(body.Token, body.Resource)
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, http.StatusNotFound, errorBody{Message: "Not Found"})
	}
}
