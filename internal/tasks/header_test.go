package tasks_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/tasks"
)

func TestCheckNameHeader(t *testing.T) {
	var reached string
	h := tasks.CheckNameHeader(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		reached = string(b)
	}))
	for _, c := range []struct {
		name, header, body string
		refused            bool
	}{
		{"mismatch", "other-task", `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"t1"}}`, true},
		{"match, with spaces", "  t1 ", `{"jsonrpc":"2.0","id":7,"method":"tasks/cancel","params":{"taskId":"t1"}}`, false},
		{"no header", "", `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"t1"}}`, false},
		{"another method (the SDK checks it)", "x", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"y"}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			reached = ""
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(c.body))
			if c.header != "" {
				req.Header.Set("Mcp-Name", c.header)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if !c.refused {
				if rec.Code != http.StatusOK {
					t.Fatalf("HTTP %d, want 200: %s", rec.Code, rec.Body)
				}
				if reached != c.body {
					t.Fatalf("handler read %q, want it passed on whole: %q", reached, c.body)
				}
				return
			}
			var msg struct {
				ID    int `json:"id"`
				Error struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &msg); err != nil {
				t.Fatalf("answer %s: %v", rec.Body, err)
			}
			if rec.Code != http.StatusBadRequest {
				t.Errorf("HTTP %d, want 400", rec.Code)
			}
			if msg.Error.Code != -32020 {
				t.Errorf("error code = %d, want -32020", msg.Error.Code)
			}
			if msg.ID != 7 {
				t.Errorf("id = %d, want 7", msg.ID)
			}
			if reached != "" {
				t.Errorf("handler read %q, want it not reached", reached)
			}
		})
	}
}
