package policy

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// Rules are the operator's bounds on what an agent may write: `[policy]`
// in the serve and broker configurations, `[client.policy]` per HTTP
// client. The zero value bounds nothing but the defaults the deployment
// adds (see Defaults).
type Rules struct {
	// Quotas maps a kind to its limits: "20/h" (twenty per hour), or
	// "1/issue/h" (one per issue per hour). A write over any limit is
	// refused with quota_exceeded and nothing is written.
	Quotas map[Kind][]string `toml:"quotas"`
	// AllowedLabels, when set, are the labels (path.Match patterns,
	// ignoring case: "area: *") an agent may add to or remove from an
	// issue, or create.
	AllowedLabels []string `toml:"allowed_labels"`
	// CreateIn, when set, are the repositories ("owner/repo", patterns)
	// an agent may open issues in.
	CreateIn []string `toml:"create_in"`
	// TitlePrefix, when set, must begin every issue title written.
	TitlePrefix string `toml:"title_prefix"`
	// MaxBody, when above zero, bounds each body and comment in bytes.
	MaxBody int `toml:"max_body"`
	// Deny lists kinds refused outright ("delete", "close").
	Deny []Kind `toml:"deny"`
	// Outbound is the policy on text ghgate writes to GitHub.
	Outbound Outbound `toml:"outbound"`
	// Confirm names the writes a person must confirm.
	Confirm Confirm `toml:"confirm"`
	// Flow is the guard on private content reaching public repositories.
	Flow Flow `toml:"flow"`
}

// Confirm names the writes a person must confirm through the client
// (MCP elicitation) before they run.
type Confirm struct {
	// Tools and Kinds name the calls and writes that need a yes.
	Tools []string `toml:"tools"`
	Kinds []Kind   `toml:"kinds"`
	// BulkOver, when above zero, asks for any call that makes more
	// writes than it (a bulk edit of 30 issues when it is 10).
	BulkOver int `toml:"bulk_over"`
	// Unavailable says what happens when the client cannot ask its user:
	// "refuse" (the default) answers confirmation_unavailable; "hide" also
	// leaves the tools named in Tools out of that client's tools/list, as
	// GitHub's MCP server hides tools a client cannot confirm.
	Unavailable string `toml:"unavailable"`
}

// Flow is the data-flow guard: once a session has read a private
// repository, a write that puts text in a public repository is refused
// unless the pair is allowed or a person confirms it.
type Flow struct {
	// Guard turns the guard off when false; on by default.
	Guard *bool `toml:"guard"`
	// Allow lists pairs "private/repo -> public/repo" (patterns) whose
	// flow the operator accepts.
	Allow []string `toml:"allow"`
}

// On reports whether the guard is in force.
func (f Flow) On() bool { return f.Guard == nil || *f.Guard }

// Validate checks the rules when the configuration is loaded, so a
// mistake stops the server rather than a write.
func (r Rules) Validate() error {
	var errs []error
	for kind, specs := range r.Quotas {
		if !knownKind(kind) {
			errs = append(errs, fmt.Errorf("policy.quotas: %q is not a kind of write (kinds: %s)", kind, kindList()))
		}
		for _, s := range specs {
			if _, err := parseQuota(s); err != nil {
				errs = append(errs, fmt.Errorf("policy.quotas.%s: %w", kind, err))
			}
		}
	}
	for _, k := range append(append([]Kind(nil), r.Deny...), r.Confirm.Kinds...) {
		if !knownKind(k) {
			errs = append(errs, fmt.Errorf("policy: %q is not a kind of write (kinds: %s)", k, kindList()))
		}
	}
	for _, pats := range [][]string{r.AllowedLabels, r.CreateIn} {
		for _, p := range pats {
			if _, err := path.Match(lower(p), ""); err != nil {
				errs = append(errs, fmt.Errorf("policy: bad pattern %q: %w", p, err))
			}
		}
	}
	if r.MaxBody < 0 {
		errs = append(errs, errors.New("policy.max_body must not be negative"))
	}
	switch r.Confirm.Unavailable {
	case "", "refuse", "hide":
	default:
		errs = append(errs, fmt.Errorf("policy.confirm.unavailable is %q; want refuse or hide", r.Confirm.Unavailable))
	}
	if r.Confirm.BulkOver < 0 {
		errs = append(errs, errors.New("policy.confirm.bulk_over must not be negative"))
	}
	for _, pair := range r.Flow.Allow {
		if _, _, err := parseFlowPair(pair); err != nil {
			errs = append(errs, fmt.Errorf("policy.flow.allow: %w", err))
		}
	}
	if err := r.Outbound.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("policy.outbound: %w", err))
	}
	return errors.Join(errs...)
}

func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// quota is one parsed limit: Limit writes per Window, per issue when
// PerIssue.
type quota struct {
	Spec     string
	Limit    int
	PerIssue bool
	Window   time.Duration
}

// maxQuota is the largest count a store keeps (store.MaxQuotaLimit).
const maxQuota = 1 << 50

// parseQuota reads "20/h", "1/issue/h", "100/d", "5/30m".
func parseQuota(s string) (quota, error) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	q := quota{Spec: s}
	if len(parts) == 3 {
		if parts[1] != "issue" {
			return q, fmt.Errorf("%q: the middle part may only be \"issue\"", s)
		}
		q.PerIssue = true
		parts = []string{parts[0], parts[2]}
	}
	if len(parts) != 2 {
		return q, fmt.Errorf("%q: want COUNT/WINDOW or COUNT/issue/WINDOW, as 20/h or 1/issue/h", s)
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n < 0 {
		return q, fmt.Errorf("%q: the count must be a whole number, zero or more", s)
	}
	if n > maxQuota {
		return q, fmt.Errorf("%q: the count is above %d", s, maxQuota)
	}
	q.Limit = n
	switch w := parts[1]; w {
	case "s":
		q.Window = time.Second
	case "m":
		q.Window = time.Minute
	case "h":
		q.Window = time.Hour
	case "d":
		q.Window = 24 * time.Hour
	default:
		d, err := time.ParseDuration(w)
		if err != nil || d < time.Second || d%time.Millisecond != 0 {
			return q, fmt.Errorf("%q: the window is s, m, h, d or a duration of a second or more (30m)", s)
		}
		q.Window = d
	}
	return q, nil
}

func parseFlowPair(s string) (from, to string, err error) {
	a, b, ok := strings.Cut(s, "->")
	from, to = strings.TrimSpace(a), strings.TrimSpace(b)
	if !ok || from == "" || to == "" {
		return "", "", fmt.Errorf("%q: want \"private/repo -> public/repo\" (patterns allowed)", s)
	}
	for _, p := range []string{from, to} {
		if _, err := path.Match(lower(p), ""); err != nil {
			return "", "", fmt.Errorf("%q: bad pattern: %w", s, err)
		}
	}
	return from, to, nil
}

// matchAny reports whether name matches one of the patterns, ignoring case.
func matchAny(patterns []string, name string) bool {
	name = lower(name)
	for _, p := range patterns {
		if ok, _ := path.Match(lower(p), name); ok {
			return true
		}
	}
	return false
}

// HiddenFrom lists the tools a client that cannot ask its user is not
// shown: Confirm.Tools where Unavailable is "hide".
func (r Rules) HiddenFrom() []string {
	if r.Confirm.Unavailable != "hide" {
		return nil
	}
	return r.Confirm.Tools
}
