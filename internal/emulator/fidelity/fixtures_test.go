package fidelity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/openapiprune"
)

// The @octokit/fixtures scenarios are requests Octokit recorded against
// api.github.com in 2022, normalized (ids, dates and request ids replaced
// with placeholders, x-ratelimit-reset rewritten to milliseconds). Each is
// replayed against an emulator seeded with what the scenario found on
// GitHub, and the answers compared: status, the headers a client acts on
// (content-type, Link rels, Location, x-ratelimit-*), and the JSON shape key
// by key, with the values the scenario determines. Where today's OpenAPI
// description and the 2022 recording disagree, today's description wins:
// the emulator follows it and the test logs each such difference.

var replayed atomic.Int64

var scenarios = []string{"labels", "add-labels-to-issue", "lock-issue", "paginate-issues", "search-issues", "errors"}

// recordingQuirks are recorded values the emulator deliberately does not
// reproduce, by scenario and folded JSON path, with the reason. Each is
// logged instead of failing.
var recordingQuirks = map[string]map[string]string{
	"search-issues": {
		"$.items[].author_association": "GitHub's search answered NONE for issues an org member wrote, while its issues API answered MEMBER for the same kind of issue (paginate-issues); the emulator computes the association one way on every route",
	},
}

// fixtureToken is the recordings' normalized credential; replays send the
// emulator's own token for the same user instead.
const (
	fixtureToken = "0000000000000000000000000000000000000001"
	emuToken     = "emu-fixture"
	fixtureOrg   = "octokit-fixture-org"
	fixtureUser  = "octokit-fixture-user-a"
)

// exchange is one recorded request and GitHub's answer.
type exchange struct {
	Scope      string          `json:"scope"`
	Method     string          `json:"method"`
	Path       string          `json:"path"`
	Body       json.RawMessage `json:"body"`
	Status     int             `json:"status"`
	Response   json.RawMessage `json:"response"`
	ReqHeaders map[string]any  `json:"reqheaders"`
	Headers    map[string]any  `json:"headers"`
}

func (x *exchange) header(name string) string {
	v, ok := x.Headers[strings.ToLower(name)]
	if !ok {
		return ""
	}
	return fmt.Sprint(v)
}

func loadScenario(t *testing.T, name string) []exchange {
	t.Helper()
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "node_modules", "@octokit", "fixtures", "scenarios", "api.github.com", name, "normalized-fixture.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("@octokit/fixtures is not installed (%v); run `make test`, which runs npm ci", err)
	}
	var xs []exchange
	if err := json.Unmarshal(data, &xs); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(xs) == 0 {
		t.Fatalf("%s holds no requests", path)
	}
	return xs
}

func TestFixtureReplay(t *testing.T) {
	for _, name := range scenarios {
		t.Run(name, func(t *testing.T) {
			xs := loadScenario(t, name)
			srv := fixtureWorld(t, name, xs)
			replay(t, srv, xs, recordingQuirks[name])
		})
	}
}

// fixtureWorld seeds an empty emulator with what the scenario's recording
// shows existed on GitHub before its first request.
func fixtureWorld(t *testing.T, scenario string, xs []exchange) *emulatortest.Server {
	t.Helper()
	srv := emulatortest.Start(t, emulator.Options{Seed: "empty"})
	st := srv.Emu.State()
	st.Lock()
	defer st.Unlock()
	created := time.Date(2017, 10, 10, 16, 0, 0, 0, time.UTC)
	org := st.AddAccount(fixtureOrg, "Octokit Fixture Org", true, created)
	user := st.AddAccount(fixtureUser, "Octokit Fixture User A", false, created)
	repo := st.AddRepo(org, scenario, "", false, created)
	repo.Collaborators = []string{fixtureUser}
	st.AddToken(&emulator.Token{Value: emuToken, Login: fixtureUser,
		Perms: map[string]emulator.Permission{fixtureOrg + "/" + scenario: emulator.PermAdmin}})

	switch scenario {
	case "labels":
		// The repository's labels as the first (list) request found them:
		// GitHub's defaults.
		var labels []struct {
			Name        string  `json:"name"`
			Color       string  `json:"color"`
			Description *string `json:"description"`
			Default     bool    `json:"default"`
		}
		mustNil(t, json.Unmarshal(xs[0].Response, &labels))
		for _, l := range labels {
			st.AddLabel(repo, l.Name, l.Color, l.Description).Default = l.Default
		}
	case "lock-issue":
		st.AddIssue(repo, user, "Issue to lock", nil, false, created)
	case "paginate-issues":
		for n := 1; n <= 13; n++ {
			st.AddIssue(repo, user, fmt.Sprintf("Test issue %d", n), nil, false, created.Add(time.Duration(n)*time.Minute))
		}
	case "search-issues":
		// The two issues the recorded search found, in number order, and
		// one it must not find.
		var found struct {
			Items []foundIssue `json:"items"`
		}
		mustNil(t, json.Unmarshal(xs[0].Response, &found))
		slices.SortFunc(found.Items, func(a, b foundIssue) int { return a.Number - b.Number })
		for i, it := range found.Items {
			st.AddIssue(repo, user, it.Title, it.Body, false, created.Add(time.Duration(i)*time.Minute))
		}
		other := "Nothing to do with seeds."
		st.AddIssue(repo, user, "Unrelated chore", &other, false, created.Add(time.Hour))
	}
	return srv
}

type foundIssue struct {
	Number int     `json:"number"`
	Title  string  `json:"title"`
	Body   *string `json:"body"`
}

func replay(t *testing.T, srv *emulatortest.Server, xs []exchange, quirks map[string]string) {
	t.Helper()
	var prev *emulatortest.Response
	var prevRecorded *exchange
	for i := range xs {
		x := &xs[i]
		where := fmt.Sprintf("#%d %s %s", i+1, strings.ToUpper(x.Method), x.Path)
		path := x.Path
		if strings.HasPrefix(path, "/repositories/") {
			// GitHub's Link URLs address the repository by id, a route the
			// emulator does not serve; a client follows the link it was
			// given, so the replay follows the emulator's link of the same
			// rel.
			path = followSameRel(t, where, prevRecorded, prev, x.Path)
		}
		token := ""
		if auth, _ := x.ReqHeaders["authorization"].(string); auth != "" {
			if auth != "token "+fixtureToken {
				t.Fatalf("%s: unknown recorded credential %q", where, auth)
			}
			token = emuToken
		}
		var body any
		if len(x.Body) > 0 && string(x.Body) != `""` {
			body = []byte(x.Body)
		}
		res := srv.Do(t, strings.ToUpper(x.Method), path, token, body)
		replayed.Add(1)
		compareExchange(t, where, x, res, quirks)
		prev, prevRecorded = res, x
	}
}

// followSameRel finds which rel of the previous recorded Link pointed at
// target and returns the emulator's URL for that rel.
func followSameRel(t *testing.T, where string, rec *exchange, got *emulatortest.Response, target string) string {
	t.Helper()
	if rec == nil {
		t.Fatalf("%s: a /repositories/ link with no previous recorded response, want one", where)
	}
	if got == nil {
		t.Fatalf("%s: a /repositories/ link with no previous emulator response, want one", where)
	}
	recLinks := links(t, rec.header("link"))
	gotLinks := links(t, got.Header.Get("Link"))
	for _, rel := range []string{"next", "prev", "first", "last"} {
		u := recLinks[rel]
		if u == nil || u.RequestURI() != target {
			continue
		}
		g := gotLinks[rel]
		if g == nil {
			t.Fatalf("%s: GitHub linked rel=%q, the emulator did not", where, rel)
		}
		if !sameQuery(u.Query(), g.Query()) {
			t.Errorf("%s: rel=%q query %q, GitHub's %q", where, rel, g.RawQuery, u.RawQuery)
		}
		return g.RequestURI()
	}
	t.Fatalf("%s: no rel in the recorded Link points at %s", where, target)
	return ""
}

func sameQuery(a, b url.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a.Get(k) != b.Get(k) {
			return false
		}
	}
	return true
}

func compareExchange(t *testing.T, where string, x *exchange, res *emulatortest.Response, quirks map[string]string) {
	t.Helper()
	if res.Status != x.Status {
		t.Errorf("%s: status %d, GitHub answered %d: %s", where, res.Status, x.Status, res.Body)
		return
	}
	// Content type: the same media type and charset, or none for a 204.
	recCT, gotCT := x.header("content-type"), res.Header.Get("Content-Type")
	if (recCT == "") != (gotCT == "") {
		t.Errorf("%s: content-type %q, GitHub sent %q", where, gotCT, recCT)
	} else if recCT != "" {
		rm, rp, _ := mime.ParseMediaType(recCT)
		gm, gp, _ := mime.ParseMediaType(gotCT)
		if gm != rm {
			t.Errorf("%s: content-type %q, want GitHub's media type %q", where, gotCT, rm)
		}
		if gp["charset"] != rp["charset"] {
			t.Errorf("%s: content-type %q, want GitHub's charset %q", where, gotCT, rp["charset"])
		}
	}
	// Link: the same rels (URLs differ: host, and GitHub's /repositories/{id}).
	if r, g := rels(links(t, x.header("link"))), rels(links(t, res.Header.Get("Link"))); !slices.Equal(r, g) {
		t.Errorf("%s: Link rels %v, GitHub sent %v", where, g, r)
	}
	// Location: present when GitHub sent it, naming the same resource path.
	if loc := x.header("location"); loc != "" {
		ru, _ := url.Parse(loc)
		gu, err := url.Parse(res.Header.Get("Location"))
		if got := res.Header.Get("Location"); err != nil || got == "" || gu.Path != ru.Path {
			t.Errorf("%s: Location %q, want one with GitHub's path %q", where, got, ru.Path)
		}
	}
	compareRateHeaders(t, where, x, res)

	// Body shape under today's description.
	if len(x.Response) == 0 || string(x.Response) == `""` {
		if len(res.Body) != 0 {
			t.Errorf("%s: GitHub sent no body, the emulator sent %s", where, res.Body)
		}
		return
	}
	schema, err := emulatortest.ResponseSchema(res.Operation, res.Status)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	var recorded, got any
	mustNil(t, json.Unmarshal(x.Response, &recorded))
	if err := json.NewDecoder(bytes.NewReader(res.Body)).Decode(&got); err != nil {
		t.Errorf("%s: emulator body is not JSON: %v", where, err)
		return
	}
	r := shapeReport{quirks: quirks}
	compareShape("$", recorded, got, schema, "", &r)
	r.report(t, where)
}

// compareRateHeaders checks the x-ratelimit-* headers GitHub sent are
// there, with the same limit and resource. x-ratelimit-reset is checked as
// what GitHub sends (Unix seconds), not against the recording, whose
// normalization rewrote it to milliseconds.
func compareRateHeaders(t *testing.T, where string, x *exchange, res *emulatortest.Response) {
	t.Helper()
	for _, h := range []string{"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-used", "x-ratelimit-reset", "x-ratelimit-resource"} {
		if x.header(h) != "" && res.Header.Get(h) == "" {
			t.Errorf("%s: no %s; GitHub sent one", where, h)
		}
	}
	for _, h := range []string{"x-ratelimit-limit", "x-ratelimit-resource"} {
		if rec, got := x.header(h), res.Header.Get(h); rec != "" && rec != got {
			t.Errorf("%s: %s %q, GitHub sent %q", where, h, got, rec)
		}
	}
	if v := res.Header.Get("X-RateLimit-Reset"); v != "" {
		// Seconds since 1970 have ten digits until 2286; the recording's
		// milliseconds have thirteen.
		if reset, err := strconv.ParseInt(v, 10, 64); err != nil || reset < 1e9 || reset >= 1e10 {
			t.Errorf("%s: x-ratelimit-reset %q, want Unix seconds (ten digits)", where, v)
		}
	}
}
