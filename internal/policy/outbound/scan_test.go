package outbound

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestScanFindsEveryGeneratedCredential(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range credentialSet {
		seen[c.kind] = true
		got := Scan(c.text)
		if got == nil {
			t.Errorf("%v: Scan = nil, want %s at %d", c, c.kind, c.at)
			continue
		}
		if got.Kind != c.kind {
			t.Errorf("%v: Scan found %s, want %s", c, got.Kind, c.kind)
		}
		if got.Offset != c.at {
			t.Errorf("%v: Scan found it at %d, want %d", c, got.Offset, c.at)
		}
	}
	// Every kind Scan knows is generated, so the fuzz target covers each.
	for _, kind := range []string{
		"github_token", "github_fine_grained_pat", "aws_access_key", "aws_secret_key",
		"gcp_api_key", "gcp_service_account_key", "slack_token", "slack_webhook",
		"stripe_key", "private_key", "jwt", "high_entropy_secret",
	} {
		if !seen[kind] {
			t.Errorf("no generated credential of kind %s", kind)
		}
	}
}

// TestScanFindsCredentialsInContext places credentials where an agent
// would paste them: in prose, in code, glued to a word, after others.
func TestScanFindsCredentialsInContext(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	pat := "ghp_" + draw(r, alnum, 36)
	aws := "AKIA" + draw(r, upper+digits, 16)
	for _, c := range []struct {
		name, text string
		kind       string
		at         int
	}{
		{"in prose", "the token is " + pat + ", use it", "github_token", 13},
		{"in a fenced block", "```sh\nexport GH_TOKEN=" + pat + "\n```", "github_token", 22},
		{"in a code span", "run `curl -H 'Authorization: token " + pat + "'`", "github_token", 35},
		{"glued to a word", "token" + pat, "github_token", 5},
		{"in a URL", "https://x-access-token:" + pat + "@github.com/o/r.git", "github_token", 23},
		{"the first of two", aws + " then " + pat, "aws_access_key", 0},
		{"a key before its shape", "aws_key_id: " + aws, "aws_access_key", 12},
		{"percent-free query", "https://api.example.com/v1?api_key=" + draw(r, alnum, 32), "high_entropy_secret", 35},
		{"a UUID under a token key", "token: " + "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "high_entropy_secret", 7},
		{"a leetspeak password", "password = s3cr3t-p4ssw0rd-f0r-pr0d-2026", "high_entropy_secret", 11},
		{"basic auth", "Authorization: Basic " + "YWxpY2U6czNjcjN0LXA0c3N3MHJk", "high_entropy_secret", 21},
		{"at a sentence's end", "Use password: Xk9mQ2vL8nR4tT6wY1zB.", "high_entropy_secret", 14},
		{"with an @ in a word", "password: 'Xk9mQ2vL@nR4tT6wY1zB3'", "high_entropy_secret", 11},
		// 20 hex digits of 2.9 bits a byte: under the threshold for other
		// alphabets, over the one for hex, which cannot reach 4.
		{"a short hex secret", "client_secret: " + "3a7f3a9c1e7f9c3a1e7d", "high_entropy_secret", 15},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "a short hex secret" {
				if h := entropy(c.text[c.at:]); h < 2.7 || h >= 3.2 {
					t.Fatalf("the case's value measures %.2f bits, want between the two thresholds, 2.7 and 3.2", h)
				}
			}
			got := Scan(c.text)
			if got == nil {
				t.Fatalf("Scan = nil, want %s at %d", c.kind, c.at)
			}
			if got.Kind != c.kind {
				t.Errorf("Scan found %s, want %s", got.Kind, c.kind)
			}
			if got.Offset != c.at {
				t.Errorf("Scan found it at %d, want %d", got.Offset, c.at)
			}
		})
	}
}

// TestScanPassesNearMisses holds text that is close to a credential's
// shape, or names one without holding it: Scan finds nothing, and Apply
// writes it unchanged.
func TestScanPassesNearMisses(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for _, c := range []struct{ name, text string }{
		// GitHub
		{"classic token one short", "ghp_" + draw(r, alnum, 35)},
		{"unknown prefix", "ghx_" + draw(r, alnum, 36)},
		{"prefix in capitals", "GHP_" + draw(r, alnum, 36)},
		{"hyphen for underscore", "ghp-" + draw(r, alnum, 36)},
		{"fine-grained, first part short", "github_pat_" + draw(r, alnum, 21) + "_" + draw(r, alnum, 59)},
		{"fine-grained, second part short", "github_pat_" + draw(r, alnum, 22) + "_" + draw(r, alnum, 58)},
		{"the emulator's fine-grained token", "GH_TOKEN=github_pat_emu_alice"},
		{"the emulator's tokens", "token: emu-alice\ntoken: emu-alice-delete\nGITHUB_TOKEN=emu-alice-noproject"},
		{"a commit SHA", "Fixed in 4196919fb12cc4aa8ec0159a746c1e03b4ffa89c, see GITHUB_SHA=4196919fb12cc4aa8ec0159a746c1e03b4ffa89c"},
		{"a SHA under a sha key", `"sha": "4196919fb12cc4aa8ec0159a746c1e03b4ffa89c"`},
		{"39 hex digits under a token key", "token: " + strings.Repeat("ab", 19) + "a"},
		// AWS
		{"access key id one short", "AKIA" + draw(r, upper+digits, 15)},
		{"access key id in lower case", "akia" + draw(r, lower+digits, 16)},
		{"other AWS id prefixes", "AIDA" + draw(r, upper+digits, 16) + " AROA" + draw(r, upper+digits, 16)},
		{"secret key with no key", "checksum " + draw(r, b64, 40)},
		{"secret key left to a variable", "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}"},
		{"secret key masked", "AWS_SECRET_ACCESS_KEY=****************************************"},
		{"region under an aws key", "aws_region: us-east-1"},
		// GCP
		{"API key one short", "AIza" + draw(r, alnum, 34)},
		{"API key prefix in other case", "Aiza" + draw(r, alnum, 35)},
		{"service account key id", `"private_key_id": "` + draw(r, hexab, 40) + `"`},
		{"service account key empty", `"private_key": ""`},
		{"service account key redacted", `"private_key": "<redacted>"`},
		// Slack
		{"slack placeholder", "xoxb-your-bot-token-goes-here-please"},
		{"slack token too short", "xoxb-1234-5678"},
		{"slack unknown prefix", "xoxz-" + draw(r, digits, 11) + "-" + draw(r, alnum, 24)},
		{"slack webhook path only", "post to https://hooks.slack.com/services/ with your URL"},
		{"slack webhook placeholder", "https://hooks.slack.com/services/YOUR/WEBHOOK/URL"},
		{"slack webhook ids too short", "https://hooks.slack.com/services/T000/B000/" + draw(r, alnum, 24)},
		// Stripe
		{"publishable key", "pk_live_" + draw(r, alnum, 24)},
		{"secret key one short", "sk_live_" + draw(r, alnum, 23)},
		{"unknown mode", "sk_prod_" + draw(r, alnum, 24)},
		// PEM
		{"public key", "-----BEGIN PUBLIC KEY-----\n" + draw(r, b64, 64) + "\n-----END PUBLIC KEY-----"},
		{"certificate", "-----BEGIN CERTIFICATE-----\n" + draw(r, b64, 64) + "\n-----END CERTIFICATE-----"},
		{"private key header with no key", "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----"},
		{"private key named in prose", "paste the BEGIN PRIVATE KEY block into the secret"},
		// JWT
		{"one segment", b64url(`{"alg":"HS256"}`)},
		{"two segments", b64url(`{"alg":"HS256"}`) + "." + b64url(`{"sub":"1"}`)},
		{"header without alg", b64url(`{"typ":"JWT"}`) + "." + b64url(`{"sub":"1"}`) + ".sig"},
		{"not JSON", "eyJub3QganNvbg.eyJzdWIiOiIxIn0.sig"},
		{"dotted names", "a.b.c and config.json.bak and v1.2.3"},
		// Keys and values
		{"a variable", "token: ${{ secrets.GITHUB_TOKEN }}\npassword: $DB_PASSWORD"},
		{"a placeholder", "api_key: YOUR_API_KEY_GOES_HERE\npassword=<your-password-here>"},
		{"a mask", "password: ********************"},
		{"a variable, however named", `password: "${DB_PASSWORD_7Kx9Qm2Lz4Rv}"`},
		// What Apply may rewrite ends a value, so that rewriting cannot
		// make one: here "@a" and the link would gain markup.
		{"a value before a mention", `token: "x7!@alice-and-more-words-here"`},
		{"a value before a link", "token=https://example.com/Xk9mQ2vL8nR4tT6wY1zB"},
		{"a path", "secret_file: /etc/ghgate/secrets/github-app-key.pem"},
		{"a resource name", "secretName: production-database-credentials-2026"},
		{"a model name", "tokenizer: bert-base-uncased-whole-word-masking"},
		{"a count", "max_tokens: 12345678901234567890123"},
		{"repetition", "password: changeme-changeme-changeme"},
		{"a short password", "password: hunter2"},
		{"a passphrase of words", "passphrase: 'correct horse battery staple'"},
		{"camel-case words", "secret_ref: MyDatabasePasswordForProduction"},
		{"a comparison", "if token == " + draw(r, alnum, 32) + " {"},
		{"a URL as value", "token_url: https://github.com/login/oauth/access_token"},
		{"prose", "The token: see the docs. The password is kept in the vault."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Scan(c.text); got != nil {
				t.Errorf("Scan = %s at %d, want nil", got.Kind, got.Offset)
			}
			out, counts, sec := Rules{}.Apply("body", c.text)
			checkUnchanged(t, "Apply", out, c.text, counts, sec)
		})
	}
}

// TestSecretCarriesNoValue holds that what Apply reports of a secret,
// as it would be encoded into a refusal, has none of the secret.
func TestSecretCarriesNoValue(t *testing.T) {
	for _, c := range credentialSet[:len(credentialMakers)] {
		out, _, sec := Rules{}.Apply("body", "before "+c.text)
		if out != "" {
			t.Errorf("%v: Apply returned text %q with its refusal, want none", c, out)
		}
		b, err := json.Marshal(sec)
		if err != nil {
			t.Fatal(err)
		}
		value := c.text[c.at:]
		if len(value) > 12 {
			value = value[4:12] // a piece past any public prefix
		}
		if strings.Contains(string(b), value) {
			t.Errorf("%v: refusal %s holds %q", c, b, value)
		}
		if !strings.Contains(string(b), `"field":"body"`) {
			t.Errorf("%v: refusal %s does not name the field", c, b)
		}
	}
}

func TestSecretScanOff(t *testing.T) {
	off := false
	text := "here: ghp_" + draw(rand.New(rand.NewPCG(1, 2)), alnum, 36)
	out, _, sec := Rules{SecretScan: &off}.Apply("body", text)
	if sec != nil {
		t.Errorf("with the scan off: found %s at %d, want no secret", sec.Kind, sec.Offset)
	}
	if out != text {
		t.Errorf("with the scan off: Apply = %q, want the text back %q", out, text)
	}
	on := true
	_, _, sec = (Rules{SecretScan: &on}).Apply("title", text)
	if sec == nil {
		t.Fatalf("with the scan on: no secret found, want github_token in title at 6")
	}
	if sec.Field != "title" {
		t.Errorf("with the scan on: secret in field %q, want title", sec.Field)
	}
	if sec.Offset != 6 {
		t.Errorf("with the scan on: secret at %d, want 6", sec.Offset)
	}
}

func TestEntropyThresholdsKeepRandomValues(t *testing.T) {
	// The figures randomLooking's comment gives: random values of 20
	// bytes clear the thresholds nearly always.
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		alphabet  string
		threshold float64
	}{{lower + digits, 3.2}, {alnum, 3.2}, {b64, 3.2}, {hexab, 2.7}} {
		below := 0
		for range 10000 {
			if entropy(draw(r, c.alphabet, 20)) < c.threshold {
				below++
			}
		}
		if below > 20 {
			t.Errorf("alphabet %q: %d of 10000 random values below %.1f bits, want at most 20", c.alphabet, below, c.threshold)
		}
	}
}
