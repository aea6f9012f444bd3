package github

import (
	"context"
	"net/url"
	"strconv"

	gh "github.com/google/go-github/v88/github"
)

// Security alert lists (Dependabot, code scanning, secret scanning), of an
// organization or of one repository. The answers are decoded into the
// types below rather than go-github's: they hold only what a report
// shows, and SecretAlert has no field for the leaked value, so a secret
// GitHub sends anyway (a server that ignores hide_secret) is dropped while
// decoding and can reach no output, log or audit line.

// AlertKind names one of the three alert lists.
type AlertKind string

// The alert kinds, as their REST paths spell them.
const (
	Dependabot     AlertKind = "dependabot"
	CodeScanning   AlertKind = "code-scanning"
	SecretScanning AlertKind = "secret-scanning"
)

// AlertListOptions select and page an alert list. A page is named by After
// (the cursor in the previous answer's Link header), or by Page where
// GitHub answered with page numbers; neither is the first page.
type AlertListOptions struct {
	// State is GitHub's state filter, comma-separated ("" for every state).
	State string
	// Severity is GitHub's severity filter (Dependabot and code scanning).
	Severity string
	After    string
	Page     int
	PerPage  int
}

// AlertPage is one page of alerts and where the next page is: After or
// Next (a page number); both empty on the last page.
type AlertPage[T any] struct {
	Alerts []T
	Meta   Meta
	After  string
	Next   int
}

// AlertRepo is the repository an organization list names for an alert.
type AlertRepo struct {
	Name string `json:"name"`
}

// DependabotAlert is a Dependabot alert as a report reads it.
type DependabotAlert struct {
	Number     int    `json:"number"`
	State      string `json:"state"`
	HTMLURL    string `json:"html_url"`
	CreatedAt  string `json:"created_at"`
	Dependency struct {
		Package struct {
			Ecosystem string `json:"ecosystem"`
			Name      string `json:"name"`
		} `json:"package"`
		ManifestPath string `json:"manifest_path"`
		// Scope is runtime or development (GitHub's dependency.scope);
		// "" where GitHub cannot tell.
		Scope string `json:"scope"`
	} `json:"dependency"`
	Advisory struct {
		GHSAID   string  `json:"ghsa_id"`
		CVEID    *string `json:"cve_id"`
		Summary  string  `json:"summary"`
		Severity string  `json:"severity"`
	} `json:"security_advisory"`
	Vulnerability struct {
		Severity            string `json:"severity"`
		VulnerableRange     string `json:"vulnerable_version_range"`
		FirstPatchedVersion *struct {
			Identifier string `json:"identifier"`
		} `json:"first_patched_version"`
	} `json:"security_vulnerability"`
	Repository *AlertRepo `json:"repository"`
}

// CodeScanningAlert is a code scanning alert as a report reads it.
type CodeScanningAlert struct {
	Number    int    `json:"number"`
	State     string `json:"state"`
	HTMLURL   string `json:"html_url"`
	CreatedAt string `json:"created_at"`
	Rule      struct {
		ID                    string  `json:"id"`
		Name                  string  `json:"name"`
		Description           string  `json:"description"`
		Severity              string  `json:"severity"`
		SecuritySeverityLevel *string `json:"security_severity_level"`
	} `json:"rule"`
	Tool struct {
		Name string `json:"name"`
	} `json:"tool"`
	MostRecentInstance struct {
		Location struct {
			Path      string `json:"path"`
			StartLine int    `json:"start_line"`
		} `json:"location"`
	} `json:"most_recent_instance"`
	Repository *AlertRepo `json:"repository"`
}

// SecretAlert is a secret scanning alert as a report reads it: never the
// secret itself (see above).
type SecretAlert struct {
	Number                int        `json:"number"`
	State                 string     `json:"state"`
	HTMLURL               string     `json:"html_url"`
	CreatedAt             string     `json:"created_at"`
	SecretType            string     `json:"secret_type"`
	SecretTypeDisplayName string     `json:"secret_type_display_name"`
	Validity              string     `json:"validity"`
	Repository            *AlertRepo `json:"repository"`
}

// ListDependabotAlerts lists one page of Dependabot alerts: of the
// organization owner when repo is "", else of owner/repo.
//
// GET /orgs/{org}/dependabot/alerts, GET /repos/{owner}/{repo}/dependabot/alerts
func (c *Client) ListDependabotAlerts(ctx context.Context, owner, repo string, o AlertListOptions) (AlertPage[DependabotAlert], error) {
	return listAlerts[DependabotAlert](ctx, c, Dependabot, owner, repo, o)
}

// ListCodeScanningAlerts lists one page of code scanning alerts.
//
// GET /orgs/{org}/code-scanning/alerts, GET /repos/{owner}/{repo}/code-scanning/alerts
func (c *Client) ListCodeScanningAlerts(ctx context.Context, owner, repo string, o AlertListOptions) (AlertPage[CodeScanningAlert], error) {
	return listAlerts[CodeScanningAlert](ctx, c, CodeScanning, owner, repo, o)
}

// ListSecretAlerts lists one page of secret scanning alerts, always with
// hide_secret=true: GitHub then leaves the leaked value out of its answer.
// Should a server send it anyway, [SecretAlert] drops it while decoding, and
// the raw answer is never written to the conditional-request store (a
// file on disk): these reads are sent unconditionally (withoutStore).
//
// GET /orgs/{org}/secret-scanning/alerts, GET /repos/{owner}/{repo}/secret-scanning/alerts
func (c *Client) ListSecretAlerts(ctx context.Context, owner, repo string, o AlertListOptions) (AlertPage[SecretAlert], error) {
	return listAlerts[SecretAlert](ctx, c, SecretScanning, owner, repo, o)
}

func listAlerts[T any](ctx context.Context, c *Client, kind AlertKind, owner, repo string, o AlertListOptions) (AlertPage[T], error) {
	var path string
	if repo == "" {
		org, err := refOwner(owner)
		if err != nil {
			return AlertPage[T]{}, err
		}
		path = "orgs/" + url.PathEscape(org) + "/" + string(kind) + "/alerts"
	} else {
		r, err := refRepo(owner, repo, false)
		if err != nil {
			return AlertPage[T]{}, err
		}
		path = r.path(string(kind), "alerts")
	}
	q := url.Values{}
	// Oldest first: alerts raised while a report is continued join the
	// end, behind the cursor, rather than shifting the pages before it.
	q.Set("sort", "created")
	q.Set("direction", "asc")
	if o.State != "" {
		q.Set("state", o.State)
	}
	if o.Severity != "" {
		q.Set("severity", o.Severity)
	}
	if kind == SecretScanning {
		q.Set("hide_secret", "true")
		ctx = withoutStore(ctx)
	}
	if o.After != "" {
		q.Set("after", o.After)
	} else if o.Page > 1 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	if o.PerPage != 0 {
		q.Set("per_page", strconv.Itoa(o.PerPage))
	}
	var out AlertPage[T]
	m, err := c.read(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, "GET", path+"?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		var v []T
		resp, err := c.rest.Do(req, &v)
		out.Alerts = v
		if resp != nil {
			out.After, out.Next = resp.After, resp.NextPage
		}
		return resp, err
	})
	out.Meta = m
	if err != nil {
		return AlertPage[T]{}, err
	}
	return out, nil
}
