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

// Post sends one MCP request of protocol version 2026-07-28 over
// streamable HTTP, as a client declaring the tasks extension does, with
// client in the X-Client header (for servers that name task owners by
// it), and returns its result; an error answer comes back as
// {"error": …}. Each call is its own connection: a task started by one
// is read by the next as after a dropped connection.
func Post(t testing.TB, url, client, method string, params map[string]any) map[string]any {
	t.Helper()
	return PostWith(t, url, http.Header{"X-Client": {client}}, method, params)
}

// PostWith is Post with the given headers (an Authorization, say) in
// place of X-Client.
func PostWith(t testing.TB, url string, header http.Header, method string, params map[string]any) map[string]any {
	t.Helper()
	status, res := PostStatus(t, url, header, method, params)
	if res == nil {
		t.Fatalf("%s: HTTP %d, no answer", method, status)
	}
	return res
}

// PostStatus is [PostWith] that also returns the HTTP status, and a nil
// answer where the body holds no JSON-RPC answer (as a 401's does not).
func PostStatus(t testing.TB, url string, header http.Header, method string, params map[string]any) (int, map[string]any) {
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
	if id, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", id)
	}
	for k, v := range header {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	req.Close = true
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
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		line, _ := strings.CutPrefix(sc.Text(), "data: ")
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &msg) == nil && (msg.Result != nil || msg.Error != nil) {
			break
		}
	}
	if msg.Error != nil {
		return resp.StatusCode, map[string]any{"error": msg.Error}
	}
	return resp.StatusCode, msg.Result
}
