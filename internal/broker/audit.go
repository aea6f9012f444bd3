package broker

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

// AuditLine is one tool call as the audit log records it. It holds names
// and outcomes only: the credential is named, never included.
type AuditLine struct {
	// Time is when the call started, RFC 3339 with fractional seconds.
	Time string `json:"time"`
	// Client is the socket peer's uid; null when the call did not come
	// through the socket (an in-process session).
	Client    *uint32 `json:"client"`
	ClientPID int32   `json:"client_pid,omitempty"`
	Tool      string  `json:"tool"`
	Owner     string  `json:"owner,omitempty"`
	Repo      string  `json:"repo,omitempty"`
	Mode      string  `json:"mode"`
	// Credential is the secret's name (or "app:<id>"), Route the owner
	// pattern that chose it; both empty when the call failed before a
	// credential was chosen.
	Credential string `json:"credential,omitempty"`
	Route      string `json:"route,omitempty"`
	// Outcome is "ok" or "error"; Code and Settlement come from the error
	// envelope.
	Outcome    string `json:"outcome"`
	Code       string `json:"code,omitempty"`
	Settlement string `json:"settlement,omitempty"`
	// Upstream counts the requests the call sent to GitHub or to an
	// upstream MCP server.
	Upstream   int64 `json:"upstream"`
	DurationMS int64 `json:"duration_ms"`
}

// AuditLog writes audit lines, one JSON object per line, each with a single
// write so concurrent calls never interleave. A file is opened for append
// and can be reopened after a log rotation moved it away (SIGHUP).
type AuditLog struct {
	mu   sync.Mutex
	path string
	w    io.Writer
	f    *os.File
}

// auditFileMode keeps the audit log away from other users: it names the
// clients and what they did.
const auditFileMode = 0o640

// OpenAuditLog opens path for append, creating it; with an empty path the
// lines go to fallback (the broker's stderr, which journald keeps).
func OpenAuditLog(path string, fallback io.Writer) (*AuditLog, error) {
	a := &AuditLog{path: path, w: fallback}
	if path == "" {
		if fallback == nil {
			a.w = os.Stderr
		}
		return a, nil
	}
	f, err := openAuditFile(path)
	if err != nil {
		return nil, err
	}
	a.f, a.w = f, f
	return a, nil
}

func openAuditFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, auditFileMode)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	// A file that already existed keeps its mode on open; one wider than
	// the broker's is narrowed, so the log is never readable by others.
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&^auditFileMode != 0 {
		if err := f.Chmod(auditFileMode); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("audit log %s: narrowing its mode: %w", path, err)
		}
	}
	return f, nil
}

// Write appends one line.
func (a *AuditLog) Write(line AuditLine) error {
	b, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("audit line: %w", err)
	}
	b = append(b, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return fmt.Errorf("audit log is closed")
	}
	_, err = a.w.Write(b)
	return err
}

// Reopen opens the file again by its path, so lines go to a new file once
// the old one was renamed by a log rotation. On failure the old file stays
// in use, so no line is lost.
func (a *AuditLog) Reopen() error {
	if a.path == "" {
		return nil
	}
	f, err := openAuditFile(a.path)
	if err != nil {
		return err
	}
	a.mu.Lock()
	old := a.f
	a.f, a.w = f, f
	a.mu.Unlock()
	if old != nil {
		return old.Close()
	}
	return nil
}

// Path is the audit file ("" when lines go to the fallback writer).
func (a *AuditLog) Path() string { return a.path }

// Close closes the file; later writes fail.
func (a *AuditLog) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	f := a.f
	a.f, a.w = nil, nil
	if f != nil {
		return f.Close()
	}
	return nil
}
