package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// messageSeeds are lines the line reader passes on or answers: requests,
// notifications and responses, and objects the SDK refuses for each reason
// it has (version, ID type, method type, a response without an ID, a field
// of the wrong type, a key spelled in another case, nesting).
var messageSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"github_get_issue","arguments":{"owner":"acme","repo":"widgets","issue_number":1}}}`,
	`{"jsonrpc":"2.0","id":"a-1","method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","method":""}`,
	`{"jsonrpc":"2.0","method":null}`,
	`{"jsonrpc":"2.0","method":5}`,
	`{"jsonrpc":"2.0","method":["ping"]}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such method","data":{"x":1}}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"error":null}`,
	`{"jsonrpc":"2.0","id":1,"error":"bad"}`,
	`{"jsonrpc":"2.0","result":{}}`,
	`{"jsonrpc":"2.0","id":null,"result":{}}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}`,
	`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
	`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
	`{"jsonrpc":2.0,"id":1,"method":"ping"}`,
	`{"id":1,"method":"ping"}`,
	`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","ID":1,"Method":"ping"}`,
	`{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","extra":{"deep":[[[]]]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}`,
	`{"jsonrpc":"2.0","id":1,"method":"\ud800"}`,
	`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":9223372036854775808,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`,
	`{}`,
}

// isMessage answers as jsonrpc.DecodeMessage does for every seed, and the
// seeds cover both answers.
func TestIsMessageAgreesWithTheSDK(t *testing.T) {
	t.Parallel()
	var yes, no int
	for _, s := range messageSeeds {
		want := sdkReads([]byte(s))
		if got := isMessage([]byte(s)); got != want {
			t.Errorf("isMessage(%.120s) = %v, jsonrpc.DecodeMessage reads it: %v", s, got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	if yes < 8 || no < 15 {
		t.Errorf("seeds read by the SDK: %d, refused: %d; want both kinds", yes, no)
	}
}

// FuzzMessageCheck holds isMessage to jsonrpc.DecodeMessage on every line
// the line reader asks it about, a whole JSON object, and isBatch to the
// SDK's reading of a whole JSON array.
func FuzzMessageCheck(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	for _, s := range batchSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		value := bytes.TrimSpace(b)
		if !json.Valid(value) {
			return
		}
		switch value[0] {
		case '{':
			if got, want := isMessage(value), sdkReads(value); got != want {
				t.Fatalf("isMessage(%q) = %v, jsonrpc.DecodeMessage reads it: %v", value, got, want)
			}
		case '[':
			if got, want := isBatch(value), sdkReadsBatch(value); got != want {
				t.Fatalf("isBatch(%q) = %v, the SDK reads every element: %v", value, got, want)
			}
		}
	})
}

// batchSeeds are batches the SDK reads and ones it fails on.
var batchSeeds = []string{
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
	`[{"jsonrpc":"2.0","id":1,"result":{}}]`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},1]`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"id":2,"method":"ping"}]`,
	`[[{"jsonrpc":"2.0","id":1,"method":"ping"}]]`,
	`[null]`,
	`[]`,
	` [ {"jsonrpc":"2.0","id":"x","method":"ping"} ] `,
}

// isBatch answers as the SDK's batch reading does for every seed.
func TestIsBatchAgreesWithTheSDK(t *testing.T) {
	t.Parallel()
	var yes, no int
	for _, s := range batchSeeds {
		value := bytes.TrimSpace([]byte(s))
		want := sdkReadsBatch(value)
		if got := isBatch(value); got != want {
			t.Errorf("isBatch(%s) = %v, the SDK reads every element: %v", s, got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	if yes < 3 || no < 4 {
		t.Errorf("batch seeds read by the SDK: %d, refused: %d; want both kinds", yes, no)
	}
}

// sdkReadsBatch is the SDK's reading of a JSON array (mcp's readBatch):
// its elements, each decoded with jsonrpc.DecodeMessage, none of them
// failing, and at least one.
func sdkReadsBatch(value []byte) bool {
	var elems []json.RawMessage
	if err := json.Unmarshal(value, &elems); err != nil || len(elems) == 0 {
		return false
	}
	for _, e := range elems {
		if !sdkReads(e) {
			return false
		}
	}
	return true
}

func sdkReads(value []byte) bool {
	_, err := jsonrpc.DecodeMessage(value)
	return err == nil
}
