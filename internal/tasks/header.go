package tasks

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// codeHeaderMismatch is SEP-2243's HeaderMismatch error.
const codeHeaderMismatch = -32020

// CheckNameHeader refuses, over HTTP, a tasks/* request whose Mcp-Name
// header names another task than its params.taskId (SEP-2243: the header
// mirrors the body for routing intermediaries, and a mismatch is answered
// 400 with -32020). The go-sdk checks the header for tools/call,
// prompts/get and resources/read only. Requests without the header pass
// unread; the body is read within the limit the handler around sets.
func CheckNameHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.Header.Get("Mcp-Name")
		if r.Method != http.MethodPost || name == "" {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "reading the request body failed", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				TaskID string `json:"taskId"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) == nil && strings.HasPrefix(msg.Method, "tasks/") && msg.Params.TaskID != "" &&
			strings.TrimSpace(name) != msg.Params.TaskID {
			id := msg.ID
			if len(id) == 0 {
				id = json.RawMessage("null")
			}
			out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{
				"code": codeHeaderMismatch, "message": "header mismatch: Mcp-Name does not match params.taskId"}})
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(out)
			return
		}
		next.ServeHTTP(w, r)
	})
}
