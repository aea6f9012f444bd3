package clientsetup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
)

// FuzzUpsertJSON: whatever file it is given, the edit either refuses it or
// yields a file that parses, holds the entry, and (when the entry is new)
// keeps every original byte in order.
func FuzzUpsertJSON(f *testing.F) {
	for _, name := range []string{"claude-code.json", "vscode.json", "cursor.json", "zed.json", "existing.json", "broken.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"mcpServers":{"a":{},/*x*/}//y` + "\n}"))
	entry := jsonShape(Cursor, Entry{Command: testExe, Args: []string{"serve", "--read-only"}})
	f.Fuzz(func(t *testing.T, src []byte) {
		out, existed, changed, err := upsertJSON(src, "mcpServers", "ghgate", entry)
		if err != nil {
			return
		}
		std, err := hujson.Standardize(slices.Clone(out))
		if err != nil {
			t.Fatalf("result does not parse: %v\nin:  %q\nout: %q", err, src, out)
		}
		// Keys are matched exactly, as the clients (JavaScript, Rust) do;
		// encoding/json alone would match "mCpServers" too.
		var doc map[string]json.RawMessage
		var servers map[string]json.RawMessage
		var got map[string]any
		if err := json.Unmarshal(std, &doc); err != nil {
			t.Fatalf("result is not an object: %v\nout: %q", err, out)
		}
		if err := json.Unmarshal(doc["mcpServers"], &servers); err != nil {
			t.Fatalf("mcpServers is not an object: %v\nout: %q", err, out)
		}
		if err := json.Unmarshal(servers["ghgate"], &got); err != nil {
			t.Fatalf("the entry does not decode: %v\nout: %q", err, out)
		}
		if got["command"] != testExe {
			t.Fatalf("entry command = %v, want %s\nin:  %q\nout: %q", got["command"], testExe, src, out)
		}
		if args, want := argsOf(got), []string{"serve", "--read-only"}; !slices.Equal(args, want) {
			t.Fatalf("entry args = %q, want %q\nin:  %q\nout: %q", args, want, src, out)
		}
		// A file of whitespace only is replaced, as an empty one is.
		blank := len(bytes.Trim(src, " \t\r\n")) == 0
		if !existed && !blank && !isSubsequence(src, out) {
			t.Fatalf("a new entry changed existing bytes\nin:  %q\nout: %q", src, out)
		}
		if !changed && string(out) != string(src) {
			t.Fatalf("unchanged, yet the content differs")
		}
	})
}

// FuzzUpsertTOML: the edit refuses the file or yields one that parses and
// holds the entry.
func FuzzUpsertTOML(f *testing.F) {
	for _, name := range []string{"codex.toml", "codex-existing.toml", "broken.toml"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[mcp_servers.\"ghgate\"]\ncommand = 'x'\n[[mcp_servers.ghgate.tools]]\nname = \"a\"\n"))
	entry := tomlShape(Entry{Command: testExe, Args: []string{"serve"}})
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _, _, err := upsertTOML(src, "mcp_servers", "ghgate", entry)
		if err != nil {
			return
		}
		var doc map[string]any
		if _, err := toml.Decode(string(out), &doc); err != nil {
			t.Fatalf("result does not parse: %v\nin:  %q\nout: %q", err, src, out)
		}
		servers, _ := doc["mcp_servers"].(map[string]any)
		e, _ := servers["ghgate"].(map[string]any)
		if e["command"] != testExe {
			t.Fatalf("command = %v\nin:  %q\nout: %q", e["command"], src, out)
		}
	})
}
