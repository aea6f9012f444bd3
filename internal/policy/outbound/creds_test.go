package outbound

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
)

// The credentials the tests use are built at run time from a seeded
// generator, so that no literal in the repository has a provider's
// shape: secret scanning and push protection read source files.

const (
	lower  = "abcdefghijklmnopqrstuvwxyz"
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits = "0123456789"
	alnum  = lower + upper + digits
	b64    = alnum + "+/"
	hexab  = digits + "abcdef"
)

func draw(r *rand.Rand, from string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = from[r.IntN(len(from))]
	}
	return string(b)
}

func oneOf(r *rand.Rand, words ...string) string { return words[r.IntN(len(words))] }

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// credential is a generated credential: its kind, the text that holds
// it, and the offset Scan reports (where the value starts, for a key and
// value).
type credential struct {
	kind string
	text string
	at   int
}

// keyed builds "prefix" + value + "suffix", the value's offset after prefix.
func keyed(kind, prefix, value, suffix string) credential {
	return credential{kind, prefix + value + suffix, len(prefix)}
}

func bare(kind, text string) credential { return credential{kind, text, 0} }

// credentialMakers make one credential of each shape Scan finds, in the
// forms it is found in.
var credentialMakers = []func(r *rand.Rand) credential{
	func(r *rand.Rand) credential { // classic, OAuth, user, installation, refresh
		return bare("github_token", "gh"+oneOf(r, "p", "o", "u", "s", "r")+"_"+draw(r, alnum, 36+r.IntN(40)))
	},
	func(r *rand.Rand) credential { // installation token, stateless: ghs_APPID_JWT
		return bare("github_token", "ghs_"+draw(r, digits, 7)+"_"+b64url(`{"alg":"RS256"}`)+"."+b64url(`{"iss":"x"}`)+"."+draw(r, alnum+"-_", 43))
	},
	func(r *rand.Rand) credential {
		return bare("github_fine_grained_pat", "github_pat_"+draw(r, alnum, 22)+"_"+draw(r, alnum, 59))
	},
	func(r *rand.Rand) credential { // before 2021: 40 hex digits, known by its key
		form := forms[r.IntN(len(forms))]
		return keyed("github_token", form[0]+oneOf(r, "GITHUB_TOKEN", "gh_token", "access_token")+form[1], draw(r, hexab, 40), form[2])
	},
	func(r *rand.Rand) credential {
		return keyed("github_token", "Authorization: "+oneOf(r, "token ", "Bearer "), draw(r, hexab, 40), "\r\n")
	},
	func(r *rand.Rand) credential {
		return bare("aws_access_key", oneOf(r, "AKIA", "ASIA")+draw(r, upper+digits, 16))
	},
	func(r *rand.Rand) credential {
		form := forms[r.IntN(len(forms))]
		return keyed("aws_secret_key", form[0]+oneOf(r, "aws_secret_access_key", "AWS_SECRET_ACCESS_KEY", "SecretAccessKey")+form[1], draw(r, b64, 40), form[2])
	},
	func(r *rand.Rand) credential {
		return bare("gcp_api_key", "AIza"+draw(r, alnum+"-_", 35))
	},
	func(r *rand.Rand) credential {
		prefix := `{"type": "service_account", "private_key": "`
		return keyed("gcp_service_account_key", prefix, "-----BEGIN PRIVATE KEY-----\\n"+draw(r, b64, 64)+"\\n-----END PRIVATE KEY-----\\n", `"}`)
	},
	func(r *rand.Rand) credential {
		return bare("slack_token", "xox"+oneOf(r, "b", "p", "a", "r", "s")+"-"+draw(r, digits, 11)+"-"+draw(r, digits, 12)+"-"+draw(r, alnum, 24))
	},
	func(r *rand.Rand) credential {
		return keyed("slack_webhook", "https://", "hooks.slack.com/services/T"+draw(r, upper+digits, 10)+"/B"+draw(r, upper+digits, 10)+"/"+draw(r, alnum, 24), "")
	},
	func(r *rand.Rand) credential {
		return bare("stripe_key", oneOf(r, "sk", "rk")+"_"+oneOf(r, "live", "test")+"_"+draw(r, alnum, 24+r.IntN(76)))
	},
	func(r *rand.Rand) credential {
		label := oneOf(r, "", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED ")
		return bare("private_key", "-----BEGIN "+label+"PRIVATE KEY-----\n"+draw(r, b64, 64)+"\n"+draw(r, b64, 40)+"=\n-----END "+label+"PRIVATE KEY-----")
	},
	func(r *rand.Rand) credential {
		head := b64url(oneOf(r, `{"alg":"HS256","typ":"JWT"}`, `{"typ":"JWT","alg":"RS256"}`, `{"kid":"k1","alg":"ES256"}`))
		return bare("jwt", head+"."+b64url(`{"sub":"`+draw(r, digits, 8)+`"}`)+"."+draw(r, alnum+"-_", 43))
	},
	func(r *rand.Rand) credential {
		form := forms[r.IntN(len(forms))]
		key := oneOf(r, "password", "DB_PASSWORD", "client_secret", "api_key", "apiKey", "--token", "passphrase")
		return keyed("high_entropy_secret", form[0]+key+form[1], draw(r, alnum, 20+r.IntN(30)), form[2])
	},
	func(r *rand.Rand) credential {
		return keyed("high_entropy_secret", "Authorization: "+oneOf(r, "Bearer ", "Basic "), base64.StdEncoding.EncodeToString([]byte(draw(r, lower, 6)+":"+draw(r, alnum, 16))), "\n")
	},
}

// forms are the ways a key and its value are written: before the key,
// between key and value, after the value.
var forms = [][3]string{
	{"", ": ", "\n"},         // YAML
	{"", "=", "\n"},          // shell, .env
	{"export ", "='", "'\n"}, // shell, quoted
	{`"`, `": "`, `"`},       // JSON
	{"", ` = "`, `"`},        // TOML, code
	{"", " := `", "`"},       // Go
	{"?x=1&", "=", "&y=2"},   // a query string
}

// credentialSet is the fixed set the tests draw from: each maker, many
// times. TestScanFindsEveryGeneratedCredential holds that Scan finds each
// on its own; FuzzApply splices them into arbitrary text.
var credentialSet = func() []credential {
	r := rand.New(rand.NewPCG(29, 1))
	var set []credential
	for range 24 {
		for _, mk := range credentialMakers {
			set = append(set, mk(r))
		}
	}
	return set
}()

// withoutValue is c's text with the credential cut out, for messages:
// a failing test prints where, never what.
func (c credential) String() string {
	return c.kind + " in " + strings.Map(func(r rune) rune {
		if strings.ContainsRune(alnum, r) {
			return 'x'
		}
		return r
	}, c.text)
}
