package servertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PostTasks sends one 2026-07-28 request over streamable HTTP to url,
// declaring the tasks extension, as the client named by the X-Client
// header; the JSON-RPC result comes back, or {"error": …}.
func PostTasks(t testing.TB, url, client, method string, params map[string]any) map[string]any {
	t.Helper()
	params["_meta"] = map[string]any{mcp.MetaKeyProtocolVersion: "2026-07-28",
		mcp.MetaKeyClientCapabilities: map[string]any{"extensions": map[string]any{tasks.Extension: map[string]any{}}},
		mcp.MetaKeyClientInfo:         map[string]any{"name": "t", "version": "0"}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if n, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", n)
	}
	req.Header.Set("X-Client", client)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			line = d
		}
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &msg) == nil && (msg.Result != nil || msg.Error != nil) {
			break
		}
	}
	if msg.Error != nil {
		return map[string]any{"error": msg.Error}
	}
	if msg.Result == nil {
		t.Fatalf("%s: HTTP %d, no answer", method, resp.StatusCode)
	}
	return msg.Result
}
