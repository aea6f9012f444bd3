package main

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/policy"
)

// settingDoc is one config key's row in docs/configuration.md.
type settingDoc struct {
	key, meaning string
}

// brokerConfigKeys are [broker.Config]'s keys as its TOML file spells them:
// a table's keys joined by dots (listen.socket), an array of tables'
// likewise (route.owner), a nested table both as a key and by its keys
// (upstream.allow, upstream.allow.tool). The write policy is one key: it
// is the table serve and the HTTP clients share, whose keys
// docs/write-policy.md documents.
func brokerConfigKeys() []string {
	return structKeys(reflect.TypeFor[broker.Config](), "")
}

func structKeys(typ reflect.Type, prefix string) []string {
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := strings.Split(f.Tag.Get("toml"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		key := prefix + tag
		ft := f.Type
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			ft = ft.Elem()
		}
		if ft == reflect.TypeFor[policy.Rules]() {
			out = append(out, key)
			continue
		}
		if ft.Kind() == reflect.Struct {
			if prefix != "" {
				out = append(out, key)
			}
			out = append(out, structKeys(ft, key+".")...)
			continue
		}
		out = append(out, key)
	}
	return out
}

// checkSettingDocs reports the keys without a row and the rows that name
// no key: both are errors, so the page and the code agree.
func checkSettingDocs(what string, keys []string, docs []settingDoc) error {
	have := map[string]bool{}
	for _, d := range docs {
		if have[d.key] {
			return fmt.Errorf("%s: `%s` is documented twice", what, d.key)
		}
		have[d.key] = true
	}
	var problems []string
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
		if !have[k] {
			problems = append(problems, fmt.Sprintf("`%s` has no row (add one to %s in cmd/ghgate/docpages_settings_table.go)", k, what))
		}
	}
	for _, d := range docs {
		if !want[d.key] {
			problems = append(problems, fmt.Sprintf("`%s` is documented in %s but is no config key", d.key, what))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// renderConfiguration is docs/configuration.md: serve's settings (each
// config file key with its flag, when it has one) and the broker's.
func renderConfiguration() ([]byte, error) {
	if err := checkSettingDocs("serveSettingDocs", configKeys(), serveSettingDocs); err != nil {
		return nil, err
	}
	if err := checkSettingDocs("brokerSettingDocs", brokerConfigKeys(), brokerSettingDocs); err != nil {
		return nil, err
	}
	flags := newServeCommand().Flags()
	var w mdWriter
	w.p("# Configuration\n\n")
	w.p(generatedNote)
	w.p("`ghgate serve` and `ghgate broker` read TOML files whose every key is below;\n" +
		"unknown keys are an error. The write policy (`policy`) is one table both\n" +
		"share with the HTTP clients file: its keys are in [write-policy.md](write-policy.md).\n\n")
	w.p("## Serve settings\n\n")
	w.p("Flags, or the same keys in a TOML file given with `--config` (flags win; the\n" +
		"token comes from `GITHUB_TOKEN` or `GH_TOKEN`, else the file's `token`):\n\n")
	w.p("| key / flag | meaning |\n|---|---|\n")
	for _, d := range serveSettingDocs {
		name := "`" + d.key + "`"
		if f := flags.Lookup(strings.ReplaceAll(d.key, "_", "-")); f != nil {
			name += " / `--" + f.Name + "`"
		}
		w.p("| %s | %s |\n", name, cell(d.meaning))
	}
	w.p("\nDurations are Go duration strings in the file (`\"30s\"`, `\"2m\"`); a bare\n" +
		"number is an error. The stdio transport bounds its input too: a line over\n" +
		"1 MiB, or a JSON-RPC batch of more than 20 messages, is answered with an\n" +
		"Invalid Request error and skipped, and the session goes on.\n\n")
	w.p("The HTTP clients file (`--auth`) is described in [http.md](http.md).\n\n")
	w.p("## Broker settings\n\n")
	w.p("`ghgate broker --config /etc/ghgate/broker.toml` (the annotated example is\n" +
		"`deploy/broker.example.toml`; [broker.md](broker.md) walks through a\n" +
		"deployment). Unknown keys are an error. A table's keys are written here\n" +
		"joined by dots: `listen.socket` is `socket` under `[listen]`, `route.owner`\n" +
		"is `owner` in a `[[route]]`.\n\n")
	w.p("| key | meaning |\n|---|---|\n")
	for _, d := range brokerSettingDocs {
		w.p("| `%s` | %s |\n", d.key, cell(d.meaning))
	}
	w.p("\nErrors about credentials name the route and the secret's name, never its value.\n")
	return w.Bytes(), nil
}
