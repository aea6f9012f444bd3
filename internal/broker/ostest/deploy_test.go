package ostest

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/policy"
)

// These checks need no root: the files under deploy/ and the docs pages
// that document them.

func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestExampleConfigLoads(t *testing.T) {
	cfg, err := broker.LoadConfig(filepath.Join(moduleRoot(t), "deploy", "broker.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen.Socket != "/run/ghgate/ghgate.sock" {
		t.Errorf("listen socket = %q, want /run/ghgate/ghgate.sock", cfg.Listen.Socket)
	}
	if cfg.Listen.Group != "ghgate-clients" {
		t.Errorf("listen group = %q, want ghgate-clients", cfg.Listen.Group)
	}
	if cfg.Listen.Mode != "0660" {
		t.Errorf("listen mode = %q, want 0660", cfg.Listen.Mode)
	}
	// The secrets example parses as name = "value" lines for the same names.
	var secrets map[string]string
	if _, err := toml.Decode(readRepoFile(t, "deploy/secrets.example.toml"), &secrets); err != nil {
		t.Fatalf("secrets.example.toml: %v", err)
	}
	for _, name := range cfg.SecretNames() {
		if secrets[name] == "" {
			t.Errorf("secrets.example.toml lacks %s", name)
		}
	}
	// The unit's LoadCredential= lines name the example's secrets.
	unit := readRepoFile(t, "deploy/ghgate-broker.service")
	for _, name := range cfg.SecretNames() {
		if !strings.Contains(unit, "\nLoadCredential="+name+"\n") {
			t.Errorf("the unit has no LoadCredential=%s", name)
		}
	}
}

// configKeys lists every key of the broker's config as dotted paths
// ("listen.socket", "route.app_id", "upstream.allow.tool").
func configKeys(typ reflect.Type, prefix string) []string {
	var out []string
	for i := 0; i < typ.NumField(); i++ {
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
			// The write policy is one table shared with serve and the HTTP
			// clients: docs/configuration.md names it, docs/write-policy.md has its
			// keys (TestWritePolicyDocumentsEveryKey).
			out = append(out, key)
			continue
		}
		if ft.Kind() == reflect.Struct {
			// A top-level table ([listen], [[route]]) is not a key itself;
			// a nested one (upstream.allow) is.
			if prefix != "" {
				out = append(out, key)
			}
			out = append(out, configKeys(ft, key+".")...)
			continue
		}
		out = append(out, key)
	}
	return out
}

// TestDocsDocumentEveryConfigKey: every key of the broker's config has a
// row in docs/configuration.md's broker table, and docs/broker.md keeps
// the deployment's commands.
func TestDocsDocumentEveryConfigKey(t *testing.T) {
	page := readRepoFile(t, "docs/configuration.md")
	start := strings.Index(page, "## Broker settings")
	if start < 0 {
		t.Fatal(`docs/configuration.md has no "## Broker settings" section`)
	}
	section := page[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	keys := configKeys(reflect.TypeOf(broker.Config{}), "")
	t.Logf("config keys: %v", keys)
	if len(keys) < 20 {
		t.Fatalf("walked %d keys, want at least 20: %v", len(keys), keys)
	}
	for _, k := range keys {
		if !strings.Contains(section, "| `"+k+"` |") {
			t.Errorf("docs/configuration.md's broker table lacks `%s`", k)
		}
	}
	guide := readRepoFile(t, "docs/broker.md")
	for _, want := range []string{"provision.sh --agent-user", "ghgate doctor --config", `"args": ["connect", "--socket", "/run/ghgate/ghgate.sock"]`,
		"systemctl reload ghgate-broker", "systemctl enable --now ghgate-broker"} {
		if !strings.Contains(guide, want) {
			t.Errorf("docs/broker.md lacks %q", want)
		}
	}
}

// The unit's hardening stays in place.
func TestUnitHardening(t *testing.T) {
	unit := readRepoFile(t, "deploy/ghgate-broker.service")
	lines := map[string]bool{}
	for _, l := range strings.Split(unit, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, want := range []string{
		"User=ghgate", "Group=ghgate", "SupplementaryGroups=ghgate-clients",
		"ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "PrivateDevices=yes", "NoNewPrivileges=yes",
		"RuntimeDirectory=ghgate", "StateDirectory=ghgate", "LogsDirectory=ghgate",
		"CapabilityBoundingSet=", "AmbientCapabilities=",
		"SystemCallFilter=@system-service", "SystemCallFilter=~@privileged @resources",
		"RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
		"ProtectKernelTunables=yes", "ProtectKernelModules=yes", "ProtectKernelLogs=yes",
		"MemoryDenyWriteExecute=yes", "LockPersonality=yes", "RestrictNamespaces=yes", "UMask=0007",
		"ExecReload=/bin/kill -HUP $MAINPID",
		"MemoryMax=768M", "TasksMax=512", "LimitNOFILE=4096",
		"ExecStart=/usr/local/bin/ghgate broker --config /etc/ghgate/broker.toml",
	} {
		if !lines[want] {
			t.Errorf("the unit lacks the line %q", want)
		}
	}
}

// systemd-analyze verify accepts the unit without a warning. The binary
// need not be installed: ExecStart is pointed at /bin/true for the check.
func TestUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("systemd-analyze is not installed; .ci/run installs the systemd package for this test")
		}
		t.Skip("SKIPPED: systemd-analyze is not installed (apt-get install systemd); the unit was not verified")
	}
	unit := strings.Replace(readRepoFile(t, "deploy/ghgate-broker.service"),
		"ExecStart=/usr/local/bin/ghgate ", "ExecStart=/bin/true ", 1)
	path := filepath.Join(t.TempDir(), "ghgate-broker.service")
	if err := os.WriteFile(path, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
	if len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify printed warnings, want none:\n%s", out)
	}
}

func TestProvisionScriptParses(t *testing.T) {
	out, err := exec.Command("bash", "-n", filepath.Join(moduleRoot(t), "deploy", "provision.sh")).CombinedOutput()
	if err != nil {
		t.Fatalf("bash -n provision.sh: %v\n%s", err, out)
	}
	fi, err := os.Stat(filepath.Join(moduleRoot(t), "deploy", "provision.sh"))
	if err != nil {
		t.Errorf("stat provision.sh: %v", err)
	} else if fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("provision.sh mode = %v, want it executable", fi.Mode().Perm())
	}
}

// Every key of the write policy, which the broker, serve and the HTTP
// clients share, has a row in docs/write-policy.md.
func TestWritePolicyDocumentsEveryKey(t *testing.T) {
	doc := readRepoFile(t, "docs/write-policy.md")
	keys := configKeys(reflect.TypeFor[policy.Rules](), "")
	if len(keys) < 10 {
		t.Fatalf("walked %d keys, want at least 10: %v", len(keys), keys)
	}
	for _, k := range keys {
		if k == "outbound" || k == "confirm" || k == "flow" {
			continue // tables; their keys have rows
		}
		if !strings.Contains(doc, "`"+k+"`") && !strings.Contains(doc, "`"+k+".") {
			t.Errorf("docs/write-policy.md lacks `%s`", k)
		}
	}
}
