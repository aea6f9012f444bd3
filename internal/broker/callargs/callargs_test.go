package callargs

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
)

// anyArgs declares every top-level name these tests send.
var anyArgs = Upstream{Declared: Declared{"owner": true, "repo": true, "org": true, "organization": true, "filter": true,
	"repositories": true, "query": true, "target": true, "account": true, "items": true, "title": true, "name": true, "search": true, "head": true},
	OwnerArgs: []string{"account", "target.who"}}

// An upstream call is routed by the one owner its arguments name,
// wherever they name it.
func TestReadUpstreamFindsEveryOwner(t *testing.T) {
	for _, c := range []struct {
		args   string
		owner  string
		owners []string
		repos  []string
	}{
		{`{"org":"fleet"}`, "fleet", []string{"fleet"}, nil},
		{`{"repositories":["fleet/x","FLEET/y"]}`, "fleet", []string{"fleet"}, []string{"fleet/x", "FLEET/y"}},
		{`{"filter":{"Repo":"fleet/x","state":"open"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"owner":"acme","repo":"widgets","organization":"ACME"}`, "acme", []string{"acme"}, []string{"acme/widgets"}},
		{`{"items":[{"repository":{"owner":{"login":"alice"},"name":"notes"}}]}`, "alice", []string{"alice"}, []string{"alice/notes"}},
		{`{"filter":{"query":"repo:fleet/x is:open"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"account":"alice"}`, "alice", []string{"alice"}, nil},
		{`{"target":{"who":"alice"}}`, "alice", []string{"alice"}, nil},
		{`{"target":{"x":{"who":"alice"}},"items":[{"who":"fleet"}]}`, "", nil, nil},
		// Keys no list names, read by what their names say or by what
		// their values are.
		{`{"filter":{"url":"https://github.com/fleet/x"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"items":[{"html_url":"https://github.com/fleet/x/issues/1"}]}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"filter":{"u":"https://api.github.com/repos/fleet/x/issues"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"filter":{"u":"https://ghes.example.com/api/v3/orgs/fleet"}}`, "fleet", []string{"fleet"}, nil},
		{`{"filter":{"u":"https://ghes.example.com/fleet/x"}}`, "", nil, nil},
		{`{"filter":{"u":"https://github.example.com/api/v3/orgs/fleet"}}`, "fleet", []string{"fleet"}, nil},
		{`{"filter":{"remote":"git@github.com:fleet/x.git"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"filter":{"q":"repo:fleet/x is:private"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"search":"org:fleet"}`, "fleet", []string{"fleet"}, nil},
		{`{"filter":{"nameWithOwner":"fleet/x"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"filter":{"repoOwner":"fleet"}}`, "fleet", []string{"fleet"}, nil},
		{`{"filter":{"full-name":"fleet/x"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"items":[{"login":"fleet"}]}`, "fleet", []string{"fleet"}, nil},
		{`{"head":"fleet:main"}`, "fleet", []string{"fleet"}, nil},
		{`{"head":"main"}`, "", nil, nil},
		{`{"filter":{"slug":"fleet/x"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"filter":{"path":"docs/readme.md","ref":"main/next"}}`, "", nil, nil},
		{`{"repositories":["widgets"],"filter":{"org":null,"user":""}}`, "", nil, []string{"widgets"}},
		{`{"query":"user:@me"}`, "", []string{"@me"}, nil},
		{`{"title":"fleet/x","name":"fleet"}`, "", nil, nil},
		{`{"title":"fleet/x","filter":{"TITLE":"fleet/x","filePath":"fleet/x","file_name":"fleet/x"}}`, "", nil, nil},
		// A managed user's login (HANDLE_SHORTCODE) is an owner in every
		// form: read as naming nothing, a call on that user's repository
		// would be routed by another owner's credential.
		{`{"owner":"mona-cat_octo","repo":"notes"}`, "mona-cat_octo", []string{"mona-cat_octo"}, []string{"mona-cat_octo/notes"}},
		{`{"filter":{"url":"https://github.com/mona_octo/x/issues/1"}}`, "mona_octo", []string{"mona_octo"}, []string{"mona_octo/x"}},
		{`{"filter":{"u":"https://api.github.com/repos/mona_octo/x/issues"}}`, "mona_octo", []string{"mona_octo"}, []string{"mona_octo/x"}},
		{`{"filter":{"endpoint":"/users/octo_admin"}}`, "octo_admin", []string{"octo_admin"}, nil},
		{`{"filter":{"remote":"git@github.com:mona_octo/x.git"}}`, "mona_octo", []string{"mona_octo"}, []string{"mona_octo/x"}},
		{`{"filter":{"q":"user:mona_octo is:open"}}`, "mona_octo", []string{"mona_octo"}, nil},
		{`{"filter":{"slug":"mona_octo/x#3"}}`, "mona_octo", []string{"mona_octo"}, []string{"mona_octo/x"}},
		{`{"head":"mona_octo:main"}`, "mona_octo", []string{"mona_octo"}, nil},
		// A query a gh api field assigns.
		{`{"filter":{"command":"gh api -X GET search/issues -f q=repo:fleet/x"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		// gh's -o with its value joined: an o in the value is no flag.
		{`{"filter":{"command":"gh secret list -omonorepo-co"}}`, "monorepo-co", []string{"monorepo-co"}, nil},
		// Prose only as spelled: other spellings are read like any key.
		{`{"items":[{"_name":"fleet/x"}]}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
		{`{"filter":{"ti-tle":"fleet/x"}}`, "fleet", []string{"fleet"}, []string{"fleet/x"}},
	} {
		a, e := ReadUpstream(json.RawMessage(c.args), anyArgs)
		if e != nil {
			t.Errorf("%s: refused: %s", c.args, e.Message)
			continue
		}
		owner, e := a.NamedOwner()
		if e != nil {
			t.Errorf("%s: NamedOwner refused: %s", c.args, e.Message)
		}
		if owner != c.owner {
			t.Errorf("%s: NamedOwner = %q, want %q", c.args, owner, c.owner)
		}
		if got := a.Owners(); !slices.Equal(got, c.owners) {
			t.Errorf("%s: Owners = %q, want %q", c.args, got, c.owners)
		}
		if got := a.Repos(); !slices.Equal(got, c.repos) {
			t.Errorf("%s: Repos = %q, want %q", c.args, got, c.repos)
		}
	}
}

// Shapes an upstream reads an owner from beyond the plain keys: remotes
// of every scheme, the API paths on uploads.github.com, members of
// objects below text, a query or a ref, plural and _name owner keys,
// GraphQL's headRefName, and keys that only lower-case to a text key.
// Each names fleet.
func TestReadUpstreamReadsEveryForm(t *testing.T) {
	for _, args := range []string{
		`{"remote":"ssh://git@github.com/fleet/x.git"}`,
		`{"remote":"git://github.com/fleet/x.git"}`,
		`{"remote":"git+https://github.com/fleet/x.git"}`,
		`{"remote":"git@github.com:/fleet/x.git"}`,
		`{"remote":"org-123@github.com:fleet/x.git"}`,
		`{"upload_url":"https://uploads.github.com/repos/fleet/x/releases/1/assets"}`,
		`{"files":[{"path":"a","from":"fleet/x"}]}`,
		`{"commit":{"url":"https://api.github.com/repos/fleet/x/commits/abc"}}`,
		`{"query":{"target":"fleet/x"}}`,
		`{"head":{"url":"https://github.com/fleet/x"}}`,
		`{"head":"https://github.com/fleet/x/tree/main"}`,
		`{"orgs":["fleet"]}`,
		`{"owners":["fleet"]}`,
		`{"organizations":["fleet"]}`,
		`{"owner_name":"fleet"}`,
		`{"headRefName":"fleet:main"}`,
		`{"filter":{"t\u0130tle":"fleet/x"}}`,
		`{"link":" https://github.com/fleet/x"}`,
		`{"link":"https://github.com/fleet/x\n"}`,
		`{"link":"https://git\nhub.com/fleet/x"}`,
		`{"link":"https://github.com\\fleet\\x"}`,
		// Hosts as a URL parser maps them, and URLs it reads without
		// "//".
		`{"link":"https://%67ithub.com/fleet/x"}`,
		`{"link":"https://\uff47\uff49\uff54\uff48\uff55\uff42\uff0ecom/fleet/x"}`,
		`{"link":"https://git\u00adhub.com/fleet/x"}`,
		`{"link":"https://GITHUB.COM./fleet/x"}`,
		`{"link":"https://user:pw@github.com:443/fleet/x?tab=1#top"}`,
		`{"link":"https:github.com/fleet/x"}`,
		`{"link":"HTTPS:\\\\github.com\\fleet\\x"}`,
		`{"link":"https://api.github.com/repos/fleet%2Fx/issues"}`,
		// GHE.com's hosts, and a remote in scp form without a user.
		`{"link":"https://octo.ghe.com/fleet/x"}`,
		`{"link":"https://api.octo.ghe.com/repos/fleet/x"}`,
		`{"remote":"github.com:fleet/x.git"}`,
		// References as GitHub links them.
		`{"issue":"fleet/x#12"}`,
		`{"at":"fleet/x@4f2a9c1"}`,
		`{"slug":"fleet/x/"}`,
		// Search qualifiers wherever a search may be, in any encoding.
		`{"searchTerm":"is:open repo:fleet/x"}`,
		`{"keywords":["bug","org:fleet"]}`,
		`{"filter":"user:fleet"}`,
		`{"q":"is:open+org:fleet"}`,
		`{"query":"repo%3Afleet/x is:open"}`,
		// API paths without a host, as gh api, Octokit routes and
		// scripts that prefix the API's root take them.
		`{"endpoint":"/repos/fleet/x/issues"}`,
		`{"endpoint":"repos/fleet/x/contents/.env"}`,
		`{"route":"GET /repos/fleet/x/issues"}`,
		`{"url":"/orgs/fleet/members"}`,
		`{"args":["api","repos/fleet/x/actions/secrets"]}`,
		`{"endpoint":"search/code?q=org:fleet"}`,
		`{"path":"/repos/fleet/x/contents/.env"}`,
		// gh's command lines and flags.
		`{"command":"gh repo view fleet/x"}`,
		`{"args":["repo","view","--repo=fleet/x"]}`,
		`{"args":["issue","list","-Rfleet/x"]}`,
		// Whole URLs and remotes under path and ref keys.
		`{"path":"https://api.github.com/repos/fleet/x/contents/a"}`,
		`{"file":"https://raw.githubusercontent.com/fleet/x/main/.env"}`,
		`{"files":["https://github.com/fleet/x/blob/main/a"]}`,
		`{"file_path":"git@github.com:fleet/x.git"}`,
		`{"ref":"https://github.com/fleet/x"}`,
		// A search in a URL's query string.
		`{"url":"https://api.github.com/search/code?q=org:fleet+filename:.env"}`,
		`{"url":"https://api.github.com/search/issues?q=repo%3Afleet%2Fx"}`,
		// Arguments written as JSON text.
		`{"arguments":"{\"owner\": \"fleet\", \"repo\": \"x\"}"}`,
		`{"variables":"{\"owner\":\"fleet\",\"name\":\"x\"}"}`,
		// Hosts without a scheme, protocol-relative URLs.
		`{"target":"github.com/fleet/x"}`,
		`{"module":"github.com/fleet/x/v2"}`,
		`{"url":"//api.github.com/repos/fleet/x"}`,
		`{"url":"www.github.com/fleet/x"}`,
		// git's remote forms.
		`{"remote":"https::https://github.com/fleet/x"}`,
		`{"remote":"[github.com:22]:fleet/x.git"}`,
		`{"remote":"git@[github.com:22]:fleet/x.git"}`,
		// curl and Python's urllib take a backslash before @ as part of
		// the user: the host is github.com.
		`{"url":"https://evil.example\\@github.com/fleet/x"}`,
		// GitHub Enterprise paths, the org SCIM API, keywords in any case.
		`{"url":"https://github.example.com/api/uploads/repos/fleet/x/releases/1/assets"}`,
		`{"url":"https://github.example.com/raw/fleet/x/main/README.md"}`,
		`{"url":"https://api.github.com/scim/v2/organizations/fleet/Users"}`,
		`{"url":"https://github.com/organizations/fleet/settings/profile"}`,
		`{"url":"https://api.github.com/REPOS/fleet/x"}`,
		// OWNER/REPO with more after it, or spelled as clients normalise.
		`{"slug":"%66leet/x"}`,
		`{"slug":"fleet%2Fx"}`,
		`{"slug":"\u00a0fleet/x"}`,
		`{"slug":"\ufefffleet/x"}`,
		`{"slug":"fleet/x/issues/12"}`,
		`{"uses":"fleet/x/.github/workflows/ci.yml@main"}`,
		`{"slug":"fleet/x?ref=main"}`,
		`{"spec":"fleet/x:README.md"}`,
		// Command lines however written, and environment values.
		`{"command":"gh issue list -R=fleet/x"}`,
		`{"args":["issue","list","-R=fleet/x"]}`,
		`{"command":"gh search repos --owner=fleet"}`,
		`{"command":"gh secret list --org fleet"}`,
		`{"command":"/usr/bin/gh repo view fleet/x"}`,
		`{"command":"gh.exe issue list -R fleet/x"}`,
		`{"command":"GH_REPO=fleet/x gh issue list"}`,
		`{"env":["GH_REPO=fleet/x"]}`,
		// Node resolves /\ and \/ as //; a host with a port or a user.
		`{"endpoint":"/\\api.github.com/repos/fleet/x"}`,
		`{"endpoint":"\\/api.github.com/repos/fleet/x"}`,
		`{"url":"github.com:443/fleet/x"}`,
		`{"url":"token@api.github.com/repos/fleet/x"}`,
		`{"args":"\"fleet/x\""}`,
		`{"command":"gh\trepo view fleet/x"}`,
		`{"command":"gh secret list -o fleet"}`,
		`{"command":"gh secret list -ofleet"}`,
		`{"command":"gh repo list fleet"}`,
		`{"command":"gh repo ls -L 5 fleet"}`,
		`{"command":"\"gh\" repo view fleet/x"}`,
		`{"search":"{\"owner\": \"fleet\"}"}`,
		`{"link":"github.com./fleet/x"}`,
		// Keys a tool declares for branches and cursors: a fork's
		// OWNER:BRANCH (also in a compare range), whole URLs.
		`{"basehead":"main...fleet:feature"}`,
		`{"target_branch":"fleet:main"}`,
		`{"head_branch":"fleet:feature"}`,
		`{"next_cursor":"https://api.github.com/repos/fleet/x/issues?page=2"}`,
	} {
		a, e := ReadUpstream(json.RawMessage(args), Upstream{})
		if e != nil {
			t.Errorf("%s: refused: %s", args, e.Message)
			continue
		}
		if got, e := a.NamedOwner(); e != nil || got != "fleet" {
			t.Errorf("%s: NamedOwner = %q (%v), want fleet", args, got, e)
		}
	}
	// Text stays text where it is text: a branch with a slash, a prose
	// key's own strings and arrays of them.
	for _, args := range []string{
		`{"head":"feature/x"}`,
		`{"labels":["fleet/x"]}`,
		`{"title":"fleet/x","files":["fleet/x"]}`,
	} {
		a, e := ReadUpstream(json.RawMessage(args), Upstream{})
		if e != nil {
			t.Errorf("%s: refused: %s", args, e.Message)
			continue
		}
		if got := a.Owners(); len(got) != 0 {
			t.Errorf("%s: Owners = %q, want none", args, got)
		}
	}
}

// A call naming two owners is refused before it is routed, with a repair.
func TestNamedOwnerRefusesTwoOwners(t *testing.T) {
	for _, args := range []string{
		`{"owner":"acme","repo":"widgets","organization":"alice"}`,
		`{"repositories":["acme/widgets","alice/notes"]}`,
		`{"org":"acme","filter":{"repo":"alice/notes"}}`,
		`{"owner":"acme","filter":{"query":"org:alice"}}`,
		`{"org":"acme","query":"user:@me"}`,
		`{"target":{"LOGIN":"acme"},"account":"alice"}`,
		`{"owner":"acme","search":"is:open+repo:alice/notes"}`,
		`{"owner":"acme","filter":{"terms":"bug user:alice"}}`,
		`{"owner":"acme","repo":"widgets","query":"is:open%20repo:alice/notes"}`,
		`{"owner":"acme","filter":{"url":"https://github.com/mona_octo/notes/issues/1"}}`,
		`{"repositories":["acme/widgets","mona_octo/notes"]}`,
		`{"owner":"mona_octo","filter":{"remote":"git@github.com:mona_octo2/notes.git"}}`,
		// gh api sends a GET's fields as the query string: the query a field
		// assigns is read, however the field is written.
		`{"owner":"fleet","filter":{"command":"gh api -X GET search/issues -f q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -F q=user:mona_octo"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues --raw-field=q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues --field q=is:open+org:acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f q=repo%3Aacme/x"}}`,
		`{"owner":"fleet","filter":{"q":"q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"x":"type=issues&q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -fq=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f q='org:acme is:open'"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f=q=org:acme"}}`,
		// Read as the shell hands gh its words: quoting taken away, after
		// a wrapper, with -i clustered before -f.
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f q=repo\\:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f q=re''po:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f q='repo':acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f q='is:open org:acme'"}}`,
		`{"owner":"fleet","filter":{"command":"gh api -X GET search/issues -f 'q'=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh api -X GET search/issues -f\"q=repo:acme/x\""}}`,
		`{"owner":"fleet","filter":{"command":"gh api -X GET search/issues --raw-field='q=repo:acme/x'"}}`,
		`{"owner":"fleet","filter":{"command":"gh 'api' -X GET search/issues -if q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"env GH_HOST=github.com gh api -X GET search/issues -iFq=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list --search='is:open repo:acme/x'"}}`,
		`{"owner":"fleet","filter":{"params":"type=issues&%71=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"params":"?q=repo:acme/x&type=issues"}}`,
		`{"owner":"fleet","filter":{"url":"search?q=repo:acme/x&type=issues"}}`,
		`{"owner":"fleet","filter":{"params":"q=repo:acme/x&next=?"}}`,
		`{"owner":"fleet","filter":{"params":"type=issues&q=repo:acme/x&sort=created desc"}}`,
		// A redirection is left out with its target; the command runs with
		// the rest. A backslash and newline join two lines.
		`{"owner":"fleet","filter":{"command":"gh issue list -R acme/x > out.txt"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list -R acme/x 2>/dev/null"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list --repo acme/x < /dev/null"}}`,
		`{"owner":"fleet","filter":{"command":"gh api repos/acme/x/issues >out"}}`,
		`{"owner":"fleet","filter":{"command":"gh search repos --owner acme >x"}}`,
		`{"owner":"fleet","filter":{"command":"git clone https://github.com/acme/x >/dev/null"}}`,
		`{"owner":"fleet","filter":{"command":"gh search issues repo:\\\nacme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list -R \"acme/\\\nx\""}}`,
		// $'…' with its escapes, $"…"; a wrapper that takes an argument,
		// or several; a joined short flag's value.
		`{"owner":"fleet","filter":{"command":"gh api search/issues -f q=$'repo\\x3aacme/x'"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list -R $'acme\\057x'"}}`,
		`{"owner":"fleet","filter":{"command":"gh search repos --owner $\"acme\""}}`,
		`{"owner":"fleet","filter":{"command":"sudo -u root gh issue list -R acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"nice -n 10 env -u FOO timeout 10 gh issue list -R acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh pr list -Srepo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh pr list -R fleet/x -dSrepo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh search issues bug # x\ngh search issues repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue comment 1 --body $'\\c\\\\' -R acme/y #'"}}`,
		`{"owner":"fleet","filter":{"command":"gh repo view $'acme/y\\400junk'"}}`,
		`{"owner":"fleet","filter":{"command":"gh pr list -R fleet/x -dddSrepo:acme/y"}}`,
		`{"owner":"fleet","filter":{"command":"gh pr list -dRacme/y"}}`,
		`{"owner":"fleet","filter":{"command":"gh pr list -R fleet/x -S'repo:acme/x label:a=b'"}}`,
		`{"owner":"fleet","filter":{"command":"env GH_CONFIG_DIR=/home/u/.config/gh gh api -X GET search/issues -f q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"sudo -D/src/gh gh api -X GET search/issues -f q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"sudo -D /src/gh gh api -X GET search/issues -f q=repo:acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"env -C/src/git gh search repos --owner acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list -R $'acme/x\\0junk'"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list -R $'\\u0061cme/x'"}}`,
		`{"owner":"fleet","filter":{"u":"https://github.com/search?type=issues&q=repo:acme/x"}}`,
		// gh repo list's argument is an owner, wherever cobra and pflag
		// find it among the flags.
		`{"owner":"fleet","filter":{"command":"gh repo list acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh repo ls --limit 5 acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh repo list -L5 --fork acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh repo -L 5 list acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh repo --limit=5 list -q .[] acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh repo list -- acme"}}`,
		`{"owner":"fleet","filter":{"command":"sudo -u ci gh repo list acme"}}`,
		// gh's -o takes its value joined, as pflag reads a shorthand,
		// also after a boolean shorthand (-u) in a cluster.
		`{"owner":"fleet","filter":{"command":"gh secret list -oacme"}}`,
		`{"owner":"fleet","filter":{"command":"gh variable list -oacme"}}`,
		`{"owner":"fleet","filter":{"command":"gh variable list -o=acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh secret list -uoacme"}}`,
		`{"owner":"fleet","filter":{"command":"gh secret list -uo=acme"}}`,
		`{"owner":"fleet","filter":{"command":"env -i gh secret list -oacme"}}`,
		// gh's list flags split their value at commas; git -c sets a
		// remote's URL.
		`{"owner":"fleet","filter":{"command":"gh search code token -R fleet/w,acme/x"}}`,
		`{"owner":"fleet","filter":{"command":"gh search issues --owner fleet,acme is:private"}}`,
		`{"owner":"fleet","filter":{"command":"gh secret list -o fleet,acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh secret list -ofleet,acme"}}`,
		`{"owner":"fleet","filter":{"command":"gh repo list fleet,acme"}}`,
		`{"owner":"fleet","filter":{"command":"git -c remote.origin.pushurl=https://github.com/acme/x push origin main"}}`,
	} {
		a, e := ReadUpstream(json.RawMessage(args), anyArgs)
		if e != nil {
			t.Errorf("%s: refused reading: %s", args, e.Message)
			continue
		}
		_, e = a.NamedOwner()
		if e == nil {
			t.Errorf("%s: routed, want refused", args)
			continue
		}
		if e.Code != contract.CodeInvalidField {
			t.Errorf("%s: code %s, want invalid_field", args, e.Code)
		}
		if e.Settlement != contract.NotStarted {
			t.Errorf("%s: settlement %q, want not_started", args, e.Settlement)
		}
		if e.Repair == nil {
			t.Errorf("%s: no repair, want one", args)
		} else if e.Repair.NextStep == "" {
			t.Errorf("%s: repair next_step is empty, want one", args)
		}
	}
}

// What cannot be read as a name where one is expected is refused.
func TestReadUpstreamRefusesUnreadableNames(t *testing.T) {
	deep := "1"
	for range maxDepth + 1 {
		deep = `{"a":` + deep + `}`
	}
	for _, args := range []string{
		`{"org":7}`,
		`{"org":"acme/widgets"}`,
		`{"org":"../fleet"}`,
		`{"filter":{"repo":{"id":3}}}`,
		`{"filter":{"owner":true}}`,
		`{"filter":{"repo":"acme/x","REPO":"acme/y"}}`,
		`{"filter":{"repo":"acme/x","repo":"acme/x"}}`,
		`{"repositories":["acme/x/../../fleet/y"]}`,
		`{"repositories":[["fleet/x",1]]}`,
		`{"repositories":"https://github.com/fleet/x"}`,
		`{"repositories":["acme/"]}`,
		`{"org":"mona_octo_x"}`,
		`{"repositories":["mona_/x"]}`,
		`{"repositories":["/x"]}`,
		`{"filter":` + deep + `}`,
		// Dot segments: clients resolve them, so the owner reached is not
		// the one the path spells.
		`{"owner":"acme","filter":{"url":"https://github.com/acme/r/../../fleet/x"}}`,
		`{"filter":{"url":"https://github.com/acme/%2e%2e/fleet/x"}}`,
		`{"filter":{"url":"https://github.com/./fleet/x"}}`,
		`{"filter":{"remote":"git@github.com:acme/../fleet/x.git"}}`,
		`{"filter":{"url":"https:github.com/acme/./../fleet/x"}}`,
		// A GraphQL document names owners in its own syntax; enterprise:
		// reaches every organization of an enterprise.
		`{"query":"query { repository(owner: \"fleet\", name: \"x\") { id } }"}`,
		`{"filter":{"q":"{ viewer { login } }"}}`,
		`{"query":"is:open enterprise:octo"}`,
		`{"filter":{"terms":"bug (ENTERPRISE:octo)"}}`,
		`{"filter":{"terms":"bug+enterprise%3Aocto"}}`,
		`{"filter":{"command":"gh api search/issues -f q=enterprise:octo"}}`,
		`{"filter":{"q":"q=is:open&q=enterprise:octo"}}`,
		`{"filter":{"command":"gh api -X GET search/issues -F q=@q.txt"}}`,
		`{"filter":{"command":"gh api -X GET search/issues --field=q=@-"}}`,
		`{"filter":{"command":"gh api search/issues -f q=\"$(cat q.txt)\""}}`,
		`{"filter":{"command":"gh api search/issues -F 'q'=@q.txt"}}`,
		// A word the shell expands anywhere in a gh or git command: what
		// gh is given is not in the text.
		`{"owner":"fleet","filter":{"command":"gh issue list -R \"$(echo acme/x)\""}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list -R $REPO"}}`,
		`{"owner":"fleet","filter":{"command":"gh issue list -R ${REPO}"}}`,
		"{\"owner\":\"fleet\",\"filter\":{\"command\":\"gh issue list -R `echo acme/x`\"}}",
		`{"owner":"fleet","filter":{"command":"gh repo view \"acme/$NAME\""}}`,
		`{"owner":"fleet","filter":{"command":"GH_REPO=$R gh issue list"}}`,
		`{"owner":"fleet","filter":{"command":"env $ASSIGN gh issue list"}}`,
		`{"owner":"fleet","filter":{"command":"git clone https://github.com/$(echo acme)/x"}}`,
		// Brace expansion makes words of its own: {fleet,acme}/x is
		// fleet/x and acme/x.
		`{"owner":"fleet","filter":{"command":"gh repo view {fleet,acme}/x"}}`,
		`{"filter":{"command":"gh repo view {fleet,acme}/x"}}`,
		`{"filter":{"command":"gh issue list -R{fleet,acme}/x"}}`,
		`{"filter":{"command":"gh repo view acme/x{1..3}"}}`,
		`{"filter":{"command":"gh repo view {a{,c}me,fleet}/x"}}`,
		`{"filter":{"command":"env GH_REPO={fleet,acme}/x gh issue list"}}`,
		// env's split string (-S, --split-string) is a command line env
		// splits by rules of its own.
		`{"owner":"fleet","filter":{"command":"env -S 'gh repo view acme/x'"}}`,
		`{"filter":{"command":"env --split-string='gh repo view acme/x'"}}`,
		`{"filter":{"command":"env --split-string 'gh repo view acme/x'"}}`,
		`{"filter":{"command":"/usr/bin/env --spl='gh repo view acme/x'"}}`,
		`{"filter":{"command":"env -iS'gh repo view acme/x'"}}`,
		`{"filter":{"command":"sudo env -S 'gh repo view acme/x' gh auth status"}}`,
		`{"filter":{"command":"env GH_CONFIG_DIR=/home/u/.config/gh gh api graphql -f query='query{viewer{login}}'"}}`,
		`{"filter":{"command":"sudo --chdir=/src/gh gh api graphql -f query='query{viewer{login}}'"}}`,
		`{"filter":{"graphql":"{ repository(owner: \"fleet\", name: \"x\") { id } }"}}`,
		`{"filter":{"document":"# list\nquery Repos { organization(login: \"fleet\") { id } }"}}`,
		`{"filter":{"url":"https://api.github.com/enterprises/octo/actions/runners"}}`,
		`{"filter":{"slug":"acme/../fleet/x"}}`,
		// A qualifier's value that is no owner's name routes nowhere.
		`{"filter":{"q":"org:fleet}"}}`,
		`{"filter":{"url":"https://api.github.com/search/issues?q=user:fleet."}}`,
		// Dot segments in API paths without a host: curl, fetch and
		// requests resolve them.
		`{"filter":{"endpoint":"/repos/acme/x/../../fleet/x/issues"}}`,
		`{"filter":{"endpoint":"repos/acme/x/%2e%2e/%2e%2e/fleet/x"}}`,
		`{"filter":{"route":"GET /repos/acme/x/../../fleet/x/issues"}}`,
		`{"filter":{"path":"/repos/acme/x/../../fleet/x/contents/.env"}}`,
		`{"filter":{"path":"/./repos/fleet/x/contents/.env"}}`,
		`{"filter":{"url":"/orgs/acme/../../enterprises/octo/actions/runners"}}`,
		// GraphQL however its comments end, and gh's GraphQL call.
		`{"query":"# c\rquery { repository(owner: \"fleet\", name: \"x\") { id } }"}`,
		`{"query":"# c\n\ufeff{ repository(owner: \"fleet\", name: \"x\") { id } }"}`,
		`{"filter":{"command":"gh api graphql -F owner=fleet -F name=x -f query=@q.graphql"}}`,
		`{"filter":{"command":"gh api 'graphql' -f query='{viewer{login}}'"}}`,
		`{"filter":{"command":"gh api /graphql -F owner=fleet -f query=@q.graphql"}}`,
		`{"query":"query # c\n{ repository(owner: \"fleet\", name: \"x\") { id } }"}`,
		`{"query":"query Q($o: String # )\n= \"fleet\") { repository(owner: $o, name: \"x\") { id } }"}`,
		`{"query":"\u00a0{ repository(owner: \"fleet\", name: \"x\") { id } }"}`,
		`{"filter":{"variables":"\u2003{ repository(owner: \"fleet\", name: \"x\") { id } }"}}`,
		`{"filter":{"after":"{ repository(owner: \"fleet\") { id } }"}}`,
	} {
		_, e := ReadUpstream(json.RawMessage(args), anyArgs)
		if e == nil {
			t.Errorf("%s: read, want refused", args)
			continue
		}
		if strings.Contains(e.Message, "is not an argument of this tool") {
			t.Errorf("%s: refused for an undeclared key (%s), want refused for its value", args, e.Message)
		}
		if e.Code != contract.CodeInvalidField {
			t.Errorf("%s: code %s, want invalid_field", args, e.Code)
		}
	}
}

// Ordinary calls of GitHub's MCP server, as its tools' schemas take them,
// are routed by their owner: a branch, a path, a page cursor or a value
// with a slash in a key that says so is not read as OWNER/REPO, braces in
// a code search are not a GraphQL document, and an upstream's own "repos"
// is not a report's.
func TestReadUpstreamRoutesOrdinaryCalls(t *testing.T) {
	for _, args := range []string{
		`{"owner":"acme","repo":"w","branch":"feature/x","from_branch":"release/1.0"}`,
		`{"owner":"acme","repo":"w","tree_sha":"feature/x","recursive":true}`,
		`{"owner":"acme","repo":"w","after":"Y3Vyc29yOnYyOpK5MjAy/NC0wMS0xNVQxMDo0NjozMiswMTowMM5nXk8g"}`,
		`{"owner":"acme","repo":"w","pullNumber":3,"commit_title":"feature/x","commit_message":"from fleet/x"}`,
		`{"owner":"acme","repo":"w","sha":"feature/x","path":"src/a","author":"alice"}`,
		`{"owner":"acme","repo":"w","branch":"feature/x","message":"m","files":[{"path":"a/b.txt","content":"fleet/x"}]}`,
		`{"query":"\"func main() {\" language:go org:acme"}`,
		`{"query":"repo:acme/w /retry\\{3\\}/"}`,
		`{"owner":"acme","repo":"w","query":"is:open label:\"area/ci\""}`,
		`{"method":"create","owner":"acme","repo":"w","title":"fleet/x broke","body":"see https://github.com/fleet/x/issues/1","labels":["area/ci"]}`,
		`{"repos":["acme/w"]}`,
		`{"owner":"acme","repos":["acme/w"]}`,
		`{"owner":"acme","repo":"w","path":".github/workflows/ci.yml","ref":"refs/heads/feature/x"}`,
		`{"owner":"acme","repo":"w","branch":"feature/ci","message":"m","files":[{"path":".github/workflows/ci.yml","content":"x"}]}`,
		`{"owner":"acme","repo":"w","path_filter":"src/app"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"Fix the lint job. The config lives in .github/workflows/lint.yml"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"Mirror what upstream did in github.com/golang/go/issues/123"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"Subscription renewal breaks when the payload is {\"plan\": null}."}`,
		`{"owner":"acme","repo":"w","custom_instructions":"{{ placeholders }} in templates must be escaped"}`,
		`{"query":"{{ secrets.DEPLOY_KEY }} org:acme path:.github/workflows"}`,
		`{"owner":"acme","repo":"w","after":"https://api.github.com/repos/acme/w/issues?page=2"}`,
		// Paths, times and cursors with @ or :, names and branches with
		// slashes, sentences and braces in free text.
		`{"owner":"acme","repo":"w","before":"2024-01-01T10:00:00Z"}`,
		`{"owner":"acme","repo":"w","path":"assets/logo@2x.png"}`,
		`{"owner":"acme","repo":"w","branch":"main","message":"m","files":[{"path":"ios/App/Assets/icon@3x.png","content":"x"}]}`,
		`{"owner":"acme","repo":"w","path":"logs/2024-01-01T10:00:00.log"}`,
		`{"owner":"acme","repo":"w","tree_sha":"main","path_filter":"src/assets@2x"}`,
		`{"owner":"acme","repo":"w","branch":"users/alice@example.com/fix"}`,
		`{"owner":"acme","repo":"w","after":"v2:1700000000:abc"}`,
		`{"owner":"acme","repo":"w","method":"update","name":"bug","new_name":"area/ci"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"Copy the fixtures first: cp -R fixtures/data tmp/ and rerun"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"git bisect points at feature/login; please fix it"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"Tests fail; gh run view shows a timeout in src/net"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"{name} placeholders must be kept"}`,
		`{"owner":"acme","repo":"w","target_branch":"release/1.0"}`,
		`{"owner":"acme","repo":"w","tag_name":"v1.0","target_commitish":"release/1.0"}`,
		`{"owner":"acme","repo":"w","revision":"origin/main"}`,
		`{"query":"{ return err } language:go org:acme"}`,
		`{"owner":"acme","command":"gh search repos graphql --owner acme"}`,
		`{"owner":"acme","command":"wget --user=alice --password=x https://api.github.com/repos/acme/w/tarball"}`,
		// Values that assign: only a search's q is read as a search.
		`{"owner":"acme","command":"gh api -X GET search/issues -f 'q=user:acme'"}`,
		`{"owner":"acme","command":"gh api -X GET search/issues -f q=\"is:open repo:acme/w\""}`,
		`{"owner":"acme","command":"gh api repos/acme/w/issues -f title=fleet -f labels[]=org:x"}`,
		`{"owner":"acme","command":"gh issue list -R acme/w 2>/dev/null"}`,
		`{"owner":"acme","command":"gh repo view acme/w > repo.json"}`,
		`{"owner":"acme","command":"gh issue list -R acme/w # fleet/x"}`,
		`{"owner":"acme","command":"gh issue list -R $'\\u0061cme/w'"}`,
		`{"owner":"acme","command":"gh issue list -R acme/w -S-repo:fleet/y"}`,
		`{"owner":"acme","command":"sudo gh search code gh api graphql --owner acme"}`,
		`{"owner":"acme","command":"timeout 60 gh search code gh api graphql -R acme/w"}`,
		`{"owner":"acme","command":"gh api -X GET search/issues -f 'q=label:\"good first issue\" repo:acme/w'"}`,
		`{"owner":"acme","command":"gh api -X GET search/issues -f q='is:open org:acme'"}`,
		// A '$' the shell leaves alone (quoted, escaped) and ordinary
		// searches and flags.
		`{"owner":"acme","command":"gh issue list -R acme/w --search \"label:bug\""}`,
		`{"owner":"acme","command":"gh issue list -R acme/w --search 'cost:$5 in:title'"}`,
		`{"owner":"acme","command":"gh issue list -R acme/w --search \\$HOME"}`,
		`{"owner":"acme","command":"gh issue list -R acme/w --search \"price \\$5\""}`,
		`{"owner":"acme","command":"gh issue list -R acme/w --json number,title"}`,
		`{"owner":"acme","command":"sudo -S gh issue list -R acme/w"}`,
		`{"owner":"acme","command":"git push -o ci.skip origin main"}`,
		`{"owner":"acme","command":"git push -oci.skip https://github.com/acme/w main"}`,
		`{"owner":"acme","command":"gh secret list -oacme -e prod"}`,
		// A wrapper's -S that is not env's, and env's other flags.
		`{"owner":"acme","command":"sudo -S gh repo view acme/w"}`,
		`{"owner":"acme","command":"env -u S -C /src gh repo view acme/w"}`,
		`{"owner":"acme","command":"env -uS gh repo view acme/w"}`,
		// Braces the shell leaves alone: quoted, escaped, without a comma
		// or a range (gh api's {owner} placeholders).
		`{"owner":"acme","command":"gh pr create -R acme/w --body 'see {a,b}'"}`,
		`{"owner":"acme","command":"gh api -X GET search/code -f 'q={a,b} org:acme'"}`,
		`{"owner":"acme","command":"gh issue list -R acme/w --search \"{a,b}\""}`,
		`{"owner":"acme","command":"gh issue list -R acme/w --search \\{a,b}"}`,
		`{"owner":"acme","command":"GH_REPO=acme/w gh api repos/{owner}/{repo}/issues"}`,
		// A joined value holding an o is no -o; braces git reads
		// (HEAD@{1}) and a '$' bash leaves alone are no expansion.
		`{"owner":"acme","command":"gh pr list -R acme/w -Bdevelop -Aoctocat"}`,
		`{"owner":"acme","command":"gh issue list -R acme/w -ldocs"}`,
		`{"owner":"acme","command":"gh pr list -Racme/w"}`,
		`{"owner":"acme","command":"git -C /src/acme diff HEAD@{1}..HEAD@{0} https://github.com/acme/w"}`,
		`{"owner":"acme","command":"gh issue create -R acme/w --body \"total 100$\""}`,
		`{"owner":"acme","command":"gh search code token -R acme/w,acme/x --owner acme"}`,
		// gh repo list's owner, its flags' values apart.
		`{"owner":"acme","command":"gh repo list acme --limit 100 --language go"}`,
		`{"owner":"acme","command":"gh repo list -l go -L 10 --topic cli acme --json name -q .[].name"}`,
		`{"owner":"acme","command":"gh repo list --visibility private"}`,
		`{"owner":"acme","command":"gh org list --limit 5"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"Mirror the fix from https://example.com/search?q=repo:golang/go+retry&type=issues"}`,
		`{"query":"org:acme \"--member=user:ci@acme.iam.gserviceaccount.com\""}`,
		`{"owner":"acme","repo":"w","custom_instructions":"DD_TAGS=org:payments,env:prod"}`,
		`{"owner":"acme","repo":"w","custom_instructions":"gcloud projects add-iam-policy-binding p --member=user:alice@example.com"}`,
	} {
		a, e := ReadUpstream(json.RawMessage(args), Upstream{})
		if e != nil {
			t.Errorf("%s: refused: %s", args, e.Message)
			continue
		}
		if got, e := a.NamedOwner(); e != nil || got != "acme" {
			t.Errorf("%s: NamedOwner = %q (%v), want acme", args, got, e)
		}
	}
}

// A GitHub Enterprise server the broker is configured for is GitHub:
// its URLs, and those of the hosts below it, name their owners; another
// host's name nothing.
func TestReadUpstreamKnowsTheConfiguredServer(t *testing.T) {
	ghes := Upstream{Hosts: []string{"GHES.example.com."}}
	for _, c := range []struct {
		args  string
		u     Upstream
		owner string
	}{
		{`{"link":"https://ghes.example.com/fleet/x"}`, ghes, "fleet"},
		{`{"link":"https://raw.ghes.example.com/fleet/x/main/README.md"}`, ghes, "fleet"},
		{`{"remote":"git@ghes.example.com:fleet/x.git"}`, ghes, "fleet"},
		{`{"link":"https://ghes.example.com/fleet/x"}`, Upstream{}, ""},
		{`{"link":"https://notghes.example.com/fleet/x"}`, ghes, ""},
		{`{"link":"https://example.com/fleet/x"}`, ghes, ""},
	} {
		a, e := ReadUpstream(json.RawMessage(c.args), c.u)
		if e != nil {
			t.Errorf("%s (hosts %q): refused: %s", c.args, c.u.Hosts, e.Message)
			continue
		}
		if got, e := a.NamedOwner(); e != nil || got != c.owner {
			t.Errorf("%s (hosts %q): NamedOwner = %q (%v), want %q", c.args, c.u.Hosts, got, e, c.owner)
		}
	}
}

// ghgate's own search reads its query's scope in every encoding too: a
// '+' or an escaped space can join a second repository to the one named.
func TestReadSeesScopeJoinedByPlusOrEscape(t *testing.T) {
	for _, q := range []string{"is:open+repo:alice/notes", "is:open%20repo:alice/notes"} {
		raw, _ := json.Marshal(map[string]string{"owner": "acme", "repo": "widgets", "query": q})
		a, e := Read(raw, nil)
		if e != nil {
			t.Fatalf("%s: refused reading: %s", q, e.Message)
		}
		if _, e := a.NamedOwner(); e == nil {
			t.Errorf("%s: routed, want refused (it reaches alice/notes)", q)
		}
	}
}

// Read, for ghgate's own tools, reads only its own vocabulary: a key of
// an upstream's shape names nothing there.
func TestReadKeepsToItsVocabulary(t *testing.T) {
	a, e := Read(json.RawMessage(`{"owner":"acme","repo":"widgets","org":"fleet","filter":{"repo":"fleet/x"}}`), nil)
	if e != nil {
		t.Fatalf("refused: %s", e.Message)
	}
	owner, e := a.NamedOwner()
	if e != nil {
		t.Fatalf("NamedOwner refused: %s", e.Message)
	}
	if owner != "acme" {
		t.Errorf("NamedOwner = %q, want acme", owner)
	}
	if got := a.Repos(); !slices.Equal(got, []string{"acme/widgets"}) {
		t.Errorf("Repos = %q, want [acme/widgets]", got)
	}
	if got := string(a.Canonical); got != `{"owner":"acme","repo":"widgets","org":"fleet","filter":{"repo":"fleet/x"}}` {
		t.Errorf("Canonical = %s, want the arguments as sent", got)
	}
}

// An operator's dotted name matches a path from the top only, a plain
// one a key at any depth.
func TestUpstreamRulesReadDottedPathsFromTheTop(t *testing.T) {
	r := Upstream{OwnerArgs: []string{"target.who"}, RepoArgs: []string{"slug"}, TextArgs: []string{"affects", "field.value"}}.rules()
	for _, c := range []struct {
		keys []string
		want kind
	}{
		{[]string{"target", "who"}, ownerKind},
		{[]string{"Target", "WHO"}, ownerKind},
		{[]string{"x", "target", "who"}, plain},
		{[]string{"who"}, plain},
		{[]string{"login"}, ownerKind},
		{[]string{"x", "repo_owner"}, ownerKind},
		{[]string{"title"}, proseKind},
		{[]string{"a", "slug"}, repoKind},
		{[]string{"a", "ORGANIZATION"}, ownerKind},
		{[]string{"a", "Affects"}, proseKind},
		{[]string{"field", "value"}, proseKind},
		{[]string{"x", "field", "value"}, plain},
	} {
		if got := r.kindOf(c.keys, plain); got != c.want {
			t.Errorf("kindOf(%q) = %d, want %d", c.keys, got, c.want)
		}
	}
}
