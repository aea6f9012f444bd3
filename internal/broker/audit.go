package broker

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/caller"
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
	// Owners and Repos are every owner and repository the arguments name
	// (Repos as OWNER/REPO, or a name alone where no owner is named), each
	// once, in the order named; Owner above is the owner the call was
	// routed by (or, refused, the one it named) and Repo its repo
	// argument. NamesOmitted counts the names left out to keep the line
	// within its cap.
	Owners       []string `json:"owners,omitempty"`
	Repos        []string `json:"repos,omitempty"`
	NamesOmitted int      `json:"names_omitted,omitempty"`
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
	// ReposRead counts the repositories the tool told it read (a report's:
	// those an owner-wide scan went over); the ones it named join Repos.
	// Absent when the tool told of none.
	ReposRead *int `json:"repos_read,omitempty"`
	// IncludeUntrusted names the repositories whose text lockdown
	// withholds and the call was shown, because it asked
	// (include_untrusted); absent when none.
	IncludeUntrusted []string `json:"include_untrusted,omitempty"`
	// TruncatedBytes counts the bytes cut from the string fields to keep
	// the line within its cap (they come from the caller's arguments, of
	// any length); absent when nothing was cut.
	TruncatedBytes int64 `json:"truncated_bytes,omitempty"`
}

// maxAuditField is the most bytes one string field takes in an encoded
// line, escapes included. Owners, repos and tool names are far shorter;
// anything longer is an agent filling the log.
const maxAuditField = 256

// maxAuditLine is the cap on one encoded line. Ten capped fields, the
// capped lists of names, their keys and the numbers stay within it; a
// test holds the worst case to it. Within 4096 bytes (PIPE_BUF), a line
// written to a pipe (stderr under journald) is never interleaved.
const maxAuditLine = 4096

// maxAuditNames is the most bytes the owners, include_untrusted and
// repos lists take together in an encoded line. GitHub names are short (an owner at most
// 39 bytes, OWNER/REPO 140), so this holds several of each.
const maxAuditNames = 1024

// AuditLog writes audit lines, one JSON object per line, each with a single
// write so concurrent calls never interleave. A file is opened for append
// and can be reopened after a log rotation moved it away (SIGHUP).
type AuditLog struct {
	mu   sync.Mutex
	path string
	w    io.Writer
	f    *os.File
	// truncated counts the lines written with a field cut.
	truncated int64
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

func auditSymlinkError(path string) error {
	return fmt.Errorf("audit log %s is a symbolic link: not following it, as it could point at any file the broker can write; remove it or configure the real path", path)
}

// capAuditField keeps the longest prefix of s, whole runes only, whose
// JSON encoding takes at most maxAuditField bytes, and returns it with the
// number of bytes cut.
func capAuditField(s string) (string, int64) {
	if len(s) <= maxAuditField/6 {
		return s, 0 // even escaped six-fold it fits
	}
	cost := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		c := jsonCost(r, size)
		if cost+c > maxAuditField {
			return s[:i], int64(len(s) - i)
		}
		cost += c
		i += size
	}
	return s, 0
}

// jsonCost is how many bytes encoding/json writes for one rune of a
// string (size bytes of it in the input), rounded up where it has a
// shorter form.
func jsonCost(r rune, size int) int {
	switch {
	case r == utf8.RuneError && size == 1: // invalid byte: \ufffd
		return 6
	case r < 0x20, r == '<', r == '>', r == '&', r == '\u2028', r == '\u2029':
		return 6 // \u00XX
	case r == '"', r == '\\':
		return 2
	}
	return size
}

// capAuditLine caps each string field of line in place and records the
// bytes cut; it reports whether anything was.
func capAuditLine(line *AuditLine) bool {
	var cut int64
	for _, f := range []*string{&line.Tool, &line.Owner, &line.Repo, &line.Mode, &line.Credential,
		&line.Route, &line.Outcome, &line.Code, &line.Settlement, &line.Time} {
		var n int64
		*f, n = capAuditField(*f)
		cut += n
	}
	cut += capAuditNames(line)
	line.TruncatedBytes = cut
	return cut > 0 || line.NamesOmitted > 0
}

// capAuditNames keeps the longest prefix of the owners, then the repos,
// that fits maxAuditNames bytes, each name capped as a field is, and
// counts the names left out in NamesOmitted. It returns the bytes cut
// from the names kept. The lists are replaced, not changed in place:
// they belong to the caller.
func capAuditNames(line *AuditLine) int64 {
	budget, full := maxAuditNames, false
	var cut int64
	keep := func(names []string) []string {
		var out []string
		for _, name := range names {
			name, n := capAuditField(name)
			cost := jsonLen(name) + 1 // and a comma
			if full || cost > budget {
				full = true
				line.NamesOmitted++
				continue
			}
			budget -= cost
			cut += n
			out = append(out, name)
		}
		return out
	}
	// The repositories whose withheld text was shown come before the
	// rest: they are what an operator audits include_untrusted by.
	line.Owners, line.IncludeUntrusted = keep(line.Owners), keep(line.IncludeUntrusted)
	line.Repos = keep(line.Repos)
	return cut
}

// jsonLen is how many bytes encoding/json writes for s, quotes included
// (at most: see jsonCost).
func jsonLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += jsonCost(r, size)
		i += size
	}
	return n
}

// Write appends one line, its string fields capped so that one call
// cannot make a line of any size (the cut is counted in the line).
func (a *AuditLog) Write(line AuditLine) error {
	cut := capAuditLine(&line)
	b, err := encodeAuditLine(&line)
	if err != nil {
		return fmt.Errorf("audit line: %w", err)
	}
	b = append(b, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return fmt.Errorf("audit log is closed")
	}
	if cut {
		a.truncated++
	}
	_, err = a.w.Write(b)
	return err
}

// addReach adds to the line the repositories the tool told r it named
// (after those its arguments named, each once) and how many it read;
// nothing when it told of none. Names past [caller.AuditRepos] are counted
// in NamesOmitted, as those past the line's cap are.
func (line *AuditLine) addReach(r *caller.Reach) {
	s, ok := r.Summary(caller.AuditRepos)
	if !ok {
		return
	}
	repos := slices.Clone(line.Repos)
	for _, name := range s.Repos {
		if !slices.ContainsFunc(repos, func(x string) bool { return strings.EqualFold(x, name) }) {
			repos = append(repos, name)
		}
	}
	line.Repos, line.ReposRead = repos, &s.Read
	line.NamesOmitted += s.More
	line.IncludeUntrusted = s.Untrusted
}

// encodeAuditLine encodes line within maxAuditLine (its newline
// included): the repositories named last give way, counted in
// names_omitted, until it fits. The other fields are capped already.
func encodeAuditLine(line *AuditLine) ([]byte, error) {
	for {
		b, err := json.Marshal(line)
		if err != nil || len(b) < maxAuditLine || len(line.Repos) == 0 {
			return b, err
		}
		line.Repos = line.Repos[:len(line.Repos)-1]
		line.NamesOmitted++
	}
}

// Truncated is how many lines were written with a field cut.
func (a *AuditLog) Truncated() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.truncated
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
