// Command spy is an upstream MCP server for the OS-user tests: its tools
// report what the process running them can reach (its identity and
// capabilities, the broker's /proc entries, the secrets file, another
// child's environment) and never the content of anything it reads. With
// -probe it prints the same report once, for a test that runs it as some
// user directly.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/broker/ostest/spyreport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type probeArgs struct {
	// SiblingPID is another child whose environment to try; 0 skips it.
	SiblingPID int `json:"sibling_pid,omitempty"`
}

func main() {
	tokenEnv := flag.String("token-env", "SPY_TOKEN", "the variable holding the token")
	secrets := flag.String("secrets", "", "the secrets file to try")
	probeOnce := flag.Bool("probe", false, "print one report and exit instead of serving MCP")
	target := flag.Int("pid", 0, "with -probe: the process whose /proc entries to try (default the parent)")
	sibling := flag.Int("sibling", 0, "with -probe: the process whose environment to try as a sibling")
	flag.Parse()

	if *probeOnce {
		pid := *target
		if pid == 0 {
			pid = os.Getppid()
		}
		if err := json.NewEncoder(os.Stdout).Encode(probe(pid, *sibling, *tokenEnv, *secrets)); err != nil {
			log.Fatal(err)
		}
		return
	}

	s := mcp.NewServer(&mcp.Implementation{Name: "spy", Version: "0"}, nil)
	handler := func(_ context.Context, _ *mcp.CallToolRequest, in probeArgs) (*mcp.CallToolResult, any, error) {
		out, err := json.Marshal(probe(os.Getppid(), in.SiblingPID, *tokenEnv, *secrets))
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil, nil
	}
	// Two tools doing the same probe: the broker allowlists one as a read
	// and one as a write, so each runs in the child of that credential.
	mcp.AddTool(s, &mcp.Tool{Name: "spy_probe_read", Description: "report what this process can read"}, handler)
	mcp.AddTool(s, &mcp.Tool{Name: "spy_probe_write", Description: "report what this process can read"}, handler)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

func probe(broker, sibling int, tokenEnv, secrets string) spyreport.Report {
	r := spyreport.Report{PID: os.Getpid(), PPID: os.Getppid(), UID: os.Getuid(), EUID: os.Geteuid(), GID: os.Getgid(), EGID: os.Getegid(),
		Caps: caps(), Home: os.Getenv("HOME")}
	r.Groups, _ = os.Getgroups()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		r.EnvNames = append(r.EnvNames, name)
	}
	if tok, ok := os.LookupEnv(tokenEnv); ok {
		sum := sha256.Sum256([]byte(tok))
		r.TokenSHA256 = hex.EncodeToString(sum[:])
	}
	r.BrokerEnviron = tryRead(fmt.Sprintf("/proc/%d/environ", broker))
	r.BrokerMaps = tryRead(fmt.Sprintf("/proc/%d/maps", broker))
	r.BrokerMem = tryMem(broker)
	if secrets != "" {
		r.Secrets = tryRead(secrets)
	}
	if sibling != 0 {
		r.SiblingEnviron = tryRead(fmt.Sprintf("/proc/%d/environ", sibling))
	}
	return r
}

// tryRead reads one byte of path and discards it.
func tryRead(path string) spyreport.Access {
	a := spyreport.Access{Path: path}
	f, err := os.Open(path)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	defer f.Close()
	var b [1]byte
	if _, err := f.Read(b[:]); err != nil {
		a.Error = err.Error()
		return a
	}
	a.Readable = true
	return a
}

// tryMem reads a few bytes of pid's memory at the start of its first
// readable mapping; when its maps cannot be read, at 0x400000, where a Go
// binary's text starts (opening the file is what the kernel checks).
func tryMem(pid int) spyreport.Access {
	a := spyreport.Access{Path: fmt.Sprintf("/proc/%d/mem", pid)}
	addr := int64(0x400000)
	if start, ok := firstReadable(pid); ok {
		addr = start
	}
	f, err := os.Open(a.Path)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	defer f.Close()
	var b [8]byte
	if _, err := f.ReadAt(b[:], addr); err != nil && err != io.EOF {
		a.Error = fmt.Sprintf("read at %#x: %v", addr, err)
		return a
	}
	a.Readable = true
	return a
}

func firstReadable(pid int) (int64, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || !strings.HasPrefix(fields[1], "r") {
			continue
		}
		start, _, _ := strings.Cut(fields[0], "-")
		if n, err := strconv.ParseInt(start, 16, 64); err == nil {
			return n, true
		}
	}
	return 0, false
}

func caps() map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		out["error"] = err.Error()
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && (k == "CapInh" || k == "CapPrm" || k == "CapEff" || k == "CapAmb") {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}
